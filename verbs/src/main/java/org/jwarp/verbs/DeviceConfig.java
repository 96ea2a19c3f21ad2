package org.jwarp.verbs;

import java.time.Duration;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Everything a device is opened with: the provider's configuration (which provider, who runs the
 * engine and how it idles, the socket I/O layer, MPA negotiation, limits, CPU pinning, RSS), passed
 * to {@link RdmaDevice#open(DeviceConfig)}. OFED has no counterpart: there a driver's settings are
 * module parameters. Immutable; build it with {@link #builder()}, which fills in defaults from the
 * number of available processors, or take {@link #defaults()}.
 *
 * <h2>Defaults and why</h2>
 * <ul>
 *   <li><b>Threading</b>: with 4 or more processors available to the process (its CPU affinity,
 *       {@code taskset}, included), {@link ThreadingMode#DEDICATED} with one engine thread (the
 *       offload-engine emulation of seed 001); with fewer, {@link ThreadingMode#HYBRID}. A
 *       dedicated engine thread beside a polling application thread makes two busy threads per
 *       process, and two such processes on 2 CPUs hand over only at scheduler ticks (about 4 ms per
 *       hop); in hybrid mode the polling application thread runs the engine and a standby engine
 *       thread, asleep in its selector, keeps the engine going whenever no application thread
 *       does.</li>
 *   <li><b>Idle strategy</b>: {@link IdleStrategyKind#ADAPTIVE} always: an idle engine thread spins
 *       for {@link #ADAPTIVE_SPIN_NANOS} and then sleeps in its selector, from which a doorbell or a
 *       socket becoming readable wakes it at once. A default never spins without end: the rule is
 *       never more spinning threads than processors, and the application's own polling thread may
 *       already be a spinner. {@link IdleStrategyKind#SPIN} is an explicit choice, and
 *       {@link Builder#build()} refuses more spinning engine threads than processors.</li>
 *   <li><b>MPA</b>: revision 2 (RFC 6581) with peer-to-peer mode and an RTR (Write or Read, as cxgb4,
 *       irdma and siw can answer), CRC {@link CrcPolicy#PREFERRED} (we send C=1, RFC 5044 §4.4's
 *       "use CRC" default), markers {@link MarkerPolicy#NEVER_REQUEST} (siw rejects M=1; we still
 *       generate markers for a peer that asks, as RFC 5044 §4.3 requires).</li>
 *   <li><b>RFC 7306</b> immediate data and atomics enabled: they are posted only when the application
 *       asks for them, and siw does not know them (see {@link WrOpcode}).</li>
 * </ul>
 *
 * @param providerName   the {@link org.jwarp.verbs.spi.RdmaProvider#name()} to open, or {@code null}
 *                       for the only (or first) provider on the class path
 * @param threadingMode  who runs the engine's duty cycle
 * @param engineThreads  engine threads in DEDICATED mode (1..256); must be 1 in INVOKER and HYBRID modes
 * @param idleStrategy   what an engine thread (or an INVOKER-mode wait) does when there is no work
 * @param backoff        parameters of {@link IdleStrategyKind#BACKOFF}
 * @param crcPolicy      MPA CRC negotiation (RFC 5044 §4.4, §7.1.1)
 * @param markerPolicy   MPA marker negotiation (RFC 5044 §4.2, §4.3)
 * @param mpaRevision    1 (RFC 5044) or 2 (RFC 6581 enhanced setup, IRD/ORD negotiation, RTR)
 * @param peerToPeer     RFC 6581 peer-to-peer mode (A bit): the initiator sends an RTR; revision 2 only
 * @param rtrKinds       RTR messages we offer as initiator and accept as responder; non-empty with peerToPeer
 * @param mpaTimeouts    MPA setup timers
 * @param limits         resource limits
 * @param rfc7306        whether RDMA_WRITE_WITH_IMM and the atomics may be posted
 * @param cpuList        CPUs to pin engine thread {@code i} to ({@code cpuList.get(i)}); empty = no pinning
 * @param rss            how connections are spread over the engine threads, and rebalanced
 * @param numa           DEDICATED mode without a cpuList: pin the engine threads over the NUMA nodes
 *                       (one node after another) and prefer each thread's node for its connections'
 *                       buffers (seed 004)
 * @param socketIo       how the engine moves a running connection's bytes to and from its TCP socket
 * @param peerTimeout    how long a connection's peer may stay silent while data waits for its
 *                       acknowledgement, or while the connection is idle, before the connection is
 *                       lost (a peer whose host died sends no FIN or RST); {@link Duration#ZERO}
 *                       leaves it to TCP's retransmission limit
 */
public record DeviceConfig(String providerName, ThreadingMode threadingMode, int engineThreads,
                           IdleStrategyKind idleStrategy, Backoff backoff, CrcPolicy crcPolicy,
                           MarkerPolicy markerPolicy, int mpaRevision, boolean peerToPeer, Set<RtrKind> rtrKinds,
                           MpaTimeouts mpaTimeouts, DeviceLimits limits, boolean rfc7306, List<Integer> cpuList,
                           RssConfig rss, boolean numa, SocketIo socketIo, Duration peerTimeout) {

    /** The default {@link #peerTimeout()}: a vanished peer is noticed within a minute. */
    public static final Duration DEFAULT_PEER_TIMEOUT = Duration.ofSeconds(60);

    /**
     * The socket I/O layer under the engine: the calls that move a running connection's FPDUs
     * between memory and its kernel TCP socket (the MPA exchange always uses NIO). Every device
     * reports the layer it chose ({@code RdmaDevice#describe()}), and the benchmarks print it.
     */
    public enum SocketIo {
        /**
         * {@link #SYSCALLS} where the JVM lets jwarp see a socket's file descriptor, else {@link #NIO}
         * with one line saying why. The default, unless the system property {@value #PROPERTY} names
         * another.
         */
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
        URING_SQPOLL;

        /** {@return the layer's name on the command line: auto, nio, syscalls, uring, uring-sqpoll} */
        public String option() {
            return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        }

        /** The system property that sets the default layer (nio, syscalls, uring, uring-sqpoll, auto). */
        public static final String PROPERTY = "jwarp.socketIo";

        /** {@return the layer the system property {@value #PROPERTY} names, or AUTO} */
        public static SocketIo fromProperty() {
            String v = System.getProperty(PROPERTY);
            return v == null || v.isBlank() ? AUTO : parse(v);
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
                    + "': use auto, syscalls, uring, uring-sqpoll or nio");
        }
    }

    /** Who runs the engine (the soft RNIC's duty cycle). */
    public enum ThreadingMode {
        /**
         * Engine threads of their own, each owning a share of the queue pairs and their sockets; the
         * application's post calls ring a doorbell and return (docs/design.md, seed 001).
         */
        DEDICATED,
        /**
         * No engine thread: the thread that polls a completion queue, posts, waits on a completion
         * channel or calls {@link RdmaDevice#invoke()} runs the engine's duty cycle, as Aeron's
         * invoker mode does. For machines with few cores. The application must call into the
         * device regularly, or nothing progresses (no Read Responses, no CM events).
         */
        INVOKER,
        /**
         * {@link #INVOKER} while an application thread calls into the device (polls, posts), and a
         * standby engine thread, asleep in its selector, that runs the duty cycle whenever none has
         * for a while (16 to 64 ms), or at once when an application thread blocks in a
         * wait ({@link CompletionChannel#await}, {@link CmEventQueue#poll(java.time.Duration, RdmaDevice)}).
         * One busy thread per process where the application polls, and progress without calling in
         * (Read Responses, CM events) where it does not: the default on machines with fewer than 4
         * processors.
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
         * Spin for {@link DeviceConfig#ADAPTIVE_SPIN_NANOS} after the last work, then park as
         * {@link #PARK} does: a burst of traffic costs no wake-up, an idle engine no CPU.
         */
        ADAPTIVE
    }

    /** How long an {@link IdleStrategyKind#ADAPTIVE} engine thread spins before it sleeps. */
    public static final long ADAPTIVE_SPIN_NANOS = 50_000;

    /** Processors from which {@link ThreadingMode#DEDICATED} is the default (fewer: {@link ThreadingMode#HYBRID}). */
    public static final int DEDICATED_FROM_PROCESSORS = 4;

    /**
     * MPA CRC negotiation. On the wire, CRC is on for a connection if either MPA frame has C=1
     * (RFC 5044 §7.1.1), so a peer can always turn it on.
     */
    public enum CrcPolicy {
        /** Send C=1, and refuse a peer whose frame has C=0 (initiator: abort; responder: reject). */
        REQUIRED,
        /** Send C=1 (so CRC is on), accept any peer: RFC 5044 §4.4's default. */
        PREFERRED,
        /** Send C=0; CRC is still on when the peer sets C=1. Only where something else guarantees integrity. */
        OFF
    }

    /** MPA marker negotiation; the M bit asks the peer to put markers in what it sends us. */
    public enum MarkerPolicy {
        /** Send M=0. Markers are still generated towards a peer that sends M=1 (RFC 5044 §4.3). */
        NEVER_REQUEST,
        /** Send M=1: receive with markers. siw rejects such a connection. */
        REQUEST
    }

    /** RFC 6581 §9.2 RTR message kinds. */
    public enum RtrKind {
        /** Zero-length Send (B bit): consumes a receive buffer at the responder. */
        SEND,
        /** Zero-length RDMA Write (C bit): siw's choice. */
        WRITE,
        /** Zero-length RDMA Read (D bit): cxgb4's only option; needs ORD/IRD of at least 1. */
        READ
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

    /** Most engine threads a device may have. */
    public static final int MAX_ENGINE_THREADS = 256;

    /** Validates everything that does not depend on the machine (see {@link #checkProcessors(int)}). */
    public DeviceConfig {
        if (providerName != null && providerName.isBlank()) {
            throw new IllegalArgumentException("providerName must be null (any provider) or non-blank");
        }
        requireNonNull("threadingMode", threadingMode);
        requireNonNull("idleStrategy", idleStrategy);
        requireNonNull("backoff", backoff);
        requireNonNull("crcPolicy", crcPolicy);
        requireNonNull("markerPolicy", markerPolicy);
        requireNonNull("mpaTimeouts", mpaTimeouts);
        requireNonNull("limits", limits);
        requireNonNull("rtrKinds", rtrKinds);
        requireNonNull("cpuList", cpuList);
        requireNonNull("rss", rss);
        requireNonNull("socketIo", socketIo);
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
        if (threadingMode != ThreadingMode.DEDICATED && !cpuList.isEmpty()) {
            throw new IllegalArgumentException(threadingMode + " mode runs the engine on the application's thread,"
                    + " so there is nothing to pin; cpuList must be empty: " + cpuList);
        }
        if (mpaRevision != 1 && mpaRevision != 2) {
            throw new IllegalArgumentException("mpaRevision must be 1 (RFC 5044) or 2 (RFC 6581): " + mpaRevision);
        }
        if (peerToPeer && mpaRevision != 2) {
            throw new IllegalArgumentException("peer-to-peer mode and the RTR message need MPA revision 2 (RFC 6581)");
        }
        if (peerToPeer && rtrKinds.isEmpty()) {
            throw new IllegalArgumentException("peer-to-peer mode needs at least one RTR kind (RFC 6581 §9.2)");
        }
        rtrKinds = rtrKinds.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(rtrKinds));
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
    }

    private static void requireNonNull(String name, Object v) {
        if (v == null) {
            throw new IllegalArgumentException(name + " must not be null");
        }
    }

    /**
     * Number of engine threads that busy-spin when idle: {@code engineThreads} for DEDICATED + SPIN, else 0.
     *
     * @return the number of busy-spinning engine threads
     */
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
    public DeviceConfig checkProcessors(int availableProcessors) {
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
    public static DeviceConfig defaults() {
        return builder().build();
    }

    /** {@return a builder with the defaults of the class comment} */
    public static Builder builder() {
        return new Builder();
    }

    /** {@return a builder starting from this configuration} */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.providerName = providerName;
        b.threadingMode = threadingMode;
        b.engineThreads = engineThreads;
        b.idleStrategy = idleStrategy;
        b.backoff = backoff;
        b.crcPolicy = crcPolicy;
        b.markerPolicy = markerPolicy;
        b.mpaRevision = mpaRevision;
        b.peerToPeer = peerToPeer;
        b.rtrKinds = rtrKinds;
        b.mpaTimeouts = mpaTimeouts;
        b.limits = limits;
        b.rfc7306 = rfc7306;
        b.cpuList = cpuList;
        b.rss = rss;
        b.numa = numa;
        b.socketIo = socketIo;
        b.peerTimeout = peerTimeout;
        return b;
    }

    /**
     * Builder with the defaults of the class comment. Unset threading mode and engine-thread count
     * are derived from {@link #availableProcessors(int)} (by default
     * {@link Runtime#availableProcessors()}) when {@link #build()} runs. Not thread-safe.
     */
    public static final class Builder {
        private String providerName;
        private ThreadingMode threadingMode;
        private int engineThreads;
        private IdleStrategyKind idleStrategy = IdleStrategyKind.ADAPTIVE;
        private Backoff backoff = Backoff.DEFAULT;
        private CrcPolicy crcPolicy = CrcPolicy.PREFERRED;
        private MarkerPolicy markerPolicy = MarkerPolicy.NEVER_REQUEST;
        private int mpaRevision = 2;
        private boolean peerToPeer = true;
        private Set<RtrKind> rtrKinds = EnumSet.of(RtrKind.WRITE, RtrKind.READ);
        private MpaTimeouts mpaTimeouts = MpaTimeouts.DEFAULT;
        private DeviceLimits limits = DeviceLimits.DEFAULT;
        private boolean rfc7306 = true;
        private List<Integer> cpuList = List.of();
        private RssConfig rss = RssConfig.DEFAULT;
        private boolean numa;
        private SocketIo socketIo;
        private Duration peerTimeout = DEFAULT_PEER_TIMEOUT;
        private int availableProcessors = -1;

        private Builder() {
        }

        /**
         * Sets {@link DeviceConfig#providerName()}.
         * @param providerName the provider to open, or {@code null} for the only (or first) one
         * @return this builder
         */
        public Builder providerName(String providerName) {
            this.providerName = providerName;
            return this;
        }

        /**
         * Sets {@link DeviceConfig#threadingMode()}; unset, it follows the processor count.
         * @param threadingMode who runs the engine
         * @return this builder
         */
        public Builder threadingMode(ThreadingMode threadingMode) {
            this.threadingMode = threadingMode;
            return this;
        }

        /**
         * Sets {@link DeviceConfig#engineThreads()}; unset, 1.
         * @param engineThreads engine threads in DEDICATED mode
         * @return this builder
         */
        public Builder engineThreads(int engineThreads) {
            this.engineThreads = engineThreads;
            return this;
        }

        /**
         * Sets {@link DeviceConfig#idleStrategy()}.
         * @param idleStrategy what an idle engine thread does
         * @return this builder
         */
        public Builder idleStrategy(IdleStrategyKind idleStrategy) {
            this.idleStrategy = idleStrategy;
            return this;
        }

        /**
         * Sets {@link DeviceConfig#backoff()}.
         * @param backoff the parameters of BACKOFF
         * @return this builder
         */
        public Builder backoff(Backoff backoff) {
            this.backoff = backoff;
            return this;
        }

        /**
         * Sets {@link DeviceConfig#crcPolicy()}.
         * @param crcPolicy the MPA CRC negotiation
         * @return this builder
         */
        public Builder crcPolicy(CrcPolicy crcPolicy) {
            this.crcPolicy = crcPolicy;
            return this;
        }

        /**
         * Sets {@link DeviceConfig#markerPolicy()}.
         * @param markerPolicy the MPA marker negotiation
         * @return this builder
         */
        public Builder markerPolicy(MarkerPolicy markerPolicy) {
            this.markerPolicy = markerPolicy;
            return this;
        }

        /**
         * MPA revision 1 or 2; revision 1 also turns peer-to-peer mode off.
         *
         * @param mpaRevision 1 or 2
         * @return this builder
         */
        public Builder mpaRevision(int mpaRevision) {
            this.mpaRevision = mpaRevision;
            if (mpaRevision == 1) {
                this.peerToPeer = false;
            }
            return this;
        }

        /**
         * Sets {@link DeviceConfig#peerToPeer()}.
         * @param peerToPeer whether to use RFC 6581 peer-to-peer mode
         * @return this builder
         */
        public Builder peerToPeer(boolean peerToPeer) {
            this.peerToPeer = peerToPeer;
            return this;
        }

        /**
         * Sets {@link DeviceConfig#rtrKinds()}.
         * @param rtrKinds the RTR messages offered and accepted
         * @return this builder
         */
        public Builder rtrKinds(Set<RtrKind> rtrKinds) {
            this.rtrKinds = rtrKinds;
            return this;
        }

        /**
         * Sets {@link DeviceConfig#mpaTimeouts()}.
         * @param mpaTimeouts the MPA setup timers
         * @return this builder
         */
        public Builder mpaTimeouts(MpaTimeouts mpaTimeouts) {
            this.mpaTimeouts = mpaTimeouts;
            return this;
        }

        /**
         * Sets {@link DeviceConfig#limits()}.
         * @param limits the resource limits
         * @return this builder
         */
        public Builder limits(DeviceLimits limits) {
            this.limits = limits;
            return this;
        }

        /**
         * Sets {@link DeviceConfig#rfc7306()}.
         * @param rfc7306 whether immediate data and atomics may be posted
         * @return this builder
         */
        public Builder rfc7306(boolean rfc7306) {
            this.rfc7306 = rfc7306;
            return this;
        }

        /**
         * Sets {@link DeviceConfig#cpuList()}.
         * @param cpuList the CPU of each engine thread, or empty for no pinning
         * @return this builder
         */
        public Builder cpuList(List<Integer> cpuList) {
            this.cpuList = cpuList;
            return this;
        }

        /**
         * Sets {@link DeviceConfig#rss()}.
         * @param rss how connections are spread over the engine threads
         * @return this builder
         */
        public Builder rss(RssConfig rss) {
            this.rss = rss;
            return this;
        }

        /**
         * Sets {@link DeviceConfig#numa()}.
         * @param numa whether to place engine threads and buffers over the NUMA nodes
         * @return this builder
         */
        public Builder numa(boolean numa) {
            this.numa = numa;
            return this;
        }

        /**
         * The socket I/O layer; unset: {@link SocketIo#fromProperty()}.
         *
         * @param socketIo the layer
         * @return this builder
         */
        public Builder socketIo(SocketIo socketIo) {
            this.socketIo = socketIo;
            return this;
        }

        /**
         * How long a peer may stay silent before its connection is lost
         * ({@link DeviceConfig#peerTimeout()}): at least 3 s, or {@link Duration#ZERO} for TCP's own limit.
         *
         * @param peerTimeout the bound (default {@link DeviceConfig#DEFAULT_PEER_TIMEOUT})
         * @return this builder
         */
        public Builder peerTimeout(Duration peerTimeout) {
            if (peerTimeout.isNegative() || (!peerTimeout.isZero() && peerTimeout.toMillis() < 3000)) {
                throw new IllegalArgumentException("peerTimeout must be 0 (off) or at least 3 s: " + peerTimeout);
            }
            this.peerTimeout = peerTimeout;
            return this;
        }

        /**
         * The processor count the defaults and the spinner rule use, instead of
         * {@link Runtime#availableProcessors()} (tests; containers whose quota the JVM misreads).
         *
         * @param availableProcessors the processor count, at least 1
         * @return this builder
         */
        public Builder availableProcessors(int availableProcessors) {
            if (availableProcessors < 1) {
                throw new IllegalArgumentException("availableProcessors must be >= 1: " + availableProcessors);
            }
            this.availableProcessors = availableProcessors;
            return this;
        }

        /**
         * Derives the unset defaults and validates.
         *
         * @throws IllegalArgumentException naming the first invalid setting
         * @return the configuration
         */
        public DeviceConfig build() {
            int cores = availableProcessors > 0 ? availableProcessors : Runtime.getRuntime().availableProcessors();
            ThreadingMode mode = threadingMode != null ? threadingMode
                    : defaultThreadingMode(cores);
            int threads = engineThreads != 0 ? engineThreads : 1;
            return new DeviceConfig(providerName, mode, threads, idleStrategy, backoff, crcPolicy, markerPolicy,
                    mpaRevision, peerToPeer, rtrKinds, mpaTimeouts, limits, rfc7306, cpuList, rss, numa,
                    socketIo != null ? socketIo : SocketIo.fromProperty(), peerTimeout).checkProcessors(cores);
        }
    }
}
