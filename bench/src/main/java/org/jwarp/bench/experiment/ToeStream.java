package org.jwarp.bench.experiment;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import org.jwarp.bench.run.Listening;
import org.jwarp.engine.provider.JwarpConfig;
import org.jwarp.engine.provider.JwarpConfigBuilder;
import org.jwarp.engine.toe.OffloadedSockets;
import org.jwarp.engine.toe.ToeConfig;
import org.jwarp.engine.toe.ToeServerSocket;
import org.jwarp.engine.toe.ToeSocket;
import org.jwarp.engine.toe.ToeStats;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.RdmaDevice;

/**
 * One side of seed 001's throughput test (Iperf-like: one long-lived connection, one way), run in a
 * process of its own: the host passes data to TCP in chunks of a given size, through the offloaded
 * sockets (the engine thread pinned to a CPU of its own) or through plain {@link Socket} streams.
 * The sender writes for a given time, ends its output and waits for the receiver's close, so both
 * sides' clocks cover the whole transfer. Each side prints one {@link SideResult} line
 * ({@link ResultLines}): bytes, elapsed time, the host's CPU time (every thread of the process but
 * the engine's) and the engine's.
 *
 * <p>Data check: the stream is a position-dependent pattern (byte at offset o is o mod 251); the
 * receiver counts every byte and checks one byte in every 1,024 and the first of every read, so
 * the check costs the host almost nothing.
 *
 * <p>Arguments: {@code receive toe|sockets CHUNK BIND_ADDRESS ENGINE_CPU} or
 * {@code send toe|sockets CHUNK HOST PORT SECONDS ENGINE_CPU} (ENGINE_CPU -1: not pinned).
 */
public final class ToeStream {

    static final int PERIOD = 251;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private ToeStream() {
    }

    /** What one side measured. */
    public record SideResult(String role, String stack, int chunk, long bytes, long elapsedNanos, long hostCpuNanos,
                             long engineCpuNanos, long interrupts, long events, long requests) {

        public double gbps() {
            return bytes * 8.0 / elapsedNanos;
        }

        /** % of one CPU the host used per Gb/s (seed 001's measure). */
        public double hostPercentPerGbps() {
            return 100.0 * hostCpuNanos / elapsedNanos / gbps();
        }

        public double enginePercentPerGbps() {
            return 100.0 * engineCpuNanos / elapsedNanos / gbps();
        }
    }

    public static void main(String[] args) throws Exception {
        PrintStream out = System.out;
        try {
            boolean toe = args[1].equals("toe");
            int chunk = Integer.parseInt(args[2]);
            if (args[0].equals("receive")) {
                ResultLines.print(out, receive(toe, chunk, InetAddress.getByName(args[3]), Integer.parseInt(args[4]),
                        out));
            } else {
                ResultLines.print(out, send(toe, chunk, new InetSocketAddress(InetAddress.getByName(args[3]),
                        Integer.parseInt(args[4])), Double.parseDouble(args[5]), Integer.parseInt(args[6])));
            }
            out.flush();
            System.exit(0);
        } catch (Throwable t) {
            System.err.println("toe stream failed: " + t);
            t.printStackTrace();
            System.exit(1);
        }
    }

    /** The device for the offloaded sockets: one engine thread of its own, on {@code cpu} if given. */
    static RdmaDevice device(int cpu) {
        JwarpConfigBuilder b = JwarpConfig.builder().threadingMode(JwarpConfig.ThreadingMode.DEDICATED).engineThreads(1);
        if (cpu >= 0) {
            b.cpuList(List.of(cpu));
        }
        return RdmaDevice.open(DeviceConfig.builder().provider(b.build()).build());
    }

    /** The paper's receive chunk is the anonymous buffer: the engine passes each one on full. */
    static ToeConfig config(int chunk) {
        int buffers = Math.max(8, (4 << 20) / chunk);
        return ToeConfig.defaults().withReceiveBuffer(chunk, buffers).withFillTimeout(1_000_000);
    }

    static SideResult receive(boolean toe, int chunk, InetAddress bind, int engineCpu, PrintStream announce)
            throws Exception {
        byte[] b = new byte[chunk];
        if (!toe) {
            try (ServerSocket l = new ServerSocket(0, 1, bind)) {
                Listening.print(announce, l.getLocalPort());
                try (Socket s = l.accept()) {
                    Window w = new Window(null);
                    long n = drain(s.getInputStream(), b, w);
                    return w.end("receiver", "sockets", chunk, n);
                }
            }
        }
        try (RdmaDevice d = device(engineCpu); OffloadedSockets sockets = OffloadedSockets.open(d, config(chunk));
             ToeServerSocket l = sockets.listen(new InetSocketAddress(bind, 0), 1)) {
            Listening.print(announce, l.getLocalSocketAddress().getPort());
            try (ToeSocket s = l.accept()) {
                Window w = new Window(sockets);
                long n = drain(s.getInputStream(), b, w);
                return w.end("receiver", "toe", chunk, n);
            }
        }
    }

    /** Reads to the end of the stream, checking the pattern; the window starts at the first byte. */
    private static long drain(InputStream in, byte[] b, Window w) throws IOException {
        long got = 0;
        int first = in.read(b);
        if (first < 0) {
            throw new IOException("the sender sent nothing");
        }
        w.start();
        for (int n = first; n >= 0; n = in.read(b)) {
            check(b, n, got);
            got += n;
        }
        return got;
    }

    private static void check(byte[] b, int n, long at) throws IOException {
        for (int i = 0; i < n; i += i == 0 ? 1024 - (int) (at & 1023) : 1024) {
            if (b[i] != (byte) ((at + i) % PERIOD)) {
                throw new IOException("data mismatch at stream offset " + (at + i) + ": got " + b[i] + ", expected "
                        + (byte) ((at + i) % PERIOD));
            }
        }
    }

    static SideResult send(boolean toe, int chunk, InetSocketAddress to, double seconds, int engineCpu)
            throws Exception {
        byte[] pattern = new byte[PERIOD + chunk];
        for (int i = 0; i < pattern.length; i++) {
            pattern[i] = (byte) (i % PERIOD);
        }
        long nanos = (long) (seconds * 1e9);
        if (!toe) {
            try (Socket s = new Socket(to.getAddress(), to.getPort())) {
                Window w = new Window(null);
                long n = pump(s.getOutputStream(), pattern, chunk, nanos, w);
                s.shutdownOutput();
                awaitClose(s.getInputStream());
                return w.end("sender", "sockets", chunk, n);
            }
        }
        try (RdmaDevice d = device(engineCpu); OffloadedSockets sockets = OffloadedSockets.open(d, config(chunk));
             ToeSocket s = sockets.connect(to)) {
            Window w = new Window(sockets);
            long n = pump(s.getOutputStream(), pattern, chunk, nanos, w);
            s.shutdownOutput();
            awaitClose(s.getInputStream());
            return w.end("sender", "toe", chunk, n);
        }
    }

    private static long pump(OutputStream out, byte[] pattern, int chunk, long nanos, Window w) throws IOException {
        w.start();
        long sent = 0;
        long until = System.nanoTime() + nanos;
        int i = 0;
        while ((++i & 15) != 0 || System.nanoTime() - until < 0) {
            out.write(pattern, (int) (sent % PERIOD), chunk);
            sent += chunk;
        }
        return sent;
    }

    private static void awaitClose(InputStream in) throws IOException {
        if (in.read() != -1) {
            throw new IOException("the receiver sent data; it should only close");
        }
    }

    /** The measurement window: elapsed time, the process's CPU time and the engine threads'. */
    private static final class Window {
        private final OffloadedSockets sockets;
        private long t0;
        private long process0;
        private long engine0;
        private ToeStats stats0;

        Window(OffloadedSockets sockets) {
            this.sockets = sockets;
        }

        void start() {
            stats0 = sockets == null ? null : sockets.stats();
            engine0 = engineCpu();
            process0 = processCpu();
            t0 = System.nanoTime();
        }

        SideResult end(String role, String stack, int chunk, long bytes) {
            long t = System.nanoTime() - t0;
            long process = processCpu() - process0;
            long engine = engineCpu() - engine0;
            ToeStats d = sockets == null ? null : sockets.stats().minus(stats0);
            return new SideResult(role, stack, chunk, bytes, t, process - engine, engine,
                    d == null ? 0 : d.interrupts(), d == null ? 0 : d.eventsTaken(), d == null ? 0 : d.requests());
        }
    }

    static long processCpu() {
        java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean sun ? sun.getProcessCpuTime() : -1;
    }

    /** CPU time of the engine threads (named jwarp-engine-N). */
    static long engineCpu() {
        long sum = 0;
        for (ThreadInfo t : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
            if (t != null && t.getThreadName().startsWith("jwarp-engine-")) {
                long c = THREADS.getThreadCpuTime(t.getThreadId());
                if (c > 0) {
                    sum += c;
                }
            }
        }
        return sum;
    }
}
