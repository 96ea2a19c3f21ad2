package org.jwarp.bench.report;

import java.io.PrintStream;
import java.util.Locale;

/**
 * A progress bar on stderr for long runs (sweeps with {@code -a}, runs with {@code -D}): drawn
 * only when stderr is a terminal ({@link System#console()} says so), only after the run has taken
 * {@link #AFTER_NANOS}, redrawn a few times a second by a daemon thread that sleeps in between, and
 * erased before anything else is printed. Updates from the run are two volatile writes.
 */
public final class Progress implements AutoCloseable {

    static final long AFTER_NANOS = 2_000_000_000L;
    private static final int WIDTH = 30;

    private final PrintStream err;
    private final Thread painter;
    private final long start = System.nanoTime();
    private volatile int index;
    private volatile int count = 1;
    private volatile int size;
    private volatile long sizeStart = System.nanoTime();
    private volatile long sizeNanos;
    private volatile boolean closed;
    private boolean drawn;

    private Progress(PrintStream err) {
        this.err = err;
        this.painter = Thread.ofPlatform().daemon().name("jwarp-progress").unstarted(this::paint);
    }

    /** A bar on stderr if it is a terminal, else one that draws nothing. */
    public static Progress forTerminal() {
        java.io.Console c = System.console();
        Progress p = new Progress(System.err);
        if (c != null && c.isTerminal()) {
            p.painter.start();
        }
        return p;
    }

    /** Size {@code index} of {@code count} starts; {@code nanos} > 0 if it lasts that long (-D). */
    public void size(int index, int count, int size, long nanos) {
        this.count = count;
        this.size = size;
        this.sizeNanos = nanos;
        this.sizeStart = System.nanoTime();
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
                double within = sizeNanos > 0 ? Math.min(1, (System.nanoTime() - sizeStart) / (double) sizeNanos) : 0;
                double f = Math.min(1, (index + within) / count);
                int filled = (int) Math.round(f * WIDTH);
                err.print(String.format(Locale.ROOT, "\r[%s%s] %3.0f%%  size %d of %d (%d bytes)  %.0f s ",
                        "#".repeat(filled), ".".repeat(WIDTH - filled), f * 100, index + 1, count, size,
                        (System.nanoTime() - start) / 1e9));
                err.flush();
                drawn = true;
            }
        }
    }

    /** Erases the bar (before a row or the footer is printed, and at the end). */
    public synchronized void clear() {
        if (drawn) {
            err.print("\r" + " ".repeat(80) + "\r");
            err.flush();
            drawn = false;
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
