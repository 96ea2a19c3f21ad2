package org.jwarp.bench.transport.jwarp;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import org.jwarp.bench.perf.PerfException;
import org.jwarp.bench.perf.Settings;
import org.jwarp.bench.perf.TestKind;
import org.jwarp.engine.provider.JwarpConfig;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.CmEvent;
import org.jwarp.verbs.CmEventQueue;
import org.jwarp.verbs.CompletionChannel;
import org.jwarp.verbs.CompletionQueue;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.MemoryRegion;
import org.jwarp.verbs.Moderation;
import org.jwarp.verbs.ProtectionDomain;
import org.jwarp.verbs.QpInitAttr;
import org.jwarp.verbs.QpState;
import org.jwarp.verbs.QueuePair;
import org.jwarp.verbs.RdmaDevice;
import org.jwarp.verbs.RecvWr;

/**
 * One side's verbs resources: the device (and which engine threads are its own), a PD, the
 * control QP with its CQ and channel, and once the settings are known the data QPs, their CQs
 * and two registered buffers per QP:
 *
 * <ul>
 *   <li><b>in</b> ({@code bufSize} + 64 bytes, local and remote write): target of the peer's
 *       WRITEs and of our RECVs, local target of READs; its last 64 bytes hold the credit word
 *       (the count of RECVs the peer's receiver has posted, WRITTEN there by the receiver) and a
 *       scratch byte for the closing READ;</li>
 *   <li><b>out</b> ({@code bufSize} bytes, local write and remote read): source of WRITEs and
 *       SENDs, and what the peer's READs fetch.</li>
 * </ul>
 */
final class JwarpSide implements AutoCloseable {

    final JwarpOptions options;
    final RdmaDevice device;
    final List<Thread> engineThreads;
    final boolean invoker;
    /** The warm-up pass runs: waiting threads yield the CPU (see {@link org.jwarp.bench.perf.Session#warmingUp}). */
    volatile boolean warmingUp;
    final Arena arena = Arena.ofShared();
    final ProtectionDomain pd;
    final CompletionChannel ctlChannel;
    final CompletionQueue ctlCq;
    final QueuePair ctlQp;
    final JwarpControl control;
    /** The connection manager's events for this side's connections (setup, then Disconnected). */
    final CmEventQueue cmEvents = new CmEventQueue();

    Settings settings;
    CompletionChannel dataChannel;
    CompletionQueue sendCq;
    CompletionQueue recvCq;
    QueuePair[] qps;
    MemoryRegion[] in;
    MemoryRegion[] out;
    long bufSize;
    Rendezvous.Buffers[] peer;
    /** RECVs posted on each data QP since the start (cumulative, like the credit word). */
    long[] recvsPosted;
    /** RECVs currently posted on each data QP. */
    int[] recvsOutstanding;
    private final RecvWr recvWr = new RecvWr(1);
    private boolean closed;

    JwarpSide(JwarpOptions options) {
        this.options = options;
        DeviceConfig config;
        try {
            config = options.toConfig();
        } catch (IllegalArgumentException e) {
            throw new PerfException(e.getMessage());
        }
        CmSetup.OpenDevice opened = CmSetup.open(config);
        device = opened.device();
        engineThreads = opened.engineThreads();
        invoker = options.threading() != JwarpConfig.ThreadingMode.DEDICATED;
        pd = device.allocPd();
        ctlChannel = device.createCompletionChannel(Moderation.NONE);
        ctlCq = device.createCq(64, ctlChannel);
        ctlQp = device.createQp(pd, QpInitAttr.builder(ctlCq, ctlCq).maxSendWr(8).maxRecvWr(2 * JwarpControl.RECV_SLOTS)
                .maxSendSge(1).maxRecvSge(1).maxInlineData(0).build());
        ctlQp.modify(QpState.INIT);
        control = new JwarpControl(this);
    }


    /** Creates the data QPs and buffers for {@code s}. */
    void setup(Settings s) {
        setup(s, 0);
    }

    /** As {@link #setup(Settings)}, with buffers of at least {@code minBuffer} bytes. */
    void setup(Settings s, long minBuffer) {
        settings = s;
        int q = s.qps();
        bufSize = (Math.max(Math.max(8, s.maxSize()), minBuffer) + 63) & ~63L;
        if (s.events()) {
            // seed 004's interrupt moderation: one event per count completions or period, whichever first
            dataChannel = device.createCompletionChannel(options.moderation());
        }
        // the device rounds queue and CQ sizes up as it needs (QueuePair.initAttr, CompletionQueue.depth)
        int sendWr = Math.max(s.txDepth(), 16) + 4;
        int recvWr = s.rxDepth();
        int maxCq = device.config().limits().maxCqDepth();
        sendCq = device.createCq(Math.min(maxCq, q * (sendWr + 4)), dataChannel);
        recvCq = device.createCq(Math.min(maxCq, q * (recvWr + 4)), dataChannel);
        qps = new QueuePair[q];
        in = new MemoryRegion[q];
        out = new MemoryRegion[q];
        peer = new Rendezvous.Buffers[q];
        recvsPosted = new long[q];
        recvsOutstanding = new int[q];
        for (int i = 0; i < q; i++) {
            qps[i] = device.createQp(pd, QpInitAttr.builder(sendCq, recvCq).maxSendWr(sendWr).maxRecvWr(recvWr)
                    .maxSendSge(1).maxRecvSge(1).maxInlineData(Math.min(s.inline(), device.config().limits().maxInline()))
                    .build());
            qps[i].modify(QpState.INIT);
            in[i] = pd.registerMemory(arena.allocate(bufSize + 64, 4096), Access.LOCAL_WRITE | Access.REMOTE_WRITE);
            // the atomic tests' target is the first 8 bytes of "out"
            int outAccess = Access.LOCAL_WRITE | Access.REMOTE_READ
                    | (s.test().verb() == TestKind.Verb.ATOMIC ? Access.REMOTE_ATOMIC : 0);
            out[i] = pd.registerMemory(arena.allocate(bufSize, 4096), outAccess);
        }
    }

    /** A fresh data QP {@code i} like the one it replaces (a QP whose connection failed stays in ERROR). */
    void replaceDataQp(int i) {
        QpInitAttr attr = qps[i].initAttr();
        qps[i].close();
        qps[i] = device.createQp(pd, attr);
        qps[i].modify(QpState.INIT);
    }

    Rendezvous.Buffers buffers(int i) {
        return new Rendezvous.Buffers(RemoteBuffer.of(in[i]), RemoteBuffer.of(out[i]), bufSize);
    }

    /** Offset in "in" of the credit word. */
    long creditOffset() {
        return bufSize;
    }

    /** Offset in "in" of the byte the closing READ lands on. */
    long scratchOffset() {
        return bufSize + 32;
    }

    MemorySegment inSeg(int i) {
        return in[i].segment();
    }

    MemorySegment outSeg(int i) {
        return out[i].segment();
    }

    /** Posts RECVs (of the whole "in" buffer) on QP {@code i} until {@code rxDepth} are outstanding. */
    void topUpRecvs(int i) {
        while (recvsOutstanding[i] < settings.rxDepth()) {
            postRecv(i);
        }
    }

    /** Posts one RECV on QP {@code i}; its wrId is the QP index. */
    void postRecv(int i) {
        recvWr.clearSges().wrId(i).addSge(in[i], 0, (int) Math.min(bufSize, Integer.MAX_VALUE));
        int rc = qps[i].postRecv(recvWr);
        if (rc != org.jwarp.verbs.PostStatus.OK) {
            throw new PerfException("posting a receive failed: " + org.jwarp.verbs.PostStatus.toString(rc)
                    + " (the connection is " + qps[i].state() + ")");
        }
        recvsPosted[i]++;
        recvsOutstanding[i]++;
    }

    /** Fails with one line if a data or control QP left RTS (the peer closed, or a Terminate). */
    void checkConnected() {
        if (ctlQp.state() != QpState.RTS) {
            throw lost("control QP " + ctlQp.state());
        }
        if (qps != null) {
            for (QueuePair qp : qps) {
                if (qp.state() != QpState.RTS) {
                    throw lost("data QP " + qp.qpNum() + " is " + qp.state());
                }
            }
        }
    }

    /**
     * The failure for a lost connection: why, as the connection manager reported it (who closed,
     * or the Terminate's layer/type/code), else {@code what} was seen.
     */
    PerfException lost(String what) {
        StringBuilder why = new StringBuilder();
        for (CmEvent e; (e = cmEvents.poll()) != null; ) {
            if (e instanceof CmEvent.Disconnected d && why.isEmpty()) {
                why.append(d.qp() == ctlQp ? "control" : "data").append(" connection: ")
                        .append(d.cause().name().toLowerCase(java.util.Locale.ROOT).replace('_', ' '));
                if (d.terminate() != 0) {
                    why.append(String.format(", Terminate 0x%08x", d.terminate()));
                }
            }
        }
        return new PerfException("the connection to the peer was lost (" + (why.isEmpty() ? what : why) + ")");
    }

    /** Idempotent (a failing loopback run may close a side from both threads). */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        // closing the device destroys QPs, CQs and MRs (and disconnects); then the memory goes
        device.close();
        arena.close();
    }
}
