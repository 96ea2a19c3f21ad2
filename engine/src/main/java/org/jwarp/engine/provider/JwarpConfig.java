package org.jwarp.engine.provider;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import org.jwarp.engine.io.IoDrivers;
import org.jwarp.engine.io.IoLayer;
import org.jwarp.engine.rss.RssConfig;
import org.jwarp.sys.NanoClock;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.spi.ProviderConfig;

/**
 * The jwarp engine's own settings: who runs the engine and how it idles, the socket I/O layer, CPU
 * pinning and NUMA placement, Receive-Side Scaling, and the receive path's thresholds. It travels
 * in {@link DeviceConfig#providerConfig()} ({@link DeviceConfig.Builder#provider}); a device
 * configuration without one gets {@link #defaults()}. Immutable; build it with {@link #builder()},
 * which fills in defaults from the number of available processors.
 *
 * <h2>Defaults and why</h2>
 * <ul>
 *   <li><b>Threading</b>: with 4 or more processors available to the process (its CPU affinity,
 *       {@code taskset}, included), {@link ThreadingMode#DEDICATED} with one engine thread (the
 *       offload-engine emulation of seed 001); with fewer, {@link ThreadingMode#HYBRID}. A
 *       dedicated engine thread beside a polling application thread makes two busy threads per
 *       process, and two such processes on 2 CPUs hand over only at scheduler ticks; in hybrid
 *       mode the polling application thread runs the engine and a standby engine thread, asleep in
 *       its selector, keeps the engine going whenever no application thread does.</li>
 *   <li><b>Idle strategy</b>: {@link IdleStrategyKind#ADAPTIVE} always: an idle engine thread spins
 *       for {@link #ADAPTIVE_SPIN_NANOS} and then sleeps in its selector, from which a doorbell or a
 *       socket becoming readable wakes it at once. A default never spins without end: the rule is
 *       never more spinning threads than processors, and the application's own polling thread may
 *       already be a spinner. {@link IdleStrategyKind#SPIN} is an explicit choice, and
 *       {@link JwarpConfigBuilder#build()} refuses more spinning engine threads than processors.</li>
 *   <li><b>Socket I/O</b>: {@link SocketIo#AUTO}, system calls where the JVM shows a socket's
 *       descriptor.</li>
 * </ul>
 *
 * @param threadingMode who runs the engine's duty cycle
 * @param engineThreads engine threads in DEDICATED mode (1..{@value #MAX_ENGINE_THREADS}); must be 1 in
 *                      INVOKER and HYBRID modes
 * @param idleStrategy  what an engine thread (or an INVOKER-mode wait) does when there is no work
 * @param backoff       parameters of {@link IdleStrategyKind#BACKOFF}, and the longest sleep of an
 *                      engine thread whose timers run
 * @param cpuList       CPUs to pin engine thread {@code i} to ({@code cpuList.get(i)}); in HYBRID mode at most
 *                      one, the standby engine thread's (it takes over the application's engine, so
 *                      it belongs on the application's CPU); empty = no pinning
 * @param rss           how connections are spread over the engine threads, and rebalanced
 * @param numa          DEDICATED mode without a cpuList: pin the engine threads over the NUMA nodes
 *                      (one node after another) and prefer each thread's node for its connections'
 *                      buffers (seed 004)
 * @param socketIo      how the engine moves a running connection's bytes to and from its TCP socket
 * @param readinessFrom connections per engine thread from which a duty cycle reads only the sockets
 *                      one readiness check ({@code epoll_wait}) finds readable, and parks idle
 *                      connections (docs/design.md, "One duty cycle"); at least 1
 * @param rxDirectFrom  payload bytes from which the rest of a segment is read from the socket
 *                      straight into its target memory instead of through the staging buffer; at
 *                      least 1, {@link #NEVER_DIRECT} to always stage
 * @param clock         the time every engine rule of the device reads: MPA and setup timers,
 *                      parked connections' and tenants' deadlines, completion moderation,
 *                      traffic recency ({@link NanoClock#SYSTEM}; a test's fake clock drives a
 *                      whole device's timers). Read once per duty cycle and on setup paths. The
 *                      idle strategies and the I/O driver's sleep keep real time: they decide
 *                      how the CPU waits, not what the engine does
 * @param runBeforeSleepNanos HYBRID mode: how long a wait of no time ({@code invokeUntil} with a
 *                      zero timeout, after which the thread sleeps elsewhere) first runs the engine
 *                      itself, so that an answer due within a round trip needs no thread woken on
 *                      this side; then it hands the engine to the standby thread. 0: hand over
 *                      at once. Waits with a time (a completion channel's, a CM event's) hold the
 *                      engine for the whole wait instead
 * @param smallMessagePath whether a message of one FPDU takes the small-message path: in invoker
 *                      and hybrid modes a Write or Send posted on an idle send queue is framed
 *                      from the request and written by the posting thread, framing writes the
 *                      length and pad in place, and on receive an FPDU is checked and its
 *                      headers read in place in one step when the FPDU lies whole in the staging
 *                      buffer (docs/design.md, "The small-message path"). Off, every FPDU goes
 *                      the general way; the wire and every rule are the same either way
 */
public record JwarpConfig(ThreadingMode threadingMode, int engineThreads, IdleStrategyKind idleStrategy,
                          Backoff backoff, List<Integer> cpuList, RssConfig rss, boolean numa, SocketIo socketIo,
                          int readinessFrom, long rxDirectFrom, NanoClock clock, long runBeforeSleepNanos,
                          boolean smallMessagePath)
        implements ProviderConfig {

    /**
     * The default {@link #runBeforeSleepNanos()}: 0, hand over at once, so that a thread waiting on
     * events spends no CPU; a few loopback round trips (100 µs) spare a request/response exchange
     * its wake-ups where a CPU is free to spin.
     */
    public static final long DEFAULT_RUN_BEFORE_SLEEP_NANOS = 0;
    /** The longest {@link #runBeforeSleepNanos()}: 10 ms. */
    public static final long MAX_RUN_BEFORE_SLEEP_NANOS = 10_000_000;

    /** Most engine threads a device may have. */
    public static final int MAX_ENGINE_THREADS = 256;
    /** How long an {@link IdleStrategyKind#ADAPTIVE} engine thread spins before it sleeps. */
    public static final long ADAPTIVE_SPIN_NANOS = 50_000;
    /** Processors from which {@link ThreadingMode#DEDICATED} is the default (fewer: {@link ThreadingMode#HYBRID}). */
    public static final int DEDICATED_FROM_PROCESSORS = 4;
    /** The default {@link #readinessFrom()}: below it, a few busy connections are cheaper to read than to poll. */
    public static final int DEFAULT_READINESS_FROM = 8;
    /** The default {@link #rxDirectFrom()}: 32 KiB, where a direct read starts to cost less than a copy. */
    public static final long DEFAULT_RX_DIRECT_FROM = 32 * 1024;
    /** {@link #rxDirectFrom()} that never reads straight into target memory. */
    public static final long NEVER_DIRECT = Long.MAX_VALUE;

    /** Who runs the engine (the soft RNIC's duty cycle). */
    public enum ThreadingMode {
        /**
         * Engine threads of their own, each owning a share of the queue pairs and their sockets; the
         * application's post calls ring a doorbell and return (docs/design.md, seed 001).
         */
        DEDICATED,
        /**
         * No engine thread: the thread that polls a completion queue, posts, waits on a completion
         * channel or calls {@link org.jwarp.verbs.RdmaDevice#invoke()} runs the engine's duty cycle,
         * as Aeron's invoker mode does. For machines with few cores. The application must call into
         * the device regularly, or nothing progresses (no Read Responses, no CM events).
         */
        INVOKER,
        /**
         * {@link #INVOKER} while an application thread calls into the device (polls, posts), and a
         * standby engine thread, asleep in its selector, that runs the duty cycle whenever none has
         * for a while (16 to 64 ms), or at once when an application thread blocks in a wait
         * ({@link org.jwarp.verbs.CompletionChannel#await},
         * {@link org.jwarp.verbs.CmEventQueue#poll(java.time.Duration, org.jwarp.verbs.RdmaDevice)}).
         * One busy thread per process where the application polls, and progress without calling in
         * where it does not: the default on machines with fewer than 4 processors.
         */
        HYBRID
    }

    /** What an idle engine thread does between duty cycles. */
    public enum IdleStrategyKind {
        /** Busy-spin ({@link Thread#onSpinWait()}): lowest latency, one core per thread. */
        SPIN,
        /** Spin, then {@link Thread#yield()}, then park with exponentially growing times ({@link Backoff}). */
        BACKOFF,
        /** Park at once until a doorbell or socket readiness unparks the thread: no CPU when idle. */
        PARK,
        /**
         * Spin for {@link JwarpConfig#ADAPTIVE_SPIN_NANOS} after the last work, then park as
         * {@link #PARK} does: a burst of traffic costs no wake-up, an idle engine no CPU.
         */
        ADAPTIVE
    }

    /**
     * The socket I/O layer under the engine: the calls that move a running connection's FPDUs
     * between memory and its kernel TCP socket (the MPA exchange uses NIO, but on {@link #URING_DIRECT}). Every device
     * reports the layer it chose ({@link org.jwarp.verbs.RdmaDevice#socketIoLayer()}), and the
     * benchmarks print it.
     */
    public enum SocketIo {
        /** {@link #SYSCALLS} where the JVM lets jwarp see a socket's file descriptor, else {@link #NIO} with one line saying why. */
        AUTO,
        /** {@code SocketChannel}'s vectored reads and writes over ByteBuffer views of the memory. */
        NIO,
        /**
         * {@code sendmsg}/{@code readv} on the socket's file descriptor through the FFM API: many
         * FPDUs per call, I/O vector entries straight from registered memory, none of the JDK's
         * per-buffer bookkeeping. Needs native access and
         * {@code --add-opens java.base/sun.nio.ch=ALL-UNNAMED} (the jwarp launcher's jar has both).
         */
        SYSCALLS,
        /**
         * {@code sendmsg}/{@code recvmsg} as io_uring submissions through the FFM API, on one ring per
         * engine thread: one {@code io_uring_enter} submits a call and reaps its completion. Needs
         * what {@link #SYSCALLS} needs, and a kernel that allows io_uring.
         */
        URING,
        /**
         * {@link #URING} with SQPOLL: a kernel thread per engine thread polls the submission queue
         * (the kernel plays the offload engine), and the engine thread makes no system call for its
         * socket I/O unless that kernel thread went to sleep. It takes a CPU while it polls.
         */
        URING_SQPOLL,
        /**
         * io_uring with every connection's socket an io_uring direct descriptor: made, connected,
         * accepted, polled, read, written and closed through rings whose file tables hold the
         * sockets, never in the process's descriptor table, so that a process holds more
         * connections than its open-file limit. Needs a kernel with IORING_OP_SOCKET,
         * socket uring commands and IORING_OP_FIXED_FD_INSTALL (6.8 on).
         */
        URING_DIRECT;

        /** {@return the layer's name on the command line: auto, nio, syscalls, uring, uring-sqpoll, uring-direct} */
        public String option() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }

        /**
         * The I/O drivers' layer this choice runs on here: {@link #AUTO} the machine's
         * ({@link IoDrivers#auto()}), another its own once it is known to run here.
         *
         * @return the layer
         * @throws UnsupportedOperationException if an explicitly asked layer cannot run here (why, in one line)
         */
        public IoLayer resolve() {
            return switch (this) {
                case AUTO -> IoDrivers.auto();
                case NIO -> IoDrivers.check(IoLayer.NIO);
                case SYSCALLS -> IoDrivers.check(IoLayer.SYSCALLS);
                case URING -> IoDrivers.check(IoLayer.URING);
                case URING_SQPOLL -> IoDrivers.check(IoLayer.URING_SQPOLL);
                case URING_DIRECT -> IoDrivers.check(IoLayer.URING_DIRECT);
            };
        }

        /**
         * An {@link #option()} name (any case).
         *
         * @param name the name
         * @return the layer
         * @throws IllegalArgumentException if no layer has that name
         */
        public static SocketIo parse(String name) {
            for (SocketIo s : values()) {
                if (s.option().equalsIgnoreCase(name.trim())) {
                    return s;
                }
            }
            throw new IllegalArgumentException("unknown socket I/O layer '" + name
                    + "': use auto, syscalls, uring, uring-sqpoll, uring-direct or nio");
        }
    }

    /**
     * Parameters of {@link IdleStrategyKind#BACKOFF}, as in Agrona's {@code BackoffIdleStrategy}:
     * {@code maxSpins} spins, then {@code maxYields} yields, then parks starting at
     * {@code minParkNanos} and doubling up to {@code maxParkNanos}.
     *
     * @param maxSpins     spins before the first yield
     * @param maxYields    yields before the first park
     * @param minParkNanos the first park time
     * @param maxParkNanos the longest park time
     */
    public record Backoff(int maxSpins, int maxYields, long minParkNanos, long maxParkNanos) {

        /** 10 spins, 5 yields, parks from 1 µs to 1 ms. */
        public static final Backoff DEFAULT = new Backoff(10, 5, 1_000, 1_000_000);

        /**
         * Validates the parameters.
         *
         * @throws IllegalArgumentException if a count is negative or the park times are not {@code 0 < min <= max}
         */
        public Backoff {
            if (maxSpins < 0 || maxYields < 0) {
                throw new IllegalArgumentException("backoff spins and yields must be >= 0: " + maxSpins + ", " + maxYields);
            }
            if (minParkNanos <= 0 || maxParkNanos < minParkNanos) {
                throw new IllegalArgumentException("backoff park times need 0 < min <= max: " + minParkNanos + ", "
                        + maxParkNanos);
            }
        }
    }

    /** Validates everything that does not depend on the machine (see {@link #checkProcessors(int)}). */
    public JwarpConfig {
        requireNonNull("threadingMode", threadingMode);
        requireNonNull("idleStrategy", idleStrategy);
        requireNonNull("backoff", backoff);
        requireNonNull("cpuList", cpuList);
        requireNonNull("rss", rss);
        requireNonNull("socketIo", socketIo);
        requireNonNull("clock", clock);
        if (numa && threadingMode != ThreadingMode.DEDICATED) {
            throw new IllegalArgumentException("NUMA placement pins engine threads of their own: it needs DEDICATED"
                    + " mode, not " + threadingMode);
        }
        if (engineThreads < 1 || engineThreads > MAX_ENGINE_THREADS) {
            throw new IllegalArgumentException("engineThreads must be in 1.." + MAX_ENGINE_THREADS + ": " + engineThreads);
        }
        if (threadingMode != ThreadingMode.DEDICATED && engineThreads != 1) {
            throw new IllegalArgumentException(threadingMode + " mode runs one engine duty cycle on the application's"
                    + " thread; engineThreads must be 1, not " + engineThreads);
        }
        if (threadingMode == ThreadingMode.INVOKER && !cpuList.isEmpty()) {
            throw new IllegalArgumentException("INVOKER mode runs the engine on the application's thread,"
                    + " so there is nothing to pin; cpuList must be empty: " + cpuList);
        }
        if (threadingMode == ThreadingMode.HYBRID && cpuList.size() > 1) {
            throw new IllegalArgumentException("HYBRID mode has one standby engine thread to pin; cpuList names "
                    + cpuList.size() + " CPUs: " + cpuList);
        }
        cpuList = List.copyOf(cpuList);
        if (new HashSet<>(cpuList).size() != cpuList.size()) {
            throw new IllegalArgumentException("cpuList repeats a CPU: " + cpuList);
        }
        for (int cpu : cpuList) {
            if (cpu < 0) {
                throw new IllegalArgumentException("cpuList holds a negative CPU id: " + cpuList);
            }
        }
        if (!cpuList.isEmpty() && cpuList.size() < engineThreads) {
            throw new IllegalArgumentException("cpuList names " + cpuList.size() + " CPUs for " + engineThreads
                    + " engine threads; give one CPU per thread or none");
        }
        if (runBeforeSleepNanos < 0 || runBeforeSleepNanos > MAX_RUN_BEFORE_SLEEP_NANOS) {
            throw new IllegalArgumentException("runBeforeSleepNanos must be 0.." + MAX_RUN_BEFORE_SLEEP_NANOS + " ns: "
                    + runBeforeSleepNanos);
        }
        if (readinessFrom < 1) {
            throw new IllegalArgumentException("readinessFrom must be at least 1 connection: " + readinessFrom);
        }
        if (rxDirectFrom < 1) {
            throw new IllegalArgumentException("rxDirectFrom must be at least 1 byte (NEVER_DIRECT: always stage): "
                    + rxDirectFrom);
        }
    }

    private static void requireNonNull(String name, Object v) {
        if (v == null) {
            throw new IllegalArgumentException(name + " must not be null");
        }
    }

    /** {@return {@value JwarpProvider#NAME}: this configuration is the jwarp provider's} */
    @Override
    public String providerName() {
        return JwarpProvider.NAME;
    }

    /**
     * The jwarp settings of {@code config}: its provider configuration, or {@link #defaults()} if it
     * has none.
     *
     * @param config a device configuration
     * @return the engine's settings
     * @throws IllegalArgumentException if the provider configuration is another provider's
     */
    public static JwarpConfig of(DeviceConfig config) {
        ProviderConfig own = config.providerConfig();
        if (own == null) {
            return defaults();
        }
        if (own instanceof JwarpConfig j) {
            return j;
        }
        throw new IllegalArgumentException("the " + JwarpProvider.NAME + " provider takes a JwarpConfig, not a "
                + own.getClass().getName() + " (provider '" + own.providerName() + "')");
    }

    /** {@return the number of engine threads that busy-spin when idle: {@code engineThreads} for DEDICATED + SPIN, else 0} */
    public int spinningThreads() {
        return threadingMode == ThreadingMode.DEDICATED && idleStrategy == IdleStrategyKind.SPIN ? engineThreads : 0;
    }

    /**
     * The machine-dependent rule: never more spinning engine threads than processors.
     *
     * @throws IllegalArgumentException if {@link #spinningThreads()} exceeds {@code availableProcessors}
     * @param availableProcessors the processors the process may use
     * @return this configuration
     */
    public JwarpConfig checkProcessors(int availableProcessors) {
        if (spinningThreads() > availableProcessors) {
            throw new IllegalArgumentException(spinningThreads() + " busy-spinning engine threads on "
                    + availableProcessors + " processors: spinners sharing a core cost a scheduler tick per"
                    + " hand-off; use fewer engine threads or the BACKOFF or PARK idle strategy");
        }
        return this;
    }

    /**
     * The threading mode the defaults choose for a process that may use {@code processors} CPUs
     * (see the class comment).
     *
     * @param processors the processors the process may use
     * @return DEDICATED from {@value #DEDICATED_FROM_PROCESSORS} processors, else HYBRID
     */
    public static ThreadingMode defaultThreadingMode(int processors) {
        return processors >= DEDICATED_FROM_PROCESSORS ? ThreadingMode.DEDICATED : ThreadingMode.HYBRID;
    }

    /**
     * Why {@link #defaultThreadingMode(int)} chose what it did, in one line for headers and logs.
     *
     * @param processors the processors the process may use
     * @return the reason
     */
    public static String defaultThreadingReason(int processors) {
        return defaultThreadingMode(processors) == ThreadingMode.DEDICATED
                ? processors + " CPUs: an engine thread of its own beside a polling application thread"
                : processors + " CPU" + (processors == 1 ? "" : "s") + " (dedicated needs " + DEDICATED_FROM_PROCESSORS
                        + "+): the polling application thread runs the engine, a standby engine thread sleeps in its"
                        + " selector and takes over when it stops";
    }

    /** {@return the defaults for this machine ({@code builder().build()})} */
    public static JwarpConfig defaults() {
        return builder().build();
    }

    /** {@return a builder with the defaults of the class comment} */
    public static JwarpConfigBuilder builder() {
        return new JwarpConfigBuilder();
    }

    /** {@return a builder starting from this configuration} */
    public JwarpConfigBuilder toBuilder() {
        return new JwarpConfigBuilder(this);
    }
}
