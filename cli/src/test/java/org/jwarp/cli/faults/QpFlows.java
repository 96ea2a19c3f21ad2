package org.jwarp.cli.faults;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import org.jwarp.verbs.AcceptParams;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.CmEvent;
import org.jwarp.verbs.CmEventQueue;
import org.jwarp.verbs.CompletionQueue;
import org.jwarp.verbs.ConnectParams;
import org.jwarp.verbs.CounterNames;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.Listener;
import org.jwarp.verbs.MemoryRegion;
import org.jwarp.verbs.PostStatus;
import org.jwarp.verbs.ProtectionDomain;
import org.jwarp.verbs.QpInitAttr;
import org.jwarp.verbs.QpState;
import org.jwarp.verbs.QueuePair;
import org.jwarp.verbs.RdmaDevice;
import org.jwarp.verbs.RecvWr;
import org.jwarp.verbs.SendWr;
import org.jwarp.verbs.WcStatus;
import org.jwarp.verbs.WorkCompletion;
import org.jwarp.verbs.WrOpcode;

/**
 * Three queue pairs of host A against host B, both devices in this process, each connection made
 * inside the hosts' network namespaces: a WRITE stream and a READ stream of 64 KiB messages (8 in
 * flight, 16 buffer slots), and a SEND ping-pong of 4 KiB echoed by a thread on B. Every work
 * request carries its sequence number as its id and is counted once when it completes
 * ({@link FlowRecord}); every READ's and every echo's bytes are checked as they arrive, the WRITE
 * target's last 16 messages once the stream is fenced by a READ at the end.
 */
public final class QpFlows implements AutoCloseable {

    public static final int SIZE = 64 * 1024;
    public static final int PING = 4096;
    private static final int SLOTS = 16;
    private static final int DEPTH = 8;
    private static final long RECV_BIT = 1L << 62;
    private static final Duration WAIT = Duration.ofSeconds(30);

    private enum Kind { WRITE, READ, SEND }

    private final class Flow {
        final Kind kind;
        final FlowRecord rec;
        final QueuePair qp;
        final CompletionQueue cq;
        final CmEventQueue events = new CmEventQueue();
        final List<String> laterEvents = new ArrayList<>();
        long done;
        long rounds;
        boolean roundOpen;
        int roundParts;
        boolean postingStopped;

        Flow(Kind kind, CompletionQueue cq) {
            this.kind = kind;
            this.rec = new FlowRecord(kind.name());
            this.cq = cq;
            this.qp = a.createQp(apd, QpInitAttr.builder(cq, cq).maxSendWr(32).maxRecvWr(32).build());
        }
    }

    private final String nsA;
    private final String nsB;
    private final RdmaDevice a;
    private final RdmaDevice b;
    private final Arena arena = Arena.ofShared();
    private final ProtectionDomain apd;
    private final MemoryRegion aSource;
    private final MemoryRegion aSink;
    private final MemoryRegion aPing;
    private final MemoryRegion aPong;
    private final MemoryRegion bTarget;
    private final MemoryRegion bSource;
    private final MemoryRegion bRecv;
    private final MemoryRegion bSend;
    private final Listener listener;
    private final List<Flow> flows = new ArrayList<>();
    private final QueuePair bSendQp;
    private final CompletionQueue bCq;
    private final SendWr wr = new SendWr();
    private final RecvWr rwr = new RecvWr();
    private volatile boolean stopPosting;
    private volatile boolean stopEcho;
    private Thread echo;
    private volatile String echoError;

    private QpFlows(String nsA, String nsB, String addrB, DeviceConfig config) throws Exception {
        this.nsA = nsA;
        this.nsB = nsB;
        // opened inside the hosts: their engine threads (and the interfaces they see) are the hosts'
        a = Netns.in(nsA, () -> RdmaDevice.open(config));
        b = Netns.in(nsB, () -> RdmaDevice.open(config));
        apd = a.allocPd();
        ProtectionDomain bpd = b.allocPd();
        aSource = apd.registerMemory(arena.allocate((long) SLOTS * SIZE, 4096), Access.LOCAL_WRITE);
        aSink = apd.registerMemory(arena.allocate((long) SLOTS * SIZE, 4096), Access.LOCAL_WRITE);
        aPing = apd.registerMemory(arena.allocate(PING, 4096), Access.LOCAL_WRITE);
        aPong = apd.registerMemory(arena.allocate(PING, 4096), Access.LOCAL_WRITE);
        bTarget = bpd.registerMemory(arena.allocate((long) SLOTS * SIZE, 4096), Access.LOCAL_WRITE | Access.REMOTE_WRITE
                | Access.REMOTE_READ);
        bSource = bpd.registerMemory(arena.allocate((long) SLOTS * SIZE, 4096), Access.LOCAL_WRITE | Access.REMOTE_READ);
        bRecv = bpd.registerMemory(arena.allocate((long) SLOTS * PING, 4096), Access.LOCAL_WRITE);
        bSend = bpd.registerMemory(arena.allocate(2L * PING, 4096), Access.LOCAL_WRITE);
        for (int k = 0; k < SLOTS; k++) {
            Pattern.fill(bSource.segment(), (long) k * SIZE, SIZE, k);
        }
        CmEventQueue bEvents = new CmEventQueue();
        listener = Netns.in(nsB, () -> b.connectionManager().listen(new InetSocketAddress(InetAddress.getByName(addrB), 0),
                8, bEvents));
        CompletionQueue bQuiet = b.createCq(64, null);
        bCq = b.createCq(64, null);
        QueuePair echoQp = null;
        for (Kind kind : Kind.values()) {
            Flow f = new Flow(kind, a.createCq(64, null));
            Netns.in(nsA, () -> {
                a.connectionManager().connect(listener.localAddress(), f.qp, ConnectParams.of(new byte[0]), f.events);
                return null;
            });
            CmEvent.ConnectRequest r = expect(bEvents, CmEvent.ConnectRequest.class, b);
            QueuePair bqp = kind == Kind.SEND
                    ? b.createQp(bpd, QpInitAttr.builder(bCq, bCq).maxSendWr(32).maxRecvWr(32).build())
                    : b.createQp(bpd, QpInitAttr.builder(bQuiet, bQuiet).build());
            if (kind == Kind.SEND) {
                for (int k = 0; k < SLOTS; k++) {
                    check(bqp.postRecv(new RecvWr().wrId(RECV_BIT | k).addSge(bRecv, (long) k * PING, PING)), "B's receive");
                }
                echoQp = bqp;
            }
            r.request().accept(bqp, AcceptParams.of(new byte[0]), new CmEventQueue());
            expect(f.events, CmEvent.Established.class, a);
            flows.add(f);
        }
        bSendQp = echoQp;
    }

    /** Connects the three flows from host A ({@code nsA}) to host B ({@code nsB}, at {@code addrB}). */
    public static QpFlows open(String nsA, String nsB, String addrB, DeviceConfig config) throws Exception {
        return new QpFlows(nsA, nsB, addrB, config);
    }

    /** Host A's device (its counters). */
    public RdmaDevice deviceA() {
        return a;
    }

    public RdmaDevice deviceB() {
        return b;
    }

    /**
     * Runs the flows, on a thread in host A (B's echo on a thread in host B), and returns when they
     * are done: posts until {@code keepPosting} says stop, then lets every outstanding request
     * complete, fences the WRITE stream with a READ and checks its target.
     */
    public void run(java.util.function.BooleanSupplier keepPosting) throws Exception {
        Netns.in(nsA, () -> {
            drive(keepPosting);
            return null;
        });
    }

    private void drive(java.util.function.BooleanSupplier keepPosting) throws Exception {
        echo = Thread.ofPlatform().name("faults-echo").start(() -> {
            try {
                Netns.enter(nsB);
            } catch (java.io.IOException e) {
                echoError = "B's echo thread could not enter " + nsB + ": " + e.getMessage();
                return;
            }
            echoLoop();
        });
        WorkCompletion[] wcs = new WorkCompletion[16];
        for (int i = 0; i < wcs.length; i++) {
            wcs[i] = new WorkCompletion();
        }
        long now = System.nanoTime();
        for (Flow f : flows) {
            f.rec.start(now);
        }
        long drainDeadline = Long.MAX_VALUE;
        while (true) {
            if (!stopPosting && !keepPosting.getAsBoolean()) {
                stopPosting = true;
                drainDeadline = System.nanoTime() + WAIT.toNanos();
            }
            boolean busy = false;
            boolean outstanding = false;
            for (Flow f : flows) {
                int n = f.cq.poll(wcs);
                for (int i = 0; i < n; i++) {
                    reap(f, wcs[i]);
                }
                busy |= n > 0;
                busy |= post(f);
                CmEvent e = f.events.poll();
                if (e != null) {
                    f.laterEvents.add(CmEventsText.of(e));
                }
                outstanding |= f.done < f.rec.posted;
            }
            if (stopPosting && !outstanding) {
                break;
            }
            if (System.nanoTime() - drainDeadline > 0) {
                for (Flow f : flows) {
                    if (f.done < f.rec.posted) {
                        f.rec.error(f.rec.error == null ? "only " + f.done + " of " + f.rec.posted
                                + " work requests completed within " + WAIT + " of the end" : f.rec.error);
                    }
                }
                break;
            }
            if (!busy) {
                LockSupport.parkNanos(50_000);
            }
        }
        fenceAndCheckWrites(wcs);
        stopEcho = true;
        echo.join(WAIT.toMillis());
        for (Flow f : flows) {
            CmEvent e;
            while ((e = f.events.poll(Duration.ofMillis(f.qp.state() == QpState.ERROR ? 200 : 0))) != null) {
                f.laterEvents.add(CmEventsText.of(e));
            }
        }
    }

    private boolean post(Flow f) {
        if (stopPosting || f.postingStopped) {
            return false;
        }
        long seq = f.rec.posted;
        int rc;
        switch (f.kind) {
            case WRITE -> {
                if (seq - f.done >= DEPTH) {
                    return false;
                }
                long off = (seq % SLOTS) * SIZE;
                Pattern.fill(aSource.segment(), off, SIZE, seq);
                rc = f.qp.postSend(wr.reset().wrId(seq).opcode(WrOpcode.RDMA_WRITE).signaled(true)
                        .addSge(aSource, off, SIZE).remote(bTarget.iova() + off, bTarget.rkey()));
            }
            case READ -> {
                if (seq - f.done >= DEPTH) {
                    return false;
                }
                long off = (seq % SLOTS) * SIZE;
                aSink.segment().asSlice(off, SIZE).fill((byte) 0xEE);
                rc = f.qp.postSend(wr.reset().wrId(seq).opcode(WrOpcode.RDMA_READ).signaled(true)
                        .addSge(aSink, off, SIZE).remote(bSource.iova() + off, bSource.rkey()));
            }
            default -> {
                if (f.roundOpen) {
                    return false;
                }
                // a round is two requests: the receive for the echo (even id) and the SEND (odd id)
                aPong.segment().fill((byte) 0xEE);
                rc = f.qp.postRecv(rwr.clearSges().wrId(seq).addSge(aPong, 0, PING));
                if (rc == PostStatus.OK) {
                    f.rec.posted++;
                    f.roundOpen = true;
                    f.roundParts = 1;
                    Pattern.fill(aPing.segment(), 0, PING, f.rounds);
                    rc = f.qp.postSend(wr.reset().wrId(seq + 1).opcode(WrOpcode.SEND).signaled(true).addSge(aPing, 0, PING));
                    if (rc == PostStatus.OK) {
                        f.roundParts = 2;
                    }
                }
            }
        }
        if (rc != PostStatus.OK) {
            f.postingStopped = true;    // the QP left RTS: what was posted completes as flushed
            return false;
        }
        f.rec.posted++;
        return true;
    }

    private void reap(Flow f, WorkCompletion wc) {
        long now = System.nanoTime();
        long seq = wc.wrId();
        boolean ok = wc.status() == WcStatus.SUCCESS;
        f.done++;
        if (!ok) {
            // the QP left RTS: a post now would only be flushed at once (OFED allows it), so stop
            f.postingStopped = true;
            if (f.rec.error == null) {
                f.rec.error(wc.status() + " after " + f.rec.ok + " successful requests");
            }
        }
        if (ok && f.kind == Kind.READ) {
            long off = (seq % SLOTS) * SIZE;
            if (Pattern.matches(aSink.segment(), off, SIZE, seq % SLOTS)) {
                f.rec.verified(SIZE);
            } else {
                f.rec.mismatch("READ " + seq + ": the bytes read differ from B's slot " + seq % SLOTS);
            }
        }
        if (ok && f.kind == Kind.SEND && (seq & 1) == 0) {
            if (wc.byteLen() == PING && Pattern.matches(aPong.segment(), 0, PING, f.rounds)) {
                f.rec.verified(PING);
            } else {
                f.rec.mismatch("echo " + f.rounds + ": " + wc.byteLen() + " bytes that are not the message sent");
            }
        }
        f.rec.completed(seq, ok, wc.status() == WcStatus.WR_FLUSH_ERR, now);
        if (f.kind == Kind.SEND && --f.roundParts == 0) {
            f.roundOpen = false;
            f.rounds++;
        }
    }

    /** Fences the WRITE stream with a 1-byte READ (its response follows every earlier WRITE's placement, RFC 5040 §5.5). */
    private void fenceAndCheckWrites(WorkCompletion[] wcs) throws InterruptedException {
        Flow f = flows.get(Kind.WRITE.ordinal());
        if (f.rec.error != null || f.rec.posted == 0) {
            return;
        }
        long seq = f.rec.posted;
        int rc = f.qp.postSend(wr.reset().wrId(seq).opcode(WrOpcode.RDMA_READ).signaled(true)
                .addSge(aSink, 0, 1).remote(bTarget.iova(), bTarget.rkey()));
        if (rc != PostStatus.OK) {
            f.rec.error("the fencing READ could not be posted: " + PostStatus.toString(rc));
            return;
        }
        f.rec.posted++;
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (f.done < f.rec.posted && System.nanoTime() < deadline) {
            int n = f.cq.poll(wcs);
            for (int i = 0; i < n; i++) {
                f.done++;
                f.rec.completed(wcs[i].wrId(), wcs[i].status() == WcStatus.SUCCESS, wcs[i].status() == WcStatus.WR_FLUSH_ERR,
                        System.nanoTime());
            }
            if (n == 0) {
                Thread.sleep(1);
            }
        }
        if (f.done < f.rec.posted) {
            f.rec.error("the fencing READ did not complete");
            return;
        }
        for (long s = Math.max(0, seq - SLOTS); s < seq; s++) {
            if (Pattern.matches(bTarget.segment(), (s % SLOTS) * SIZE, SIZE, s)) {
                f.rec.verified(SIZE);
            } else {
                f.rec.mismatch("WRITE " + s + " is not at B's slot " + s % SLOTS + " after the fence");
            }
        }
    }

    /** B's side of the ping-pong: checks each message, re-posts the receive, echoes it. */
    private void echoLoop() {
        WorkCompletion[] wcs = {new WorkCompletion(), new WorkCompletion(), new WorkCompletion(), new WorkCompletion()};
        SendWr echoWr = new SendWr();
        RecvWr repost = new RecvWr();
        long round = 0;
        while (!stopEcho) {
            int n = bCq.poll(wcs);
            for (int i = 0; i < n; i++) {
                WorkCompletion wc = wcs[i];
                if ((wc.wrId() & RECV_BIT) == 0 || wc.status() != WcStatus.SUCCESS) {
                    continue;   // an echo's completion, or a flush once the connection is gone
                }
                long slot = wc.wrId() & ~RECV_BIT;
                MemorySegment in = bRecv.segment().asSlice(slot * PING, PING);
                if (wc.byteLen() != PING || !Pattern.matches(in, 0, PING, round)) {
                    echoError = "B: message " + round + " arrived as " + wc.byteLen() + " bytes that are not the message sent";
                }
                long out = (round & 1) * PING;
                MemorySegment.copy(in, 0, bSend.segment(), out, PING);
                bSendQp.postRecv(repost.clearSges().wrId(wc.wrId()).addSge(bRecv, slot * PING, PING));
                bSendQp.postSend(echoWr.reset().wrId(round).opcode(WrOpcode.SEND).signaled(true).addSge(bSend, out, PING));
                round++;
            }
            if (n == 0) {
                LockSupport.parkNanos(50_000);
            }
        }
    }

    /** The flows' records, WRITE, READ, SEND in that order. */
    public List<FlowRecord> records() {
        return flows.stream().map(f -> f.rec).toList();
    }

    /** The CM events each flow's connection gave after it was established, WRITE, READ, SEND. */
    public List<List<String>> events() {
        return flows.stream().map(f -> List.copyOf(f.laterEvents)).toList();
    }

    /** Each flow's QP state now. */
    public List<QpState> states() {
        return flows.stream().map(f -> f.qp.state()).toList();
    }

    /** A mismatch B's echo thread found, or null. */
    public String echoError() {
        return echoError;
    }

    /** Payload bytes per FPDU host A and host B sent, from their devices' counters. */
    public double[] bytesPerFpdu() {
        return new double[] {perFpdu(a), perFpdu(b)};
    }

    private static double perFpdu(RdmaDevice d) {
        long fpdus = d.counters().get(CounterNames.FPDUS_TX);
        return fpdus == 0 ? Double.NaN : (double) d.counters().get(CounterNames.BYTES_TX) / fpdus;
    }

    @Override
    public void close() throws Exception {
        stopEcho = true;
        for (Flow f : flows) {
            f.qp.close();
        }
        bSendQp.close();
        listener.close();
        a.close();
        b.close();
        arena.close();
    }

    private static void check(int rc, String what) {
        if (rc != PostStatus.OK) {
            throw new IllegalStateException(what + ": " + PostStatus.toString(rc));
        }
    }

    private static <T extends CmEvent> T expect(CmEventQueue q, Class<T> type, RdmaDevice dev) throws InterruptedException {
        T e = q.expect(type, WAIT, dev);
        if (e == null) {
            throw new IllegalStateException("no " + type.getSimpleName() + " within " + WAIT);
        }
        return e;
    }
}
