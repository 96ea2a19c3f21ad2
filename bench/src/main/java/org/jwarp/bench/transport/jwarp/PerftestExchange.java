package org.jwarp.bench.transport.jwarp;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import org.jwarp.bench.perf.PerfException;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.MemoryRegion;
import org.jwarp.verbs.PostStatus;
import org.jwarp.verbs.QpState;
import org.jwarp.verbs.RecvWr;
import org.jwarp.verbs.SendWr;
import org.jwarp.verbs.WcOpcode;
import org.jwarp.verbs.WcStatus;
import org.jwarp.verbs.WorkCompletion;
import org.jwarp.verbs.WrOpcode;

/**
 * perftest's exchange channel ({@code -R}: "Data ex. method: rdma_cm"): an RC connection of its
 * own whose messages are single SENDs. Every exchange is symmetric and the client speaks first:
 * the client sends and then receives; the server receives, re-posts its one receive, and then
 * answers with a message of the same size. perftest keeps one receive posted, re-posted before it
 * answers, so a side never has two messages in flight. Runs on the side's control QP.
 */
final class PerftestExchange {

    /** perftest's messages are at most a {@link PerftestDest}; more room costs nothing. */
    private static final int RECV_BYTES = 256;

    private final JwarpSide side;
    private final boolean client;
    private final MemoryRegion sendMr;
    private final MemoryRegion recvMr;
    private final SendWr sendWr = new SendWr(1);
    private final RecvWr recvWr = new RecvWr(1);
    private final WorkCompletion[] wcs = {new WorkCompletion(), new WorkCompletion()};

    PerftestExchange(JwarpSide side, boolean client) {
        this.side = side;
        this.client = client;
        sendMr = side.pd.registerMemory(side.arena.allocate(RECV_BYTES, 64), Access.LOCAL_WRITE);
        recvMr = side.pd.registerMemory(side.arena.allocate(RECV_BYTES, 64), Access.LOCAL_WRITE);
        postRecv();
    }

    /** One exchange: our {@code mine}, their message of the same kind. */
    byte[] exchange(byte[] mine, Duration timeout) {
        if (client) {
            send(mine, timeout);
            return receive(timeout);
        }
        byte[] theirs = receive(timeout);
        send(mine, timeout);
        return theirs;
    }

    /** One address-and-key exchange ("H"). */
    PerftestDest exchange(PerftestDest mine, Duration timeout) {
        byte[] m = exchange(mine.encode(), timeout);
        if (m.length != PerftestDest.SIZE) {
            throw new PerfException("the perftest peer sent " + m.length + " bytes where its " + PerftestDest.SIZE
                    + "-byte address message was expected: it runs another test or another version");
        }
        return PerftestDest.decode(m);
    }

    private void send(byte[] m, Duration timeout) {
        MemorySegment.copy(m, 0, sendMr.segment(), ValueLayout.JAVA_BYTE, 0, m.length);
        sendWr.reset().opcode(WrOpcode.SEND).signaled(true).addSge(sendMr, 0, m.length);
        int rc = side.ctlQp.postSend(sendWr);
        if (rc != PostStatus.OK) {
            throw new PerfException("sending on the perftest exchange channel failed: " + PostStatus.toString(rc));
        }
        await(WcOpcode.SEND, timeout);
    }

    private byte[] receive(Duration timeout) {
        WorkCompletion wc = await(WcOpcode.RECV, timeout);
        byte[] m = new byte[(int) Math.min(wc.byteLen(), RECV_BYTES)];
        MemorySegment.copy(recvMr.segment(), ValueLayout.JAVA_BYTE, 0, m, 0, m.length);
        postRecv();
        return m;
    }

    private void postRecv() {
        recvWr.clearSges().wrId(0).addSge(recvMr, 0, RECV_BYTES);
        int rc = side.ctlQp.postRecv(recvWr);
        if (rc != PostStatus.OK) {
            throw new PerfException("posting a receive on the perftest exchange channel failed: "
                    + PostStatus.toString(rc));
        }
    }

    /** Waits for the completion of {@code kind} (the exchange CQ holds one at a time of each). */
    private WorkCompletion await(WcOpcode kind, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            int n = side.ctlCq.poll(wcs, 1);
            if (n == 1) {
                WorkCompletion wc = wcs[0];
                if (wc.status() != WcStatus.SUCCESS) {
                    throw wc.status() == WcStatus.WR_FLUSH_ERR ? side.lost("exchange channel flushed")
                            : new PerfException("the perftest exchange channel failed: " + wc);
                }
                if (wc.opcode() == kind) {
                    return wc;
                }
                throw new PerfException("the perftest exchange channel completed " + wc.opcode() + " where " + kind
                        + " was expected");
            }
            if (side.ctlQp.state() != QpState.RTS) {
                throw side.lost("exchange channel " + side.ctlQp.state());
            }
            if (System.nanoTime() > deadline) {
                throw new PerfException("the perftest peer sent nothing on its exchange channel for "
                        + timeout.toSeconds() + " s");
            }
            if (side.invoker) {
                side.device.invoke();
            }
            Thread.yield();
        }
    }
}
