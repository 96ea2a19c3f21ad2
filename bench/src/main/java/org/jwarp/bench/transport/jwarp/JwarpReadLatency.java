package org.jwarp.bench.transport.jwarp;

import org.HdrHistogram.Histogram;
import org.jwarp.bench.perf.CpuMeter;
import org.jwarp.bench.perf.Latency;
import org.jwarp.bench.perf.Payload;
import org.jwarp.bench.perf.SideReport;
import org.jwarp.bench.perf.TestKind;
import org.jwarp.verbs.SendWr;
import org.jwarp.verbs.WorkCompletion;
import org.jwarp.verbs.WrOpcode;

/**
 * perftest's {@code read_lat} and {@code atomic_lat}: the client RDMA READs {@code size} bytes of
 * the server's buffer (or runs one RFC 7306 atomic on its first 8 bytes), one at a time, and times
 * each until its completion: the full round trip (request out, response back), which is what
 * perftest reports for both. The server's application does nothing: its engine answers. The client
 * checks the last READ's data against the pattern the server put in its buffer; for the atomics,
 * that the target moved by exactly one per operation (fetch-and-add of 1, or a chain of
 * compare-and-swaps each expecting the value the one before set).
 */
final class JwarpReadLatency implements Waiter.Reaper {

    private final JwarpSide side;
    private final Waiter waiter;
    private final SendWr[] wr = {new SendWr(1)};
    private final WorkCompletion[] wcs = new WorkCompletion[4];
    private final Histogram histogram = Latency.newHistogram();

    JwarpReadLatency(JwarpSide side) {
        this.side = side;
        this.waiter = new Waiter(side);
        for (int i = 0; i < wcs.length; i++) {
            wcs[i] = new WorkCompletion();
        }
    }

    SideReport client(int size, long rounds, long durationNanos, CpuMeter meter) {
        boolean atomic = side.settings.test().verb() == TestKind.Verb.ATOMIC;
        boolean cas = atomic && side.settings.compareAndSwap();
        long initial = atomic ? atomicValue() : 0;
        wr[0].reset().opcode(!atomic ? WrOpcode.RDMA_READ : cas ? WrOpcode.ATOMIC_CMP_AND_SWP
                        : WrOpcode.ATOMIC_FETCH_AND_ADD).signaled(true).addSge(side.in[0], 0, size)
                .remote(side.peer[0].outAddr(), side.peer[0].outRkey()).fetchAdd(1);
        histogram.reset();
        long r = 0;
        meter.start();
        long limit = durationNanos > 0 ? Long.MAX_VALUE : rounds;
        long span = durationNanos > 0 ? durationNanos : Long.MAX_VALUE;
        long start = System.nanoTime();
        long t1 = start;
        while (r < limit && t1 - start < span) { // one test for -n and -D: the warm-up (-D) compiles the loop the measurement (-n) runs
            r++;
            if (cas) {
                wr[0].compareSwap(initial + r - 1, initial + r);
            }
            long t0 = System.nanoTime();
            waiter.post(side.qps[0], wr, 1, side.sendCq, wcs, this);
            waiter.poll(side.sendCq, wcs);
            waiter.check(wcs[0]);
            t1 = System.nanoTime();
            histogram.recordValue(t1 - t0);
        }
        meter.stop();
        if (atomic) {
            long last = atomicValue();
            boolean ok = last == initial + r;
            return SideReport.of(true, size, r, t1 - start, 0, Latency.of(histogram, 1), meter,
                    ok ? SideReport.VERIFIED : SideReport.FAILED, ok ? "the target moved by exactly one per operation"
                            : "client: the target holds " + last + " after " + r + " operations from " + initial);
        }
        long bad = Payload.check(side.inSeg(0), 0, size, size);
        String detail = bad < 0 ? "the READ data against the server's pattern"
                : Payload.mismatch("client", side.inSeg(0), 0, bad, size);
        return SideReport.of(true, size, r, t1 - start, 0, Latency.of(histogram, 1), meter,
                bad < 0 ? SideReport.VERIFIED : SideReport.FAILED, detail);
    }

    /** The atomic target's value now: a fetch-and-add of 0, waited for. */
    private long atomicValue() {
        wr[0].reset().opcode(WrOpcode.ATOMIC_FETCH_AND_ADD).signaled(true)
                .addSge(side.in[0], side.scratchOffset(), TestKind.ATOMIC_SIZE)
                .remote(side.peer[0].outAddr(), side.peer[0].outRkey()).fetchAdd(0);
        waiter.post(side.qps[0], wr, 1, side.sendCq, wcs, this);
        waiter.poll(side.sendCq, wcs);
        waiter.check(wcs[0]);
        return side.inSeg(0).get(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED, side.scratchOffset());
    }

    @Override
    public void reaped(WorkCompletion wc) {
        // one READ at a time: nothing to count
    }
}
