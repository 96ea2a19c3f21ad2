package org.jwarp.bench.perf;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.jwarp.engine.affinity.ThreadAffinity;

/**
 * What one side measured for one size, sent to the other side at the end of the size so that
 * both print the same row.
 *
 * @param client         whether the client (measuring) side wrote it
 * @param size           message size
 * @param messages       messages this side completed (sent or received)
 * @param bytes          payload bytes of those messages
 * @param elapsedNanos   measured time: first post to the peer's confirmation that everything
 *                       arrived (bandwidth), or the rounds' total (latency); 0 on the passive side
 * @param peakBytesPerSecond perftest's BW peak (bandwidth tests, measuring side)
 * @param latency        the latency columns (latency tests, measuring side), or {@code null}
 * @param appCpuNanos    CPU time of the application thread over {@code cpuWallNanos}
 * @param engineCpuNanos CPU time of the engine threads over {@code cpuWallNanos}
 * @param processCpuNanos CPU time of the whole process over {@code cpuWallNanos} (-1: unknown)
 * @param cpuWallNanos   the interval the CPU times cover
 * @param verified       {@link #VERIFIED}, {@link #NOT_CHECKED} or {@link #FAILED}
 * @param detail         what was checked, or what was wrong (one line)
 * @param appCpu         the CPU the application thread ran on at the end (-1: unknown)
 * @param compileMillis  this process's JIT compiler threads' CPU time so far when the report was
 *                       made ({@link #compiledMillis()}; -1: unknown): the client's warm-up goes on
 *                       while either side still compiles
 */
public record SideReport(boolean client, int size, long messages, long bytes, long elapsedNanos,
                         double peakBytesPerSecond, Latency latency, long appCpuNanos, long engineCpuNanos,
                         long processCpuNanos, long cpuWallNanos, int verified, String detail, int appCpu,
                         long compileMillis) {

    public static final int VERIFIED = 1;
    public static final int NOT_CHECKED = 0;
    public static final int FAILED = -1;

    private static final int MAX_DETAIL = 400;

    public SideReport {
        detail = detail == null ? "" : detail;
    }

    /**
     * What a side measured over {@code messages} messages of {@code size} bytes, with the CPU times
     * of {@code meter} (stopped) and the CPU the calling (application) thread is on now.
     */
    public static SideReport of(boolean client, int size, long messages, long elapsedNanos, double peakBytesPerSecond,
                                Latency latency, CpuMeter meter, int verified, String detail) {
        return new SideReport(client, size, messages, messages * size, elapsedNanos, peakBytesPerSecond, latency,
                meter.appNanos(), meter.engineNanos(), meter.processNanos(), meter.wallNanos(), verified, detail,
                ThreadAffinity.currentCpu(), compiledMillis());
    }

    /**
     * The CPU time this process's JIT compiler threads have used so far, in milliseconds: what a
     * warm-up waits to stop growing. Their CPU time counts a compilation while it runs (the JVM's
     * compilation time counts it when it ends, and one C2 compilation of the data path can take
     * most of a second), so a pass during which a long compilation ran does not look quiet.
     * Without /proc, the JVM's total compilation time; -1 where neither is known.
     */
    public static long compiledMillis() {
        long nanos = ThreadCpu.nanos(ThreadCpu.JIT_COMPILERS);
        if (nanos >= 0) {
            return nanos / 1_000_000;
        }
        java.lang.management.CompilationMXBean jit = java.lang.management.ManagementFactory.getCompilationMXBean();
        return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() : -1;
    }

    /** {@link #VERIFIED} if nothing was wrong ({@code failure} null), else {@link #FAILED}. */
    public static int verdict(String failure) {
        return failure == null ? VERIFIED : FAILED;
    }

    void writeTo(ByteBuffer b) {
        b.put((byte) ((client ? 1 : 0) | (latency != null ? 2 : 0)));
        b.putInt(size);
        b.putLong(messages);
        b.putLong(bytes);
        b.putLong(elapsedNanos);
        b.putDouble(peakBytesPerSecond);
        if (latency != null) {
            latency.writeTo(b);
        }
        b.putLong(appCpuNanos);
        b.putLong(engineCpuNanos);
        b.putLong(processCpuNanos);
        b.putLong(cpuWallNanos);
        b.put((byte) verified);
        b.putInt(appCpu);
        b.putLong(compileMillis);
        byte[] d = detail.getBytes(StandardCharsets.UTF_8);
        int len = Math.min(d.length, MAX_DETAIL);
        b.putShort((short) len);
        b.put(d, 0, len);
    }

    static SideReport readFrom(ByteBuffer b) {
        int flags = b.get();
        int size = b.getInt();
        long messages = b.getLong();
        long bytes = b.getLong();
        long elapsed = b.getLong();
        double peak = b.getDouble();
        Latency lat = (flags & 2) != 0 ? Latency.readFrom(b) : null;
        long app = b.getLong();
        long engine = b.getLong();
        long process = b.getLong();
        long wall = b.getLong();
        int verified = b.get();
        int appCpu = b.getInt();
        long compileMillis = b.getLong();
        int length = b.getShort() & 0xFFFF;
        if (length > b.remaining()) {
            throw new IllegalArgumentException("report note of " + length + " bytes, " + b.remaining() + " present");
        }
        byte[] d = new byte[length];
        b.get(d);
        return new SideReport((flags & 1) != 0, size, messages, bytes, elapsed, peak, lat, app, engine, process, wall,
                verified, PeerText.printable(new String(d, StandardCharsets.UTF_8)), appCpu, compileMillis);
    }
}
