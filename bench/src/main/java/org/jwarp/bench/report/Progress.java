package org.jwarp.bench.report;

import java.io.PrintStream;
import java.util.Locale;

/**
 * A progress bar on stderr for long runs (sweeps with {@code -a}, runs with {@code -D}, the
 * experiments' points): step k of n, the time so far and an estimate of the time left. Drawn only
 * when stdout and stderr are terminals ({@link System#console()} and {@code isatty(2)} say so),
 * so never into a file or a pipe; only after the run has taken {@link #AFTER_NANOS}; redrawn a few
 * times a second by a daemon thread that sleeps in between, and erased before anything else is
 * printed. Updates from the run are a few volatile writes.
 */
public final class Progress implements AutoCloseable {

    static final long AFTER_NANOS = 2_000_000_000L;
    private static final int WIDTH = 30;

    private final PrintStream err;
    private final Thread painter;
    private final long start = System.nanoTime();
    private volatile int index;
    private volatile int count = 1;
    private volatile String label = "";
    private volatile long stepStart = System.nanoTime();
    private volatile long stepNanos;
    private volatile boolean closed;
    private int drawn;

    private Progress(PrintStream err) {
        this.err = err;
        this.painter = Thread.ofPlatform().daemon().name("jwarp-progress").unstarted(this::paint);
    }

    /** A bar on stderr if stdout and stderr are terminals, else one that draws nothing. */
    public static Progress forTerminal() {
        java.io.Console c = System.console();
        Progress p = new Progress(System.err);
        if (c != null && c.isTerminal() && stderrIsTerminal()) {
            p.painter.start();
        }
        return p;
    }

    /** A bar that draws nothing (a run whose output a program reads). */
    public static Progress none() {
        return new Progress(System.err);
    }

    /** {@code isatty(2)}, through the FFM API; false where it cannot be asked. */
    private static boolean stderrIsTerminal() {
        try {
            java.lang.foreign.Linker linker = java.lang.foreign.Linker.nativeLinker();
            java.lang.invoke.MethodHandle isatty = linker.downcallHandle(linker.defaultLookup().find("isatty")
                    .orElseThrow(), java.lang.foreign.FunctionDescriptor.of(java.lang.foreign.ValueLayout.JAVA_INT,
                    java.lang.foreign.ValueLayout.JAVA_INT));
            return (int) isatty.invokeExact(2) == 1;
        } catch (Throwable t) {
            return false;
        }
    }

    /** Size {@code index} of {@code count} starts; {@code nanos} > 0 if it lasts that long (-D). */
    public void size(int index, int count, int size, long nanos) {
        step(index, count, String.format(Locale.ROOT, "size %d of %d (%d bytes)", index + 1, count, size), nanos);
    }

    /** Step {@code index} (from 0) of {@code count} starts, {@code label} saying which; {@code nanos} > 0 if it lasts that long. */
    public void step(int index, int count, String label, long nanos) {
        this.count = count;
        this.label = label;
        this.stepNanos = nanos;
        this.stepStart = System.nanoTime();
        this.index = index;
    }

    private void paint() {
        while (!closed) {
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                return;
            }
            synchronized (this) {
                if (closed || System.nanoTime() - start < AFTER_NANOS) {
                    continue;
                }
                double within = stepNanos > 0 ? Math.min(1, (System.nanoTime() - stepStart) / (double) stepNanos) : 0;
                double f = Math.min(1, (index + within) / count);
                int filled = (int) Math.round(f * WIDTH);
                double elapsed = (System.nanoTime() - start) / 1e9;
                String line = String.format(Locale.ROOT, "[%s%s] %3.0f%%  %s  %.0f s%s ", "#".repeat(filled),
                        ".".repeat(WIDTH - filled), f * 100, label, elapsed, f > 0 && f < 1
                                ? String.format(Locale.ROOT, ", about %.0f s left", elapsed * (1 - f) / f) : "");
                err.print("\r" + line + " ".repeat(Math.max(0, drawn - line.length())));
                err.flush();
                drawn = line.length();
            }
        }
    }

    /** Erases the bar (before a row or the footer is printed, and at the end). */
    public synchronized void clear() {
        if (drawn > 0) {
            err.print("\r" + " ".repeat(drawn) + "\r");
            err.flush();
            drawn = 0;
        }
    }

    @Override
    public void close() {
        synchronized (this) {
            closed = true;
        }
        painter.interrupt();
        clear();
    }
}
