package org.jwarp.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import org.jwarp.bench.report.HtmlReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code jwarp report DIR...}: the experiments' results as one self-contained HTML page. */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = {"Turns one or more 'jwarp experiment' output directories into one self-contained HTML page: "
                + "a summary (one line per experiment: reproduced, partly or not, and on which numbers), then per "
                + "experiment the paper's question, the verdict from the data, the paper's finding and numbers beside "
                + "ours, our plots (inline SVG), the data as tables and the run's conditions. Nothing is loaded from "
                + "elsewhere."})
final class ReportCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "DIR", description = "Result directories (e.g. results/toe-20261125-070000).")
    List<Path> dirs;

    @Option(names = "--out", paramLabel = "FILE", defaultValue = "results/report.html",
            description = "The page to write (default: ${DEFAULT-VALUE}).")
    Path out;

    @Override
    public Integer call() throws IOException {
        Set<Path> seen = new HashSet<>();
        for (Path d : dirs) {
            if (!seen.add(d.toAbsolutePath().normalize())) {
                throw new ParameterException(spec.commandLine(), d + " is given twice: give each result directory once");
            }
        }
        Path written;
        try {
            written = HtmlReport.write(dirs, out);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        spec.commandLine().getOut().println("wrote " + written + " (" + dirs.size() + " experiment"
                + (dirs.size() == 1 ? "" : "s") + ")");
        return 0;
    }
}
