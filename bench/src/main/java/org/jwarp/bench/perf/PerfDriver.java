package org.jwarp.bench.perf;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The size-by-size protocol both sides follow over a {@link Session}'s control connection:
 *
 * <pre>
 * client                               server
 * PREPARE(size) ───────────────────►   prepare buffers, post receives
 *               ◄─────────────────── READY(size)
 * measured run (data connections)      active tests: answer/receive until the end marker
 *                                      passive tests (WRITE, READ): nothing, the engine works
 * REPORT(client) ──────────────────►
 *               ◄─────────────────── REPORT(server)    (both print the same row)
 * ... next size ...
 * BYE ─────────────────────────────►
 * </pre>
 *
 * A warm-up pass at the first size (not reported) runs first, so that the JIT has compiled the
 * data path before anything is timed. A side that fails sends ERROR with its one-line reason, so
 * the other side stops with the same line instead of waiting.
 */
public final class PerfDriver {

    /**
     * How long each warm-up pass runs, whatever {@code -n} says: the JIT compiles the data path
     * (and finishes compiling it) in the warm-up, not in the measured pass; a short count such as
     * perftest's default of 1000 round trips would otherwise time the interpreter and the
     * compiler threads.
     */
    public static final long WARMUP_NANOS = 500_000_000L;
    /**
     * Warm-up passes, each followed by the control exchange that precedes a measurement (code the
     * compiler specialised to the data path alone is recompiled for the mix in a later pass): at
     * least {@code WARMUP_MIN_PASSES}, then more until two passes in a row in which neither
     * process's JIT compiler threads ran for more than {@code WARMUP_QUIET_SHARE} of a pass, up to
     * {@code WARMUP_MAX_PASSES}. Both processes, because the server's compiler threads take the
     * same CPUs as the client's threads. The bound is generous: with busy threads on every CPU the
     * compilers get a share of one, and the data path's C2 compilations and recompilations (each
     * inlining much of the engine) keep them busy for several seconds. The system property
     * {@code jwarp.perf.warmupMaxPasses} lowers it where only the runs' behaviour matters (tests).
     */
    public static final int WARMUP_MIN_PASSES = 2;
    /** The system property that bounds the warm-up passes ({@code WARMUP_MAX_PASSES}). */
    public static final String WARMUP_PROPERTY = "jwarp.perf.warmupMaxPasses";
    public static final int WARMUP_MAX_PASSES = Math.max(WARMUP_MIN_PASSES, Integer.getInteger(WARMUP_PROPERTY, 24));
    public static final double WARMUP_QUIET_SHARE = 0.02;

    /** Longest wait for a control message the peer should send promptly. */
    public static final Duration PROMPT = Duration.ofSeconds(60);
    /** Wait for the end of a measurement of unknown length: the connection's loss ends it sooner. */
    public static final Duration LONG = Duration.ofDays(1);

    /** What the driver tells its caller. */
    public interface Listener {
        /** Size {@code index} of {@code count} starts ({@code durationNanos} > 0: it lasts that long). */
        default void sizeStarted(int index, int count, int size, long durationNanos) {
        }

        void row(ResultRow row);
    }

    private PerfDriver() {
    }

    /** Runs the client side; returns the rows (also given to {@code listener} one by one). */
    public static List<ResultRow> runClient(Session s, Listener listener) {
        try {
            Settings st = s.settings();
            CpuMeter meter = new CpuMeter(s.engineThreads());
            List<Integer> sizes = st.sizes();
            List<ResultRow> rows = new ArrayList<>();
            int first = sizes.getFirst();
            warmUp(s, first, st.iterationsFor(first), meter);
            for (int i = 0; i < sizes.size(); i++) {
                int size = sizes.get(i);
                long duration = st.durationMillis() * 1_000_000L;
                listener.sizeStarted(i, sizes.size(), size, duration);
                ResultRow row = clientPhase(s, size, false, st.iterationsFor(size), duration, meter);
                rows.add(row);
                listener.row(row);
                failIfBad(row);
            }
            s.control().send(ControlMessage.bye());
            s.control().drain();
            return rows;
        } catch (RuntimeException e) {
            tellPeer(s, e);
            throw e;
        }
    }

    /**
     * The warm-up passes at {@code size}: until the JIT of both processes has gone quiet, within
     * the pass bounds (see {@link #WARMUP_MIN_PASSES}).
     */
    private static void warmUp(Session s, int size, long iterations, CpuMeter meter) {
        double quietMillis = WARMUP_QUIET_SHARE * WARMUP_NANOS / 1e6;
        s.warmingUp(true);
        try {
            long mineBefore = SideReport.compiledMillis();
            long theirsBefore = -1;
            int quietInARow = 0;
            for (int pass = 1; pass <= WARMUP_MAX_PASSES; pass++) {
                SideReport theirs = clientExchange(s, size, true, iterations, WARMUP_NANOS, meter)[1];
                long mineNow = SideReport.compiledMillis();
                long theirsNow = theirs.compileMillis();
                boolean quiet = compiledWithin(mineBefore, mineNow, quietMillis)
                        && (theirsBefore >= 0 || theirsNow < 0) && compiledWithin(theirsBefore, theirsNow, quietMillis);
                quietInARow = quiet ? quietInARow + 1 : 0;
                if (pass >= WARMUP_MIN_PASSES && quietInARow >= 2) {
                    return;
                }
                mineBefore = mineNow;
                theirsBefore = theirsNow;
            }
        } finally {
            s.warmingUp(false);
        }
    }

    /** Whether a process compiled at most {@code quietMillis} between two readings (-1: not counted). */
    private static boolean compiledWithin(long before, long now, double quietMillis) {
        return before < 0 || now < 0 || now - before <= quietMillis;
    }

    private static ResultRow clientPhase(Session s, int size, boolean warmup, long iterations, long duration,
                                         CpuMeter meter) {
        SideReport[] reports = clientExchange(s, size, warmup, iterations, duration, meter);
        return ResultRow.of(s.settings(), reports[0], reports[1]);
    }

    /** One size's exchange on the client: this side's report and the server's. */
    private static SideReport[] clientExchange(Session s, int size, boolean warmup, long iterations, long duration,
                                               CpuMeter meter) {
        Control c = s.control();
        c.send(ControlMessage.prepare(size, warmup));
        s.prepare(size);
        ControlMessage ready = c.expect(ControlMessage.Type.READY, PROMPT);
        if (ready.size() != size) {
            throw new PerfException("the server prepared size " + ready.size() + " where " + size + " was asked");
        }
        SideReport mine = s.runClient(size, iterations, duration, meter);
        c.send(ControlMessage.report(mine));
        SideReport theirs = c.expect(ControlMessage.Type.REPORT, PROMPT).report();
        return new SideReport[] {mine, theirs};
    }

    /** Runs the server side until the client says BYE; returns the rows. */
    public static List<ResultRow> runServer(Session s, Listener listener) {
        try {
            Control c = s.control();
            CpuMeter meter = new CpuMeter(s.engineThreads());
            List<ResultRow> rows = new ArrayList<>();
            while (true) {
                ControlMessage m = c.receive(PROMPT);
                if (m.type() == ControlMessage.Type.BYE) {
                    return rows;
                }
                if (m.type() != ControlMessage.Type.PREPARE) {
                    throw new PerfException("the client sent " + m.type() + " where PREPARE or BYE was expected");
                }
                int size = m.size();
                if (size < 1 || size > s.settings().maxSize()) {
                    throw new PerfException("the client asked for size " + size + ", outside the agreed 1.."
                            + s.settings().maxSize());
                }
                s.warmingUp(m.warmup());
                s.prepare(size);
                c.send(ControlMessage.ready(size));
                meter.start();
                SideReport mine;
                SideReport theirs;
                if (s.serverActive()) {
                    s.runServer(size);
                    meter.stop();
                    mine = s.serverReport(size, meter, null);
                    c.send(ControlMessage.report(mine));
                    theirs = c.expect(ControlMessage.Type.REPORT, PROMPT).report();
                } else {
                    theirs = c.expect(ControlMessage.Type.REPORT, LONG).report();
                    meter.stop();
                    mine = s.serverReport(size, meter, theirs);
                    c.send(ControlMessage.report(mine));
                }
                if (!m.warmup()) {
                    ResultRow row = ResultRow.of(s.settings(), theirs, mine);
                    rows.add(row);
                    listener.row(row);
                    failIfBad(row);
                }
            }
        } catch (RuntimeException e) {
            tellPeer(s, e);
            throw e;
        }
    }

    private static void failIfBad(ResultRow row) {
        String f = row.failure();
        if (f != null) {
            throw new PerfException("data verification failed at size " + row.size() + ": " + f);
        }
    }

    /** Best effort: the peer learns why we stop (it may be gone already). */
    private static void tellPeer(Session s, RuntimeException e) {
        if (e instanceof PeerFailedException) {
            return;
        }
        try {
            s.control().send(ControlMessage.error(e.getMessage() == null ? e.toString() : e.getMessage()));
        } catch (RuntimeException ignored) {
            // the control connection is gone too: the peer sees that instead
        }
    }

    /** The peer sent ERROR: its text is the message, and nothing is sent back. */
    public static final class PeerFailedException extends PerfException {
        private static final long serialVersionUID = 1L;

        public PeerFailedException(String message) {
            super(message);
        }
    }
}
