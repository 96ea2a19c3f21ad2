package org.jwarp.cli;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.jwarp.bench.experiments.Experiment;
import org.jwarp.bench.experiments.ExperimentOption;
import org.jwarp.bench.experiments.ExperimentProcesses;
import org.jwarp.bench.experiments.ExperimentRun;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine;

/**
 * One experiment's command ({@code jwarp experiment NAME}), made from what the experiment declares:
 * its help, {@code --quick}, {@code --out} and its own options ({@link Experiment#options()}); it
 * runs the experiment ({@link Experiment#run}) with their values. A bad value is a usage error of
 * one line, as for any command.
 */
final class ExperimentRunner implements Callable<Integer> {

    private final Experiment experiment;
    private CommandSpec spec;

    private ExperimentRunner(Experiment experiment) {
        this.experiment = experiment;
    }

    /** The command of {@code experiment}. */
    static CommandLine command(Experiment experiment) {
        ExperimentRunner runner = new ExperimentRunner(experiment);
        CommandSpec spec = CommandSpec.wrapWithoutInspection(runner).name(experiment.name())
                .mixinStandardHelpOptions(true);
        spec.usageMessage().description(experiment.help().toArray(String[]::new)).sortOptions(false);
        spec.addOption(OptionSpec.builder("--quick").type(boolean.class).description("The quick plan, under 2 minutes "
                + "(what it runs: see above); without it the full plan.").build());
        spec.addOption(OptionSpec.builder("--out").paramLabel("DIR").type(Path.class).description("Output directory "
                + "(default results/NAME-TIMESTAMP).").build());
        for (ExperimentOption o : experiment.options()) {
            OptionSpec.Builder b = OptionSpec.builder(o.name()).paramLabel(o.paramLabel()).type(o.type())
                    .description(o.description());
            if (o.element() != null) {
                b.auxiliaryTypes(o.element()).splitRegex(",");
            }
            if (o.defaultValue() != null) {
                b.defaultValue(o.defaultValue());
            }
            spec.addOption(b.build());
        }
        runner.spec = spec;
        return new CommandLine(spec);
    }

    @Override
    public Integer call() throws Exception {
        Map<String, Object> values = new LinkedHashMap<>();
        for (ExperimentOption o : experiment.options()) {
            values.put(o.name(), spec.findOption(o.name()).getValue());
        }
        Path out = spec.findOption("--out").getValue();
        boolean quick = Boolean.TRUE.equals(spec.findOption("--quick").getValue());
        ExperimentRun run = new ExperimentRun(quick, values, spec.commandLine().getOut(),
                () -> outputDirectory(spec, experiment.name(), out), new CliJwarp());
        try {
            experiment.run(run);
        } catch (ExperimentRun.BadOption e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        return 0;
    }

    /**
     * {@code --out}, or {@code results/NAME-TIMESTAMP}, made here: a directory that cannot be made
     * is refused (a usage error of {@code spec}'s command) before the experiment runs.
     */
    static Path outputDirectory(CommandSpec spec, String name, Path out) {
        Path dir = out != null ? out : ExperimentProcesses.defaultDir(name);
        String problem = OutputPath.makeDirectory(dir);
        if (problem != null) {
            throw new ParameterException(spec.commandLine(), (out != null ? "--out " : "the output directory ") + dir
                    + ": " + problem);
        }
        return dir;
    }
}
