package org.jwarp.bench.transport.jwarp;

import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import org.jwarp.bench.perf.BandwidthMeter;
import org.jwarp.bench.perf.CpuMeter;
import org.jwarp.bench.perf.Payload;
import org.jwarp.bench.perf.SideReport;
import org.jwarp.bench.perf.TestKind;
import org.jwarp.verbs.SendFlags;
import org.jwarp.verbs.SendWr;
import org.jwarp.verbs.WorkCompletion;
import org.jwarp.verbs.WrOpcode;

/**
 * The client of the bandwidth tests ({@code write_bw}, {@code read_bw}, {@code send_bw},
 * write-with-immediate): keeps up to {@code -t} sends (or {@code min(-t, -o)} READs) in flight on
 * each QP, posts them in lists of {@code -l}, signals one in {@code -Q} (and the last), and counts
 * the bytes each signaled completion covers.
 *
 * <p><b>Receive credits.</b> iWARP has no receiver-not-ready retry: a SEND that finds no posted
 * RECV is a fatal error (RFC 5040 §7.1, a Terminate). So SEND and WRITE_IMM stream against
 * credits: the server's receiver RDMA WRITEs the count of RECVs it has posted into this side's
 * credit word, and the client never has more messages sent than that.
 *
 * <p><b>End of a size.</b> The time runs from the first post until the data is known to be at the
 * server: a WRITE completes when handed to TCP, so WRITE ends with one 1-byte READ per QP (a READ
 * response follows every earlier WRITE's placement, RFC 5040 §5.5); SEND and WRITE_IMM end with an
 * end message per QP and wait until the server has re-posted a RECV for every message (its
 * credit word says so); READ ends with its last completion.
 */
final class JwarpStream implements Waiter.Reaper {

    private static final VarHandle CREDIT = ValueLayout.JAVA_LONG.varHandle();

    private final JwarpSide side;
    private final TestKind.Verb verb;
    private final Waiter waiter;
    private final SendWr[][] batch;
    private final SendWr[] one = {new SendWr(1)};
    private final WorkCompletion[] wcs = new WorkCompletion[64];
    private final BandwidthMeter bw = new BandwidthMeter();
    private final long[] posted;
    private final long[] completed;
    private final long[] target;
    private final int[] sinceSignal;
    /** Messages posted on each QP up to and including the last signaled one: what completions can cover. */
    private final long[] coveredBySignal;
    /** Messages sent on each QP since the start, end messages included: what credits count. */
    private final long[] sentTotal;
    private final boolean credited;
    /** The atomic tests: each QP's target value before the run. */
    private final long[] initial;
    private int size;

    JwarpStream(JwarpSide side, TestKind.Verb verb) {
        this.side = side;
        this.verb = verb;
        this.waiter = new Waiter(side);
        int q = side.settings.qps();
        batch = new SendWr[q][side.settings.postList()];
        for (SendWr[] b : batch) {
            for (int i = 0; i < b.length; i++) {
                b[i] = new SendWr(1);
            }
        }
        for (int i = 0; i < wcs.length; i++) {
            wcs[i] = new WorkCompletion();
        }
        posted = new long[q];
        completed = new long[q];
        target = new long[q];
        sinceSignal = new int[q];
        coveredBySignal = new long[q];
        sentTotal = new long[q];
        credited = verb == TestKind.Verb.SEND || verb == TestKind.Verb.WRITE_IMM;
        initial = new long[q];
    }

    private WrOpcode opcode() {
        return switch (verb) {
            case WRITE -> WrOpcode.RDMA_WRITE;
            case READ -> WrOpcode.RDMA_READ;
            case SEND -> WrOpcode.SEND;
            case WRITE_IMM -> WrOpcode.RDMA_WRITE_WITH_IMM;
            case ATOMIC -> side.settings.compareAndSwap() ? WrOpcode.ATOMIC_CMP_AND_SWP : WrOpcode.ATOMIC_FETCH_AND_ADD;
        };
    }

    private void prepareBatch(int q, int size) {
        WrOpcode op = opcode();
        boolean inline = op != WrOpcode.RDMA_READ && size <= side.settings.inline();
        for (SendWr w : batch[q]) {
            w.reset().opcode(op);
            if (op.isAtomic()) {
                // every result lands in the first 8 bytes of "in"; the run is checked by the final value
                w.addSge(side.in[q], 0, TestKind.ATOMIC_SIZE).remote(side.peer[q].outAddr(), side.peer[q].outRkey())
                        .fetchAdd(1);
            } else if (op == WrOpcode.RDMA_READ) {
                w.addSge(side.in[q], 0, size).remote(side.peer[q].outAddr(), side.peer[q].outRkey());
            } else {
                if (inline) {
                    w.flags(SendFlags.INLINE).addInlineSge(side.outSeg(q), 0, size);
                } else {
                    w.addSge(side.out[q], 0, size);
                }
                if (op != WrOpcode.SEND) {
                    w.remote(side.peer[q].inAddr(), side.peer[q].inRkey());
                }
            }
        }
    }

    SideReport client(int size, long iterations, long durationNanos, CpuMeter meter) {
        this.size = size;
        int q = side.settings.qps();
        int limit = verb.isRequestResponse() ? Math.min(side.settings.txDepth(), side.settings.outstanding())
                : side.settings.txDepth();
        int signalEvery = Math.max(1, Math.min(side.settings.cqMod(), limit));
        int list = Math.min(side.settings.postList(), limit);
        if (credited) {
            list = Math.min(list, side.settings.rxDepth());
        }
        for (int i = 0; i < q; i++) {
            prepareBatch(i, size);
            posted[i] = 0;
            completed[i] = 0;
            sinceSignal[i] = 0;
            coveredBySignal[i] = 0;
            target[i] = durationNanos > 0 ? Long.MAX_VALUE : iterations;
        }
        boolean cas = verb == TestKind.Verb.ATOMIC && side.settings.compareAndSwap();
        if (verb == TestKind.Verb.ATOMIC) {
            for (int i = 0; i < q; i++) {
                initial[i] = atomicValue(i);
            }
        }
        boolean timed = durationNanos > 0;
        meter.start();
        long start = System.nanoTime();
        long deadline = start + durationNanos;
        bw.start(start);
        int done = 0;
        while (done < q) {
            boolean busy = false;
            if (timed && target[0] == Long.MAX_VALUE && System.nanoTime() - deadline >= 0) {
                // time is up: finish each QP at its next signaled message, so every send completes
                for (int i = 0; i < q; i++) {
                    long p = posted[i];
                    target[i] = p % signalEvery == 0 ? p : p + (signalEvery - p % signalEvery);
                }
            }
            done = 0;
            for (int i = 0; i < q; i++) {
                long remaining = target[i] - posted[i];
                if (remaining == 0) {
                    if (completed[i] == posted[i]) {
                        done++;
                    }
                    continue;
                }
                long room = limit - (posted[i] - completed[i]);
                if (credited) {
                    room = Math.min(room, credit(i) - sentTotal[i]);
                }
                int n = (int) Math.min(list, Math.min(room, remaining));
                if (n <= 0 || (n < list && n < remaining)) {
                    continue;
                }
                SendWr[] b = batch[i];
                for (int k = 0; k < n; k++) {
                    long m = posted[i] + k + 1;
                    sinceSignal[i]++;
                    boolean signal = m % signalEvery == 0 || m == target[i];
                    b[k].signaled(signal).wrId(((long) i << 32) | sinceSignal[i]);
                    if (signal) {
                        sinceSignal[i] = 0;
                        coveredBySignal[i] = m;
                    }
                    if (verb == TestKind.Verb.WRITE_IMM) {
                        b[k].immData(sentTotal[i] + k + 1);
                    } else if (cas) {
                        // a chain: the responder runs them in order, so each finds the value the one before set
                        b[k].compareSwap(initial[i] + m - 1, initial[i] + m);
                    }
                }
                waiter.post(side.qps[i], b, n, side.sendCq, wcs, this);
                posted[i] += n;
                sentTotal[i] += n;
                busy = true;
            }
            int r = waiter.reap(side.sendCq, wcs);
            for (int k = 0; k < r; k++) {
                reaped(wcs[k]);
            }
            if (r > 0) {
                waiter.progress();
            } else if (!busy && done < q) {
                idle(q);
            }
        }
        long messages = 0;
        for (int i = 0; i < q; i++) {
            messages += posted[i];
        }
        finish(q);
        long end = System.nanoTime();
        bw.completed(end, 0); // the end of the clock: BW average is then one of the windows BW peak considers
        meter.stop();
        String bad = null;
        if (verb == TestKind.Verb.ATOMIC) {
            for (int i = 0; i < q && bad == null; i++) {
                long last = atomicValue(i);
                if (last != initial[i] + posted[i]) {
                    bad = "client, QP " + i + ": the target holds " + last + " after " + posted[i] + " operations from "
                            + initial[i] + "; expected " + (initial[i] + posted[i]);
                }
            }
        } else if (verb == TestKind.Verb.READ) {
            for (int i = 0; i < q && bad == null; i++) {
                long at = Payload.check(side.inSeg(i), 0, size, size);
                if (at >= 0) {
                    bad = Payload.mismatch("client, QP " + i, side.inSeg(i), 0, at, size);
                }
            }
        }
        int verified = !verb.isRequestResponse() ? SideReport.NOT_CHECKED : SideReport.verdict(bad);
        String detail = !verb.isRequestResponse() ? "sent; the server checks"
                : bad != null ? bad
                : verb == TestKind.Verb.ATOMIC ? "each QP's target moved by exactly its operations"
                : "the READ data against the server's pattern, every QP";
        return SideReport.of(true, size, messages, end - start, bw.peakBytesPerSecond(), null, meter, verified, detail);
    }

    /**
     * Nothing to post and nothing completed: wait for a completion if a signaled one is due, else
     * (credit-starved, with only unsignaled sends out) for the receiver's credit WRITE.
     */
    private void idle(int q) {
        boolean due = false;
        for (int i = 0; i < q; i++) {
            due |= completed[i] < coveredBySignal[i];
        }
        if (due) {
            int r = waiter.poll(side.sendCq, wcs);
            for (int k = 0; k < r; k++) {
                waiter.check(wcs[k]);
                reaped(wcs[k]);
            }
        } else {
            waiter.idleMemory();
        }
    }

    @Override
    public void reaped(WorkCompletion wc) {
        int i = (int) (wc.wrId() >>> 32);
        int covered = (int) wc.wrId();
        if (covered <= 0) {
            return; // a closing READ or end message
        }
        completed[i] += covered;
        bw.completed(System.nanoTime(), (long) covered * size);
    }

    /** The value of QP {@code i}'s atomic target now: a fetch-and-add of 0, waited for. */
    private long atomicValue(int i) {
        one[0].reset().opcode(WrOpcode.ATOMIC_FETCH_AND_ADD).signaled(true).wrId((long) i << 32)
                .addSge(side.in[i], side.scratchOffset(), TestKind.ATOMIC_SIZE)
                .remote(side.peer[i].outAddr(), side.peer[i].outRkey()).fetchAdd(0);
        waiter.post(side.qps[i], one, 1, side.sendCq, wcs, this);
        awaitClosing(1);
        return side.inSeg(i).get(ValueLayout.JAVA_LONG_UNALIGNED, side.scratchOffset());
    }

    private long credit(int i) {
        return (long) CREDIT.getAcquire(side.inSeg(i), side.creditOffset());
    }

    /** Makes sure everything is at the server (see the class comment). */
    private void finish(int q) {
        switch (verb) {
            case READ, ATOMIC -> {
            }
            case WRITE -> {
                for (int i = 0; i < q; i++) {
                    one[0].reset().opcode(WrOpcode.RDMA_READ).signaled(true).wrId((long) i << 32)
                            .addSge(side.in[i], side.scratchOffset(), 1)
                            .remote(side.peer[i].outAddr(), side.peer[i].outRkey());
                    waiter.post(side.qps[i], one, 1, side.sendCq, wcs, this);
                }
                awaitClosing(q);
            }
            case SEND, WRITE_IMM -> {
                for (int i = 0; i < q; i++) {
                    while (credit(i) - sentTotal[i] < 1) {
                        waiter.idleMemory();
                    }
                    waiter.progress();
                    one[0].reset().opcode(opcode()).signaled(true).wrId((long) i << 32);
                    if (verb == TestKind.Verb.WRITE_IMM) {
                        one[0].immData(-1L).remote(side.peer[i].inAddr(), side.peer[i].inRkey());
                    }
                    waiter.post(side.qps[i], one, 1, side.sendCq, wcs, this);
                    sentTotal[i]++;
                }
                awaitClosing(q);
                int rx = side.settings.rxDepth();
                for (int i = 0; i < q; i++) {
                    // the server re-posts a RECV for every message: then its count is ours plus its depth
                    while (credit(i) < sentTotal[i] + rx) {
                        waiter.idleMemory();
                    }
                    waiter.progress();
                }
            }
        }
    }

    private void awaitClosing(int q) {
        int closing = q;
        while (closing > 0) {
            int r = waiter.poll(side.sendCq, wcs);
            for (int k = 0; k < r; k++) {
                waiter.check(wcs[k]);
                if ((int) wcs[k].wrId() == 0) {
                    closing--;
                } else {
                    reaped(wcs[k]);
                }
            }
        }
    }
}
