package org.jwarp.bench.transport.sockets;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import org.HdrHistogram.Histogram;
import org.jwarp.bench.perf.BandwidthMeter;
import org.jwarp.bench.perf.CpuMeter;
import org.jwarp.bench.perf.Latency;
import org.jwarp.bench.perf.Payload;
import org.jwarp.bench.perf.PerfException;
import org.jwarp.bench.perf.Settings;
import org.jwarp.bench.perf.SideReport;
import org.jwarp.bench.perf.TestKind;

/**
 * The three sockets workloads, each with its client and server half:
 *
 * <ul>
 *   <li><b>ping-pong</b> (send, write and write-imm latency): {@code size} bytes each way per
 *       round, stamped and checked as in the jwarp ping-pong; the client sends an end-stamped
 *       message at the end;</li>
 *   <li><b>request/response</b> (READ): an 8-byte request (the round, or -1 to end) answered by
 *       {@code size} bytes of the server's pattern; one at a time for latency, up to {@code -o}
 *       in flight per connection for bandwidth;</li>
 *   <li><b>stream</b> (send, write and write-imm bandwidth): {@code size}-byte messages, message
 *       {@code m} on connection {@code m mod q}, one {@code write} per message as the verbs post
 *       one work request per message; the receiver reads one message at a time and checks its
 *       first byte, which the end message carries inverted; after every connection's end
 *       message it sends one byte back, which ends the client's clock.</li>
 * </ul>
 */
final class SocketWorkloads {

    private final Settings settings;
    private final SocketIo[] conns;
    private final ByteBuffer[] out;
    private final ByteBuffer[] in;
    private final MemorySegment[] outSeg;
    private final MemorySegment[] inSeg;
    private final ByteBuffer request = ByteBuffer.allocateDirect(8);
    private final ByteBuffer ack = ByteBuffer.allocateDirect(1);
    private final Histogram histogram = Latency.newHistogram();
    private final BandwidthMeter bw = new BandwidthMeter();
    private final long[] perConn;
    private final long[] requested;
    private final boolean[] ended;
    private long serverMessages;
    private long lastStamp;
    private String bad;

    SocketWorkloads(Settings settings, SocketIo[] conns) {
        this.settings = settings;
        this.conns = conns;
        int q = conns.length;
        int buf = Math.max(8, settings.maxSize());
        out = new ByteBuffer[q];
        in = new ByteBuffer[q];
        outSeg = new MemorySegment[q];
        inSeg = new MemorySegment[q];
        for (int i = 0; i < q; i++) {
            out[i] = ByteBuffer.allocateDirect(buf);
            in[i] = ByteBuffer.allocateDirect(buf);
            outSeg[i] = MemorySegment.ofBuffer(out[i]);
            inSeg[i] = MemorySegment.ofBuffer(in[i]);
        }
        perConn = new long[q];
        requested = new long[q];
        ended = new boolean[q];
    }

    void prepare(int size) {
        for (int i = 0; i < conns.length; i++) {
            inSeg[i].asSlice(0, size).fill((byte) 0);
            Payload.fill(outSeg[i], 0, size, size);
        }
        bad = null;
    }

    private boolean pingPong() {
        return settings.test().isLatency() && !settings.test().verb().isRequestResponse();
    }

    private boolean requests() {
        return settings.test().verb().isRequestResponse();
    }

    // ---- client -----------------------------------------------------------------------------

    SideReport client(int size, long iterations, long durationNanos, CpuMeter meter) {
        if (pingPong()) {
            return pingPongClient(size, iterations, durationNanos, meter);
        }
        if (requests()) {
            return settings.test().isLatency() ? requestLatencyClient(size, iterations, durationNanos, meter)
                    : requestClient(size, iterations, durationNanos, meter);
        }
        return streamClient(size, iterations, durationNanos, meter);
    }

    private SideReport pingPongClient(int size, long rounds, long durationNanos, CpuMeter meter) {
        histogram.reset();
        SocketIo c = conns[0];
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
            Payload.putStamp(outSeg[0], 0, size, stamp);
            long t0 = System.nanoTime();
            c.writeFully(out[0].clear().limit(size));
            c.readFully(in[0].clear().limit(size));
            long got = Payload.getStamp(inSeg[0], 0, size);
            if (got != stamp) {
                throw new PerfException("round " + r + " of size " + size + ": the echo carries stamp " + got
                        + ", expected " + stamp);
            }
            t1 = System.nanoTime();
            histogram.recordValue(t1 - t0);
        }
        Payload.putStamp(outSeg[0], 0, size, Payload.endStamp(w));
        c.writeFully(out[0].clear().limit(size));
        meter.stop();
        String err = checkMessage(inSeg[0], size, Payload.stamp(r, w), "client");
        return latencyReport(size, r, t1 - start, Latency.of(histogram, 2), meter, err,
                "every echo's stamp, the last message's pattern");
    }

    private SideReport requestLatencyClient(int size, long rounds, long durationNanos, CpuMeter meter) {
        histogram.reset();
        SocketIo c = conns[0];
        long r = 0;
        meter.start();
        long limit = durationNanos > 0 ? Long.MAX_VALUE : rounds;
        long span = durationNanos > 0 ? durationNanos : Long.MAX_VALUE;
        long start = System.nanoTime();
        long t1 = start;
        while (r < limit && t1 - start < span) { // one test for -n and -D: the warm-up (-D) compiles the loop the measurement (-n) runs
            r++;
            long t0 = System.nanoTime();
            sendRequest(0, r);
            c.readFully(in[0].clear().limit(size));
            t1 = System.nanoTime();
            histogram.recordValue(t1 - t0);
        }
        sendRequest(0, -1);
        meter.stop();
        long at = Payload.check(inSeg[0], 0, size, size);
        return latencyReport(size, r, t1 - start, Latency.of(histogram, 1), meter,
                at < 0 ? null : Payload.mismatch("client", inSeg[0], 0, at, size),
                "the last response against the server's pattern");
    }

    private SideReport requestClient(int size, long iterations, long durationNanos, CpuMeter meter) {
        int q = conns.length;
        int depth = Math.max(1, settings.outstanding());
        int signalEvery = Math.max(1, settings.cqMod());
        long target = durationNanos > 0 ? Long.MAX_VALUE : iterations;
        long deadline = System.nanoTime() + durationNanos;
        java.util.Arrays.fill(perConn, 0);
        java.util.Arrays.fill(requested, 0);
        meter.start();
        long start = System.nanoTime();
        bw.start(start);
        long responses = 0;
        // fill the pipes: up to `depth` requests in flight on every connection
        for (int i = 0; i < q; i++) {
            while (requested[i] < Math.min(depth, target)) {
                sendRequest(i, ++requested[i]);
            }
        }
        boolean stopping = false;
        int open = q;
        while (open > 0) {
            open = 0;
            for (int i = 0; i < q; i++) {
                if (perConn[i] == requested[i]) {
                    continue;
                }
                conns[i].readFully(in[i].clear().limit(size));
                perConn[i]++;
                responses++;
                if (responses % signalEvery == 0) {
                    long now = System.nanoTime();
                    bw.completed(now, (long) signalEvery * size);
                    stopping |= durationNanos > 0 && now - deadline >= 0;
                }
                if (!stopping && requested[i] < target) {
                    sendRequest(i, ++requested[i]);
                }
                if (perConn[i] < requested[i]) {
                    open++;
                }
            }
        }
        for (int i = 0; i < q; i++) {
            sendRequest(i, -1);
        }
        long end = System.nanoTime();
        bw.completed(end, (responses % signalEvery) * (long) size);
        meter.stop();
        String err = null;
        for (int i = 0; i < q && err == null; i++) {
            long at = Payload.check(inSeg[i], 0, size, size);
            if (at >= 0) {
                err = Payload.mismatch("client, connection " + i, inSeg[i], 0, at, size);
            }
        }
        return SideReport.of(true, size, responses, end - start, bw.peakBytesPerSecond(), null, meter,
                SideReport.verdict(err),
                err == null ? "the last response on every connection against the server's pattern" : err);
    }

    private void sendRequest(int conn, long value) {
        request.clear();
        request.putLong(0, value);
        conns[conn].writeFully(request);
    }

    private SideReport streamClient(int size, long iterations, long durationNanos, CpuMeter meter) {
        int q = conns.length;
        int signalEvery = Math.max(1, settings.cqMod());
        long total = durationNanos > 0 ? Long.MAX_VALUE : iterations * q;
        long deadline = System.nanoTime() + durationNanos;
        meter.start();
        long start = System.nanoTime();
        bw.start(start);
        long m = 0;
        while (m < total) {
            int i = (int) (m % q);
            conns[i].writeFully(out[i].clear().limit(size));
            m++;
            if (m % signalEvery == 0) {
                long now = System.nanoTime();
                bw.completed(now, (long) signalEvery * size);
                if (durationNanos > 0 && now - deadline >= 0) {
                    break;
                }
            }
        }
        for (int i = 0; i < q; i++) {
            // the end message: the pattern with its first byte inverted
            byte first = out[i].get(0);
            out[i].put(0, (byte) ~first);
            conns[i].writeFully(out[i].clear().limit(size));
            out[i].put(0, first);
        }
        conns[0].readFully(ack.clear());
        long end = System.nanoTime();
        bw.completed(end, (m % signalEvery) * (long) size);
        meter.stop();
        return SideReport.of(true, size, m, end - start, bw.peakBytesPerSecond(), null, meter, SideReport.NOT_CHECKED,
                "sent; the server checks");
    }

    // ---- server -----------------------------------------------------------------------------

    void server(int size) {
        serverMessages = 0;
        if (pingPong()) {
            pingPongServer(size);
        } else if (requests()) {
            requestServer(size);
        } else {
            streamServer(size);
        }
    }

    private void pingPongServer(int size) {
        SocketIo c = conns[0];
        int w = Payload.stampWidth(size);
        long end = Payload.endStamp(w);
        long r = 1;
        while (true) {
            c.readFully(in[0].clear().limit(size));
            long stamp = Payload.getStamp(inSeg[0], 0, size);
            if (stamp == end) {
                break;
            }
            if (stamp != Payload.stamp(r, w)) {
                throw new PerfException("round " + r + " of size " + size + ": the client's message carries stamp "
                        + stamp + ", expected " + Payload.stamp(r, w));
            }
            Payload.putStamp(outSeg[0], 0, size, stamp);
            c.writeFully(out[0].clear().limit(size));
            r++;
        }
        serverMessages = r - 1;
        lastStamp = end;
    }

    private void requestServer(int size) {
        int q = conns.length;
        java.util.Arrays.fill(ended, false);
        int open = q;
        while (open > 0) {
            for (int i = 0; i < q; i++) {
                if (ended[i]) {
                    continue;
                }
                conns[i].readFully(request.clear());
                if (request.getLong(0) == -1) {
                    ended[i] = true;
                    open--;
                    continue;
                }
                conns[i].writeFully(out[i].clear().limit(size));
                serverMessages++;
            }
        }
    }

    private void streamServer(int size) {
        int q = conns.length;
        java.util.Arrays.fill(ended, false);
        java.util.Arrays.fill(perConn, 0);
        byte first = Payload.expected(0, size);
        int open = q;
        long m = 0;
        while (open > 0) {
            int i = (int) (m++ % q);
            if (ended[i]) {
                continue;
            }
            conns[i].readFully(in[i].clear().limit(size));
            byte b = in[i].get(0);
            if (b == first) {
                perConn[i]++;
                serverMessages++;
            } else if (b == (byte) ~first) {
                ended[i] = true;
                open--;
            } else {
                throw new PerfException("connection " + i + ": message " + (perConn[i] + 1) + " starts with 0x"
                        + Integer.toHexString(b & 0xFF) + ", expected 0x" + Integer.toHexString(first & 0xFF)
                        + ": the stream lost its framing");
            }
        }
        conns[0].writeFully(ack.clear());
    }

    SideReport serverReport(int size, CpuMeter meter) {
        String err = bad;
        String detail;
        int verified = SideReport.VERIFIED;
        if (pingPong()) {
            err = err != null ? err : checkMessage(inSeg[0], size, lastStamp, "server");
            detail = "every message's stamp, the last message's pattern";
        } else if (requests()) {
            verified = SideReport.NOT_CHECKED;
            detail = "answered the requests";
        } else {
            for (int i = 0; i < conns.length && err == null; i++) {
                // the end message carries the pattern after its first byte
                long at = Payload.check(inSeg[i], 0, 1, size, size);
                if (at >= 0) {
                    err = Payload.mismatch("server, connection " + i, inSeg[i], 0, at, size);
                }
            }
            detail = "every message's first byte, the last message's pattern on every connection, the count";
        }
        if (err != null) {
            verified = SideReport.FAILED;
            detail = err;
        }
        return SideReport.of(false, size, serverMessages, 0, 0, null, meter, verified, detail);
    }

    private SideReport latencyReport(int size, long rounds, long elapsed, Latency lat, CpuMeter meter, String err,
                                     String detail) {
        return SideReport.of(true, size, rounds, elapsed, 0, lat, meter,
                SideReport.verdict(err), err == null ? detail : err);
    }

    private static String checkMessage(MemorySegment in, int size, long stamp, String who) {
        int w = Payload.stampWidth(size);
        long got = Payload.getStamp(in, 0, size);
        if (got != stamp) {
            return who + ": the last message carries stamp " + got + ", expected " + stamp;
        }
        long at = Payload.check(in, 0, size - w, size);
        return at < 0 ? null : Payload.mismatch(who, in, 0, at, size);
    }
}
