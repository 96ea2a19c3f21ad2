package org.jwarp.bench.transport.jwarp;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.jwarp.bench.perf.CpuMeter;
import org.jwarp.bench.perf.Payload;
import org.jwarp.bench.perf.PerfException;
import org.jwarp.bench.perf.SideReport;
import org.jwarp.bench.perf.TestKind;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.MemoryRegion;
import org.jwarp.verbs.SendWr;
import org.jwarp.verbs.WcOpcode;
import org.jwarp.verbs.WorkCompletion;
import org.jwarp.verbs.WrOpcode;

/**
 * The server of {@code send_bw} and write-with-immediate bandwidth: reaps RECV completions,
 * re-posts each RECV at once, and grants credits — the count of RECVs posted so far, RDMA WRITTEN
 * into the client's credit word every quarter of the receive depth and after the end message
 * (see {@link JwarpStream}). Checks every message's length (SEND) or its immediate data's order
 * (WRITE_IMM), and at the end the last message's pattern on every QP.
 */
final class JwarpReceiver implements Waiter.Reaper {

    private final JwarpSide side;
    private final TestKind.Verb verb;
    private final Waiter waiter;
    private final WorkCompletion[] wcs = new WorkCompletion[64];
    /** Send-side completions (credit WRITEs) go here, never over receive completions being handled. */
    private final WorkCompletion[] sendWcs = new WorkCompletion[16];
    private final SendWr[] creditWr = {new SendWr(1)};
    private final MemoryRegion credits;
    private final long[] granted;
    private final long[] received;
    private final long[] lastImm;
    private final boolean[] ended;
    private final int creditEvery;
    private long creditPosts;
    private String bad;

    JwarpReceiver(JwarpSide side, TestKind.Verb verb) {
        this.side = side;
        this.verb = verb;
        this.waiter = new Waiter(side);
        int q = side.settings.qps();
        for (int i = 0; i < wcs.length; i++) {
            wcs[i] = new WorkCompletion();
        }
        for (int i = 0; i < sendWcs.length; i++) {
            sendWcs[i] = new WorkCompletion();
        }
        credits = side.pd.registerMemory(side.arena.allocate(8L * q, 64), Access.LOCAL_WRITE);
        granted = new long[q];
        received = new long[q];
        lastImm = new long[q];
        ended = new boolean[q];
        creditEvery = Math.max(1, side.settings.rxDepth() / 4);
    }

    /** Before READY: RECVs up to the depth on every QP, and the credit for them. */
    void prepare() {
        for (int i = 0; i < side.qps.length; i++) {
            side.topUpRecvs(i);
            grant(i);
        }
    }

    /** Receives until every QP's end message. */
    void run(int size) {
        int q = side.qps.length;
        java.util.Arrays.fill(received, 0);
        java.util.Arrays.fill(ended, false);
        bad = null;
        int open = q;
        while (open > 0) {
            int n = waiter.poll(side.recvCq, wcs);
            for (int k = 0; k < n; k++) {
                WorkCompletion wc = wcs[k];
                waiter.check(wc);
                int i = (int) wc.wrId();
                side.recvsOutstanding[i]--;
                boolean end;
                if (verb == TestKind.Verb.SEND) {
                    end = wc.byteLen() == 0;
                    if (!end && wc.byteLen() != size && bad == null) {
                        bad = "server, QP " + i + ": a SEND of " + wc.byteLen() + " bytes where " + size + " were sent";
                    }
                } else {
                    if (wc.opcode() != WcOpcode.RECV_RDMA_WITH_IMM) {
                        throw new PerfException("expected immediate data, got " + wc);
                    }
                    end = wc.immData() == -1L;
                    if (!end && wc.immData() != lastImm[i] + 1 && bad == null) {
                        bad = "server, QP " + i + ": immediate data " + wc.immData() + " after " + lastImm[i];
                    }
                    lastImm[i] = end ? lastImm[i] + 1 : wc.immData();
                }
                side.postRecv(i);
                if (end) {
                    ended[i] = true;
                    open--;
                    grant(i);
                } else {
                    received[i]++;
                    if (side.recvsPosted[i] - granted[i] >= creditEvery) {
                        grant(i);
                    }
                }
            }
            waiter.reap(side.sendCq, sendWcs);
        }
    }

    SideReport report(int size, CpuMeter meter) {
        long messages = 0;
        for (int i = 0; i < side.qps.length; i++) {
            messages += received[i];
            if (bad == null && received[i] > 0) {
                MemorySegment in = side.inSeg(i);
                long at = Payload.check(in, 0, size, size);
                if (at >= 0) {
                    bad = Payload.mismatch("server, QP " + i, in, 0, at, size);
                }
            }
        }
        String detail = bad != null ? bad : verb == TestKind.Verb.SEND
                ? "every SEND's length, the last one's pattern on every QP, the count"
                : "the immediate data's order, the last WRITE's pattern on every QP, the count";
        return SideReport.of(false, size, messages, 0, 0, null, meter, SideReport.verdict(bad), detail);
    }

    /** WRITEs the count of RECVs posted on QP {@code i} into the client's credit word. */
    private void grant(int i) {
        long value = side.recvsPosted[i];
        credits.segment().set(ValueLayout.JAVA_LONG, 8L * i, value);
        creditWr[0].reset().opcode(WrOpcode.RDMA_WRITE).wrId(-1).signaled(++creditPosts % 16 == 0)
                .addSge(credits, 8L * i, 8).remote(side.peer[i].inAddr() + side.peer[i].length(), side.peer[i].inRkey());
        waiter.post(side.qps[i], creditWr, 1, side.sendCq, sendWcs, this);
        granted[i] = value;
    }

    @Override
    public void reaped(WorkCompletion wc) {
        // credit WRITE completions only free queue slots
    }
}
