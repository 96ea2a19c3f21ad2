package org.jwarp.cli.rping;

import java.io.PrintWriter;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.jwarp.cli.CmEventText;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.CmEvent;
import org.jwarp.verbs.CmEventQueue;
import org.jwarp.verbs.CompletionChannel;
import org.jwarp.verbs.CompletionQueue;
import org.jwarp.verbs.MemoryRegion;
import org.jwarp.verbs.Moderation;
import org.jwarp.verbs.PostStatus;
import org.jwarp.verbs.ProtectionDomain;
import org.jwarp.verbs.QpInitAttr;
import org.jwarp.verbs.QpState;
import org.jwarp.verbs.QueuePair;
import org.jwarp.verbs.RdmaDevice;
import org.jwarp.verbs.RecvWr;
import org.jwarp.verbs.SendWr;
import org.jwarp.verbs.WcOpcode;
import org.jwarp.verbs.WcStatus;
import org.jwarp.verbs.WorkCompletion;
import org.jwarp.verbs.WrOpcode;
import org.jwarp.wire.rdmap.TerminateError;

/**
 * The verbs resources of one rping connection, as rping sets them up: a protection domain, a
 * completion channel and one CQ for both queues, an RC queue pair (send depth 16, receive depth 2),
 * a 16-byte receive buffer, a 16-byte send buffer, the RDMA buffer of {@code size} bytes (the READ
 * sink and WRITE source on the server, the WRITE sink on the client) and, on the client, the
 * source buffer the server READs. Waits are on the completion channel, each bounded by the run's
 * timeout.
 */
final class RpingConnection implements AutoCloseable {

    /** rping's {@code RPING_SQ_DEPTH}; its CQ holds twice as many. */
    private static final int SQ_DEPTH = 16;

    final RdmaDevice device;
    final ProtectionDomain pd;
    final CompletionChannel channel;
    final CompletionQueue cq;
    final QueuePair qp;
    final CmEventQueue events = new CmEventQueue();
    final MemoryRegion recvMr;
    final MemoryRegion sendMr;
    final MemoryRegion rdmaMr;
    final MemoryRegion startMr;
    final int size;

    private final Arena arena = Arena.ofShared();
    private final Duration timeout;
    private final PrintWriter debug;
    private final String side;
    private final RecvWr recvWr = new RecvWr(1);
    private final SendWr sendWr = new SendWr(1);
    private final SendWr rdmaWr = new SendWr(1);
    private final WorkCompletion[] wcs = {new WorkCompletion()};

    /**
     * @param withSource allocate the source buffer (the client's)
     * @param debug      where {@code -d} lines go, or {@code null}
     */
    RpingConnection(RdmaDevice device, int size, boolean withSource, Duration timeout, PrintWriter debug, String side) {
        this.device = device;
        this.size = size;
        this.timeout = timeout;
        this.debug = debug;
        this.side = side;
        ProtectionDomain p = null;
        CompletionChannel ch = null;
        CompletionQueue c = null;
        QueuePair q = null;
        try {
            p = device.allocPd();
            ch = device.createCompletionChannel(Moderation.NONE);
            c = device.createCq(SQ_DEPTH * 2, ch);
            q = device.createQp(p, QpInitAttr.builder(c, c).maxSendWr(SQ_DEPTH).maxRecvWr(2).maxSendSge(1)
                    .maxRecvSge(1).maxInlineData(0).build());
            q.modify(QpState.INIT);
        } catch (RuntimeException e) {
            closeQuietly(q, c, ch, p);
            arena.close();
            throw e;
        }
        pd = p;
        channel = ch;
        cq = c;
        qp = q;
        recvMr = register(RpingInfo.LENGTH, Access.LOCAL_WRITE);
        sendMr = register(RpingInfo.LENGTH, 0);
        int rdmaAccess = Access.LOCAL_WRITE | Access.REMOTE_READ | Access.REMOTE_WRITE;
        rdmaMr = register(size, rdmaAccess);
        startMr = withSource ? register(size, rdmaAccess) : null;
        recvWr.wrId(1).addSge(recvMr, 0, RpingInfo.LENGTH);
        sendWr.wrId(2).opcode(WrOpcode.SEND).signaled(true).addSge(sendMr, 0, RpingInfo.LENGTH);
        rdmaWr.wrId(3).signaled(true).addSge(rdmaMr, 0, size);
    }

    private MemoryRegion register(int bytes, int access) {
        MemorySegment m = arena.allocate(bytes, 64);
        return pd.registerMemory(m, access);
    }

    void debug(String format, Object... args) {
        if (debug != null) {
            debug.printf(format + "%n", args);
            debug.flush();
        }
    }

    /** Posts the one receive buffer (rping keeps exactly one posted). */
    void postRecv() throws RpingException {
        check(qp.postRecv(recvWr), "post recv");
    }

    /** Sends a buffer advertisement (or the go-ahead). */
    void postSend(RpingInfo info) throws RpingException {
        info.writeTo(sendMr.segment(), 0);
        check(qp.postSend(sendWr), "post send");
    }

    /** RDMA READ ({@code opcode} RDMA_READ) or WRITE of {@code length} bytes between the RDMA buffer and the peer's. */
    void postRdma(WrOpcode opcode, RpingInfo remote, int length) throws RpingException {
        rdmaWr.opcode(opcode).sgeLength(0, length).remote(remote.buf(), remote.rkey());
        check(qp.postSend(rdmaWr), "post " + opcode);
    }

    private static void check(int status, String what) throws RpingException {
        if (!PostStatus.isOk(status)) {
            throw new RpingException(what + " failed: " + PostStatus.toString(status));
        }
    }

    /** The last received message (valid after a RECV completion). */
    RpingInfo received() {
        return RpingInfo.read(recvMr.segment(), 0);
    }

    /**
     * Waits for the next completion of {@code expected}, taking SEND completions on the way (rping
     * only logs them).
     *
     * @throws RpingException.Disconnected if the queue pair was flushed (the connection ended)
     * @throws RpingException              on an error completion, an unexpected completion or the timeout
     */
    WorkCompletion await(WcOpcode expected, String what) throws RpingException {
        long deadline = System.nanoTime() + timeout.toNanos();
        boolean armed = false;
        while (true) {
            if (cq.poll(wcs, 1) == 1) {
                armed = false;
                WorkCompletion wc = wcs[0];
                if (!wc.isSuccess()) {
                    if (wc.status() == WcStatus.WR_FLUSH_ERR) {
                        throw new RpingException.Disconnected(side + " DISCONNECT EVENT...");
                    }
                    throw new RpingException("cq completion failed status " + wc.status().ibvValue() + " ("
                            + wc.status().description() + describeTerminate(wc) + ") while waiting for " + what);
                }
                if (wc.opcode() == expected && (expected != WcOpcode.RECV || wc.byteLen() == RpingInfo.LENGTH)) {
                    debug("%s completion", name(wc.opcode()));
                    return wc;
                }
                if (wc.opcode() == WcOpcode.RECV) {
                    throw new RpingException("Received bogus data, size " + wc.byteLen());
                }
                if (wc.opcode() == WcOpcode.SEND) {
                    debug("send completion");
                    continue;
                }
                throw new RpingException("unexpected " + name(wc.opcode()) + " completion while waiting for " + what);
            }
            if (!armed) {
                // arm, then poll once more: a completion may have arrived before the arming
                cq.requestNotify(false);
                armed = true;
                continue;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new RpingException("no " + what + " within " + timeout.toSeconds() + " s"
                        + (qp.state() == QpState.ERROR ? " (queue pair in ERROR)" : ""));
            }
            try {
                if (channel.await(Math.min(left, TimeUnit.MILLISECONDS.toNanos(200)), TimeUnit.NANOSECONDS) != null) {
                    armed = false;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RpingException("interrupted while waiting for " + what);
            }
        }
    }

    private static String name(WcOpcode op) {
        return switch (op) {
            case SEND -> "send";
            case RDMA_WRITE -> "rdma write";
            case RDMA_READ -> "rdma read";
            case RECV -> "recv";
            default -> op.name().toLowerCase(java.util.Locale.ROOT);
        };
    }

    /** ", terminate received: DDP ... (layer 1 type 1 code 0x00)" or "". */
    static String describeTerminate(WorkCompletion wc) {
        if (wc.vendorErr() == 0) {
            return "";
        }
        TerminateError e = TerminateError.of(wc.terminateLayer(), wc.terminateErrorType(), wc.terminateErrorCode());
        return String.format("; Terminate %s: %s (layer %d type %d code 0x%02x)",
                wc.terminateFromPeer() ? "received" : "sent", e == null ? "unknown error" : e.description(),
                wc.terminateLayer(), wc.terminateErrorType(), wc.terminateErrorCode());
    }

    /** Waits for a CM event of {@code type}; any other event is a failure described in one line. */
    <T extends CmEvent> T expectEvent(Class<T> type, String what, java.net.InetSocketAddress peer) throws RpingException {
        CmEvent e;
        try {
            e = events.poll(timeout);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new RpingException("interrupted while waiting for " + what);
        }
        if (e == null) {
            throw new RpingException("no " + what + " within " + timeout.toSeconds() + " s");
        }
        if (type.isInstance(e)) {
            return type.cast(e);
        }
        throw new RpingException(CmEventText.describe(e, peer));
    }

    @Override
    public void close() {
        closeQuietly(qp, cq, channel, null);
        for (MemoryRegion mr : new MemoryRegion[] {recvMr, sendMr, rdmaMr, startMr}) {
            if (mr != null) {
                mr.deregister();
            }
        }
        pd.close();
        arena.close();
    }

    private static void closeQuietly(QueuePair q, CompletionQueue c, CompletionChannel ch, ProtectionDomain p) {
        if (q != null) {
            q.close();
        }
        if (c != null) {
            c.close();
        }
        if (ch != null) {
            ch.close();
        }
        if (p != null) {
            p.close();
        }
    }
}
