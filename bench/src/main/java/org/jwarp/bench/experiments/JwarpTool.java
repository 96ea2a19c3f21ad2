package org.jwarp.bench.experiments;

import java.io.IOException;
import java.util.List;
import org.jwarp.bench.report.PerfDocument;

/**
 * The {@code jwarp} command as the experiments run it: the perf tests ({@code jwarp write-lat},
 * {@code write-bw}...) in a process of their own, as a user runs them, or in this process. The
 * command line is the CLI's, which hands this to every run ({@link ExperimentRun#jwarp}).
 */
public interface JwarpTool {

    /** What a perf client prints on stderr with {@code --mark} when a size's measured run starts. */
    String MEASURING = "jwarp: measuring size ";

    /** What a perf client prints on stderr with {@code --mark} when a size's row is in. */
    String MEASURED = "jwarp: measured size ";

    /** The main class of {@code jwarp}, which a process of its own runs with this JVM's class path. */
    String mainClass();

    /**
     * {@code jwarp ARGS} in this process, a perf test with {@code --json}: its document, which says
     * the data was verified.
     *
     * @throws IOException with what it printed, if it failed or was not verified
     */
    PerfDocument runHere(List<String> args) throws IOException;
}
