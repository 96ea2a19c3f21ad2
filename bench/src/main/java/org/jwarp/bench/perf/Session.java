package org.jwarp.bench.perf;

import java.util.List;

/**
 * One side of a connected run, for one transport. The {@link PerfDriver} calls it size by size:
 * {@link #prepare}, then {@link #runClient} on the client, or {@link #runServer} (active server
 * tests) or nothing (passive ones, such as RDMA WRITE and READ, where the server's application
 * does nothing while its engine works) on the server, then {@link #serverReport}.
 */
public interface Session extends AutoCloseable {

    Settings settings();

    Control control();

    /** The engine threads of this side (for CPU accounting); empty for sockets and invoker mode. */
    List<Thread> engineThreads();

    /** Header lines: connection, negotiated options, threading. */
    List<String> describe();

    /** Zeroes receive buffers, fills send buffers with the pattern, posts receives: before READY. */
    void prepare(int size);

    /**
     * Client: the measured part of one size. Starts {@code meter} at the first post and stops it
     * when the server confirmed everything arrived, then verifies what this side received.
     *
     * @param iterations     rounds (latency) or messages per QP (bandwidth); ignored if {@code durationNanos} > 0
     * @param durationNanos  run for this long instead (0: use {@code iterations})
     */
    SideReport runClient(int size, long iterations, long durationNanos, CpuMeter meter);

    /**
     * Whether this side's busy-polling threads yield the CPU on every other idle turn: on during
     * the warm-up passes, so that the JIT's compiler threads get a CPU beside the spinners (and
     * both idle branches are compiled, so the measurement does not trap into the interpreter);
     * off for the measurement (unless the run yields anyway).
     */
    void warmingUp(boolean on);

    /** Server: whether the application takes part in the transfer (false: it waits for the client's report). */
    boolean serverActive();

    /** Server, active tests: answers or receives until the client's end marker. */
    void runServer(int size);

    /** Server: verifies what arrived and reports, after {@code meter} was stopped. */
    SideReport serverReport(int size, CpuMeter meter, SideReport clientReport);

    /** Releases everything (connections, devices, memory). Never throws. */
    @Override
    void close();
}
