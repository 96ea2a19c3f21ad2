package org.jwarp.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.jwarp.bench.experiments.Experiments;
import org.jwarp.bench.report.HtmlReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/** {@code jwarp experiment all}: every experiment in turn, then the report of them all. */
@Command(name = "all", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Runs every experiment in turn ('jwarp experiment list' names them), each into DIR/NAME, with "
                + "its own defaults (--quick passed on), then writes the report of those that succeeded to "
                + "DIR/report.html, as 'jwarp report' does. An experiment that fails is reported and the others still "
                + "run; the exit status is then 1.",
                "Quick: each experiment's quick plan (each under 2 minutes)."})
final class AllExperimentsCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--quick", description = "Each experiment's quick plan; without it each one's full plan.")
    boolean quick;

    @Option(names = "--out", paramLabel = "DIR", description = "Output directory (default results/all-TIMESTAMP).")
    Path out;

    /** Test seam: arguments added to an experiment's command line (its smallest plan), by name. */
    Map<String, List<String>> extraArgs = Map.of();

    /** One experiment's outcome. */
    record Outcome(String name, Path dir, int exit, double seconds) {
    }

    /** The experiments, in the registry's order ({@link Experiments}): each is a subcommand of {@code jwarp experiment}. */
    List<String> experiments() {
        return Experiments.names();
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter pw = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Path dir = ExperimentRunner.outputDirectory(spec, "all", out);
        List<String> names = experiments();
        pw.printf(Locale.ROOT, "jwarp experiment all (%s): %d experiments into %s: %s%n", quick ? "quick" : "full", names.size(),
                dir, String.join(", ", names));
        pw.flush();
        List<Outcome> outcomes = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            String name = names.get(i);
            List<String> args = new ArrayList<>(List.of("experiment", name));
            if (quick) {
                args.add("--quick");
            }
            args.addAll(List.of("--out", dir.resolve(name).toString()));
            args.addAll(extraArgs.getOrDefault(name, List.of()));
            pw.printf(Locale.ROOT, "%n== %d of %d: jwarp %s%n", i + 1, names.size(), String.join(" ", args));
            pw.flush();
            CommandLine cl = JwarpCommand.newCommandLine();
            cl.setOut(pw);
            cl.setErr(err);
            long t0 = System.nanoTime();
            int exit = cl.execute(args.toArray(String[]::new));
            outcomes.add(new Outcome(name, dir.resolve(name), exit, (System.nanoTime() - t0) / 1e9));
        }
        List<Path> done = outcomes.stream().filter(o -> o.exit() == 0).map(Outcome::dir).toList();
        Path report = done.isEmpty() ? null : HtmlReport.write(done, dir.resolve("report.html"));
        pw.println();
        for (Outcome o : outcomes) {
            pw.printf(Locale.ROOT, "  %-14s %-6s %6.0f s  %s%n", o.name(), o.exit() == 0 ? "ok" : "FAILED", o.seconds(),
                    o.dir());
        }
        pw.println(report == null ? "no experiment succeeded: no report" : "report: " + report + " (" + done.size()
                + " of " + outcomes.size() + " experiments)");
        pw.flush();
        return done.size() == outcomes.size() ? 0 : 1;
    }
}
