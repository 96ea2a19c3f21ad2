package org.jwarp.bench.experiments;

import java.io.PrintWriter;
import org.jwarp.bench.report.Progress;

/**
 * An experiment's progress while it runs: each measured point's line on the command's output, and
 * on a terminal a bar (stderr) with the point under way, k of n, the time so far and an estimate of
 * the time left. Nothing of the bar goes to a file or a pipe ({@link Progress#forTerminal()}).
 */
public final class ExperimentProgress implements AutoCloseable {

    private final Progress bar = Progress.forTerminal();
    private final PrintWriter out;
    private final int total;
    private int done;

    /** {@code total}: the points the experiment will measure. */
    public ExperimentProgress(PrintWriter out, int total) {
        this.out = out;
        this.total = Math.max(1, total);
        next();
    }

    /** A point is measured: its line is printed (the bar erased first) and the bar moves to the next one. */
    public void point(String line) {
        bar.clear();
        out.println(line);
        out.flush();
        done = Math.min(done + 1, total);
        next();
    }

    private void next() {
        bar.step(done, total, "point " + Math.min(done + 1, total) + " of " + total, 0);
    }

    @Override
    public void close() {
        bar.close();
    }
}
