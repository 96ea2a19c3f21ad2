package org.jwarp.bench.scale;

import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import org.jwarp.bench.perf.PerfException;
import org.jwarp.verbs.PostStatus;
import org.jwarp.verbs.QueuePair;
import org.jwarp.verbs.SendWr;
import org.jwarp.verbs.WcStatus;
import org.jwarp.verbs.WorkCompletion;
import org.jwarp.verbs.WrOpcode;

/**
 * An 8 B RDMA WRITE ping-pong on one QP, as {@code write-lat}'s: each side WRITEs the round's stamp
 * into the other's region and polls its own for the answer (a WRITE raises no completion at its
 * target); polling the CQ meanwhile runs the engine in hybrid mode and takes the sends'
 * completions. Returns half of each round trip.
 */
final class PingPong {

    private static final long STALL_NANOS = 30_000_000_000L;

    private final ScaleEnd end;
    private final QueuePair qp;
    private final SendWr wr = new SendWr(1);
    private final WorkCompletion[] wcs = new WorkCompletion[16];

    PingPong(ScaleEnd end, QueuePair qp, long peerIova, int peerRkey) {
        this.end = end;
        this.qp = qp;
        wr.opcode(WrOpcode.RDMA_WRITE).signaled(true).addSge(end.mr, ScaleEnd.PING_OUT, 8)
                .remote(peerIova + ScaleEnd.PING_IN, peerRkey);
        for (int i = 0; i < wcs.length; i++) {
            wcs[i] = new WorkCompletion();
        }
    }

    /** The client: {@code rounds} measured rounds after {@code warmUp}; half round trips in ns, sorted. */
    long[] ping(int warmUp, int rounds, long firstStamp) {
        long[] half = new long[rounds];
        long stamp = firstStamp;
        for (int r = 0; r < warmUp + rounds; r++) {
            stamp++;
            long t0 = System.nanoTime();
            send(stamp);
            await(stamp);
            if (r >= warmUp) {
                half[r - warmUp] = (System.nanoTime() - t0) / 2;
            }
        }
        Arrays.sort(half);
        return half;
    }

    /** The server: answers {@code count} rounds, stamps from {@code firstStamp + 1}. */
    void pong(int count, long firstStamp) {
        long stamp = firstStamp;
        for (int r = 0; r < count; r++) {
            stamp++;
            await(stamp);
            send(stamp);
        }
    }

    private void send(long stamp) {
        end.memory.set(ValueLayout.JAVA_LONG_UNALIGNED, ScaleEnd.PING_OUT, stamp);
        int rc = qp.postSend(wr);
        if (rc != PostStatus.OK) {
            throw new PerfException("the ping-pong's WRITE could not be posted: " + PostStatus.toString(rc));
        }
    }

    private void await(long stamp) {
        long since = System.nanoTime();
        int turns = 0;
        while (ScaleEnd.stamp(end.memory, ScaleEnd.PING_IN) != stamp) {
            poll();
            if ((++turns & 0xFFF) == 0 && System.nanoTime() - since > STALL_NANOS) {
                throw new PerfException("the ping-pong stalled: stamp " + stamp + " did not arrive in 30 s");
            }
        }
        poll();
    }

    private void poll() {
        int n = end.cq.poll(wcs, wcs.length);
        for (int i = 0; i < n; i++) {
            if (wcs[i].status() != WcStatus.SUCCESS) {
                throw new PerfException("a ping-pong WRITE failed: " + wcs[i]);
            }
        }
        if (n == 0) {
            Thread.yield();
        }
    }
}
