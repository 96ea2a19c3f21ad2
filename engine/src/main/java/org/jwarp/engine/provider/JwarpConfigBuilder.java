package org.jwarp.engine.provider;

import java.time.Duration;
import java.util.List;
import org.jwarp.engine.provider.JwarpConfig.Backoff;
import org.jwarp.engine.provider.JwarpConfig.IdleStrategyKind;
import org.jwarp.engine.provider.JwarpConfig.SocketIo;
import org.jwarp.engine.provider.JwarpConfig.ThreadingMode;
import org.jwarp.engine.rss.RssConfig;
import org.jwarp.sys.NanoClock;

/**
 * Builds a {@link JwarpConfig} with the defaults of its class comment. An unset threading mode is
 * derived from {@link #availableProcessors(int)} (by default {@link Runtime#availableProcessors()})
 * when {@link #build()} runs, which also applies the spinner rule
 * ({@link JwarpConfig#checkProcessors(int)}) with that count. Not thread-safe.
 */
public final class JwarpConfigBuilder {
    private ThreadingMode threadingMode;
    private int engineThreads = 1;
    private IdleStrategyKind idleStrategy = IdleStrategyKind.ADAPTIVE;
    private Backoff backoff = Backoff.DEFAULT;
    private List<Integer> cpuList = List.of();
    private RssConfig rss = RssConfig.DEFAULT;
    private boolean numa;
    private SocketIo socketIo = SocketIo.AUTO;
    private int readinessFrom = JwarpConfig.DEFAULT_READINESS_FROM;
    private long rxDirectFrom = JwarpConfig.DEFAULT_RX_DIRECT_FROM;
    private NanoClock clock = NanoClock.SYSTEM;
    private long runBeforeSleepNanos = JwarpConfig.DEFAULT_RUN_BEFORE_SLEEP_NANOS;
    private boolean smallMessagePath = true;
    private int availableProcessors = -1;

    JwarpConfigBuilder() {
    }

    JwarpConfigBuilder(JwarpConfig c) {
        threadingMode = c.threadingMode();
        engineThreads = c.engineThreads();
        idleStrategy = c.idleStrategy();
        backoff = c.backoff();
        cpuList = c.cpuList();
        rss = c.rss();
        numa = c.numa();
        socketIo = c.socketIo();
        readinessFrom = c.readinessFrom();
        rxDirectFrom = c.rxDirectFrom();
        clock = c.clock();
        runBeforeSleepNanos = c.runBeforeSleepNanos();
        smallMessagePath = c.smallMessagePath();
    }

    /**
     * Sets {@link JwarpConfig#threadingMode()}; unset, it follows the processor count.
     * @param threadingMode who runs the engine
     * @return this builder
     */
    public JwarpConfigBuilder threadingMode(ThreadingMode threadingMode) {
        this.threadingMode = threadingMode;
        return this;
    }

    /**
     * Sets {@link JwarpConfig#engineThreads()} (default 1).
     * @param engineThreads engine threads in DEDICATED mode
     * @return this builder
     */
    public JwarpConfigBuilder engineThreads(int engineThreads) {
        this.engineThreads = engineThreads;
        return this;
    }

    /**
     * Sets {@link JwarpConfig#idleStrategy()} (default ADAPTIVE).
     * @param idleStrategy what an idle engine thread does
     * @return this builder
     */
    public JwarpConfigBuilder idleStrategy(IdleStrategyKind idleStrategy) {
        this.idleStrategy = idleStrategy;
        return this;
    }

    /**
     * Sets {@link JwarpConfig#backoff()} (default {@link Backoff#DEFAULT}).
     * @param backoff the parameters of BACKOFF
     * @return this builder
     */
    public JwarpConfigBuilder backoff(Backoff backoff) {
        this.backoff = backoff;
        return this;
    }

    /**
     * Sets {@link JwarpConfig#cpuList()} (default: no pinning).
     * @param cpuList the CPU of each engine thread, or empty for no pinning
     * @return this builder
     */
    public JwarpConfigBuilder cpuList(List<Integer> cpuList) {
        this.cpuList = cpuList;
        return this;
    }

    /**
     * Sets {@link JwarpConfig#rss()} (default {@link RssConfig#DEFAULT}).
     * @param rss how connections are spread over the engine threads
     * @return this builder
     */
    public JwarpConfigBuilder rss(RssConfig rss) {
        this.rss = rss;
        return this;
    }

    /**
     * Sets {@link JwarpConfig#numa()} (default off).
     * @param numa whether to place engine threads and buffers over the NUMA nodes
     * @return this builder
     */
    public JwarpConfigBuilder numa(boolean numa) {
        this.numa = numa;
        return this;
    }

    /**
     * Sets {@link JwarpConfig#socketIo()} (default AUTO).
     * @param socketIo the layer
     * @return this builder
     */
    public JwarpConfigBuilder socketIo(SocketIo socketIo) {
        this.socketIo = socketIo;
        return this;
    }

    /**
     * Sets {@link JwarpConfig#readinessFrom()} (default {@value JwarpConfig#DEFAULT_READINESS_FROM}).
     * @param readinessFrom connections per engine thread from which reads follow readiness
     * @return this builder
     */
    public JwarpConfigBuilder readinessFrom(int readinessFrom) {
        this.readinessFrom = readinessFrom;
        return this;
    }

    /**
     * Sets {@link JwarpConfig#rxDirectFrom()} (default {@value JwarpConfig#DEFAULT_RX_DIRECT_FROM}).
     * @param rxDirectFrom payload bytes from which a segment is read straight into its target,
     *                     or {@link JwarpConfig#NEVER_DIRECT}
     * @return this builder
     */
    public JwarpConfigBuilder rxDirectFrom(long rxDirectFrom) {
        this.rxDirectFrom = rxDirectFrom;
        return this;
    }

    /**
     * Sets {@link JwarpConfig#clock()} (default {@link NanoClock#SYSTEM}): a test's fake clock
     * drives the device's timers step by step.
     * @param clock the time the engine's rules read
     * @return this builder
     */
    public JwarpConfigBuilder clock(NanoClock clock) {
        this.clock = clock;
        return this;
    }

    /**
     * Sets {@link JwarpConfig#runBeforeSleepNanos()} (default
     * {@value JwarpConfig#DEFAULT_RUN_BEFORE_SLEEP_NANOS} ns; HYBRID mode only).
     * @param runBeforeSleep how long a thread about to sleep on the device runs the engine first
     * @return this builder
     */
    public JwarpConfigBuilder runBeforeSleep(Duration runBeforeSleep) {
        this.runBeforeSleepNanos = runBeforeSleep.toNanos();
        return this;
    }

    /**
     * Sets {@link JwarpConfig#smallMessagePath()} (default on).
     * @param smallMessagePath false: every FPDU goes the general way (for comparison and tests)
     * @return this builder
     */
    public JwarpConfigBuilder smallMessagePath(boolean smallMessagePath) {
        this.smallMessagePath = smallMessagePath;
        return this;
    }

    /**
     * The processor count the defaults and the spinner rule use, instead of
     * {@link Runtime#availableProcessors()} (tests; containers whose quota the JVM misreads).
     *
     * @param availableProcessors the processor count, at least 1
     * @return this builder
     */
    public JwarpConfigBuilder availableProcessors(int availableProcessors) {
        if (availableProcessors < 1) {
            throw new IllegalArgumentException("availableProcessors must be >= 1: " + availableProcessors);
        }
        this.availableProcessors = availableProcessors;
        return this;
    }

    /**
     * Derives the unset threading mode and validates, the spinner rule included.
     *
     * @throws IllegalArgumentException naming the first invalid setting
     * @return the configuration
     */
    public JwarpConfig build() {
        int cores = availableProcessors > 0 ? availableProcessors : Runtime.getRuntime().availableProcessors();
        ThreadingMode mode = threadingMode != null ? threadingMode : JwarpConfig.defaultThreadingMode(cores);
        return new JwarpConfig(mode, engineThreads, idleStrategy, backoff, cpuList, rss, numa, socketIo,
                readinessFrom, rxDirectFrom, clock, runBeforeSleepNanos, smallMessagePath).checkProcessors(cores);
    }
}
