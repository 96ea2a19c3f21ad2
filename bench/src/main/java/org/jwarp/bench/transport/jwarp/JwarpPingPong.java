package org.jwarp.bench.transport.jwarp;

import java.lang.foreign.MemorySegment;
import org.HdrHistogram.Histogram;
import org.jwarp.bench.perf.CpuMeter;
import org.jwarp.bench.perf.Latency;
import org.jwarp.bench.perf.Payload;
import org.jwarp.bench.perf.PerfException;
import org.jwarp.bench.perf.SideReport;
import org.jwarp.bench.perf.TestKind;
import org.jwarp.verbs.SendFlags;
import org.jwarp.verbs.SendWr;
import org.jwarp.verbs.WcOpcode;
import org.jwarp.verbs.WorkCompletion;
import org.jwarp.verbs.WrOpcode;

/**
 * The ping-pong latency tests, perftest's {@code write_lat}, {@code send_lat} and (RFC 7306)
 * write-with-immediate: the client sends round {@code r}, the server answers it, the client times
 * the round trip and reports half of it.
 *
 * <ul>
 *   <li>WRITE: each side RDMA WRITEs into the other's buffer and polls the buffer's last byte for
 *       the round's stamp (a WRITE raises no completion at its target), as perftest does;</li>
 *   <li>SEND: SEND/RECV, each side polling (or with {@code -e} sleeping on) its receive CQ;</li>
 *   <li>WRITE_IMM: RDMA WRITE with immediate data; the immediate (the stamp) completes a RECV.</li>
 * </ul>
 *
 * Every message carries the pattern and ends with its round's stamp ({@link Payload}); each side
 * checks every stamp as it arrives and the last message's pattern at the end. The client ends a
 * size with a message stamped with the end marker. Messages up to {@code -I} bytes go inline.
 */
final class JwarpPingPong implements Waiter.Reaper {

    private final JwarpSide side;
    private final TestKind.Verb verb;
    private final Waiter waiter;
    private final SendWr[] wr = {new SendWr(1)};
    private final WorkCompletion[] wcs = new WorkCompletion[16];
    private final Histogram histogram = Latency.newHistogram();
    private final int signalEvery;
    private long posted;
    private long serverRounds;
    private long lastStamp;

    JwarpPingPong(JwarpSide side, TestKind.Verb verb) {
        this.side = side;
        this.verb = verb;
        this.waiter = new Waiter(side);
        for (int i = 0; i < wcs.length; i++) {
            wcs[i] = new WorkCompletion();
        }
        signalEvery = Math.max(1, Math.min(side.settings.cqMod(), side.settings.txDepth()));
    }

    private void prepareWr(int size) {
        WrOpcode op = switch (verb) {
            case WRITE -> WrOpcode.RDMA_WRITE;
            case SEND -> WrOpcode.SEND;
            case WRITE_IMM -> WrOpcode.RDMA_WRITE_WITH_IMM;
            case READ, ATOMIC -> throw new IllegalStateException(verb + " is not a ping-pong");
        };
        SendWr w = wr[0].reset().opcode(op);
        if (size <= side.settings.inline()) {
            w.flags(SendFlags.INLINE).addInlineSge(side.outSeg(0), 0, size);
        } else {
            w.addSge(side.out[0], 0, size);
        }
        if (op != WrOpcode.SEND) {
            w.remote(side.peer[0].inAddr(), side.peer[0].inRkey());
        }
    }

    SideReport client(int size, long rounds, long durationNanos, CpuMeter meter) {
        prepareWr(size);
        histogram.reset();
        MemorySegment out = side.outSeg(0);
        MemorySegment in = side.inSeg(0);
        int w = Payload.stampWidth(size);
        long r = 0;
        meter.start();
        long limit = durationNanos > 0 ? Long.MAX_VALUE : rounds;
        long span = durationNanos > 0 ? durationNanos : Long.MAX_VALUE;
        long start = System.nanoTime();
        long t1 = start;
        while (r < limit && t1 - start < span) { // one test for -n and -D: the warm-up (-D) compiles the loop the measurement (-n) runs
            r++;
            long stamp = Payload.stamp(r, w);
            Payload.putStamp(out, 0, size, stamp);
            long t0 = System.nanoTime();
            send(stamp);
            long got = awaitMessage(in, size, (int) (Payload.stamp(r - 1, w) & 0xFF));
            if (got != stamp) {
                throw new PerfException("round " + r + " of size " + size + ": the echo carries stamp " + got
                        + ", expected " + stamp);
            }
            t1 = System.nanoTime();
            histogram.recordValue(t1 - t0);
        }
        long elapsed = t1 - start;
        long end = Payload.endStamp(w);
        Payload.putStamp(out, 0, size, end);
        send(end);
        meter.stop();
        String bad = checkLast(in, size, Payload.stamp(r, w), "client");
        Latency lat = Latency.of(histogram, 2);
        return SideReport.of(true, size, r, elapsed, 0, lat, meter,
                SideReport.verdict(bad), bad == null ? "every echo's stamp, the last message's pattern" : bad);
    }

    /** Answers rounds until the end marker. */
    void server(int size) {
        prepareWr(size);
        MemorySegment out = side.outSeg(0);
        MemorySegment in = side.inSeg(0);
        int w = Payload.stampWidth(size);
        long end = Payload.endStamp(w);
        long r = 1;
        int prevLow = 0;
        while (true) {
            long stamp = awaitMessage(in, size, prevLow);
            if (stamp == end) {
                break;
            }
            long expected = Payload.stamp(r, w);
            if (stamp != expected) {
                throw new PerfException("round " + r + " of size " + size + ": the client's message carries stamp "
                        + stamp + ", expected " + expected);
            }
            Payload.putStamp(out, 0, size, stamp);
            send(stamp);
            prevLow = (int) (stamp & 0xFF);
            r++;
        }
        serverRounds = r - 1;
        lastStamp = end;
    }

    SideReport serverReport(int size, CpuMeter meter) {
        String bad = checkLast(side.inSeg(0), size, lastStamp, "server");
        return SideReport.of(false, size, serverRounds, 0, 0, null, meter,
                SideReport.verdict(bad), bad == null ? "every message's stamp, the last message's pattern" : bad);
    }

    /**
     * Waits for the next message and returns its stamp. WRITE: polls the last byte until it differs
     * from {@code prevLow}; SEND/WRITE_IMM: waits for the RECV completion (and re-posts the RECV).
     */
    private long awaitMessage(MemorySegment in, int size, int prevLow) {
        if (verb == TestKind.Verb.WRITE) {
            while (Payload.lastByteAcquire(in, 0, size) == prevLow) {
                waiter.idleMemory();
            }
            waiter.progress();
            return Payload.getStamp(in, 0, size);
        }
        while (true) {
            int n = waiter.poll(side.recvCq, wcs);
            if (n != 1) {
                throw new PerfException("a ping-pong got " + n + " messages at once");
            }
            WorkCompletion wc = wcs[0];
            waiter.check(wc);
            side.recvsOutstanding[0]--;
            side.postRecv(0);
            long stamp = Payload.getStamp(in, 0, size);
            if (verb == TestKind.Verb.SEND) {
                if (wc.opcode() != WcOpcode.RECV || wc.byteLen() != size) {
                    throw new PerfException("expected a " + size + "-byte SEND, got " + wc);
                }
            } else {
                if (wc.opcode() != WcOpcode.RECV_RDMA_WITH_IMM) {
                    throw new PerfException("expected immediate data, got " + wc);
                }
                if (wc.immData() != stamp) {
                    throw new PerfException("the immediate data " + wc.immData() + " does not match the stamp "
                            + stamp + " the WRITE placed before it");
                }
            }
            return stamp;
        }
    }

    private void send(long stamp) {
        waiter.reap(side.sendCq, wcs);
        SendWr w = wr[0];
        w.signaled(++posted % signalEvery == 0);
        if (verb == TestKind.Verb.WRITE_IMM) {
            w.immData(stamp);
        }
        waiter.post(side.qps[0], wr, 1, side.sendCq, wcs, this);
    }

    @Override
    public void reaped(WorkCompletion wc) {
        // send completions only free queue slots here; unsignaled sends left at the end of a size
        // are covered by the next size's first signaled one (posted keeps counting)
    }

    private static String checkLast(MemorySegment in, int size, long stamp, String who) {
        int w = Payload.stampWidth(size);
        long got = Payload.getStamp(in, 0, size);
        if (got != stamp) {
            return who + ": the last message carries stamp " + got + ", expected " + stamp;
        }
        long bad = Payload.check(in, 0, size - w, size);
        return bad < 0 ? null : Payload.mismatch(who, in, 0, bad, size);
    }
}
