package org.jwarp.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * The {@code jwarp} command. Without a subcommand it prints its help and the wire-layer self-check
 * (the CRC32c and MPA vectors); the main job is {@code jwarp demo}.
 */
@Command(name = "jwarp",
        mixinStandardHelpOptions = true,
        versionProvider = JwarpCommand.Version.class,
        description = "A software iWARP RDMA NIC for the JVM.",
        subcommands = {SelfCheckCommand.class, DegenCommand.class, TestbedCommand.class,
                PerfCommands.SendLat.class, PerfCommands.SendBw.class, PerfCommands.WriteLat.class,
                PerfCommands.WriteBw.class, PerfCommands.ReadLat.class, PerfCommands.ReadBw.class,
                PerfCommands.WriteImmLat.class, PerfCommands.WriteImmBw.class,
                PerfCommands.AtomicLat.class, PerfCommands.AtomicBw.class, DemoCommand.class, BenchCommand.class, StatCommand.class,
                RpingCommand.class, CmatoseCommand.class, RdmaExampleCommands.Server.class,
                RdmaExampleCommands.Client.class, RssCommand.class, ScaleCommand.class, ExperimentCommand.class, ReportCommand.class})
public final class JwarpCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        spec.commandLine().usage(out);
        out.println();
        return SelfCheckCommand.run(out);
    }

    public static void main(String[] args) {
        System.exit(newCommandLine().execute(args));
    }

    /** The command line with jwarp's error handling: one clear line, no stack trace, exit 2. */
    public static CommandLine newCommandLine() {
        CommandLine cl = new CommandLine(new JwarpCommand());
        ExperimentCommand.addSubcommands(cl.getSubcommands().get("experiment"));
        cl.setParameterExceptionHandler((ex, args) -> {
            CommandLine cmd = ex.getCommandLine();
            cmd.getErr().println("jwarp: " + ex.getMessage() + " (see '" + cmd.getCommandSpec().qualifiedName() + " --help')");
            return 2;
        });
        cl.setExecutionExceptionHandler((ex, cmd, parseResult) -> {
            cmd.getErr().println("jwarp: " + describe(ex));
            return 1;
        });
        return cl;
    }

    /** An exception's message, or for one without (a bug), what it is and where it was thrown. */
    static String describe(Throwable ex) {
        if (ex.getMessage() != null) {
            return ex.getMessage();
        }
        StackTraceElement[] at = ex.getStackTrace();
        return "internal error: " + ex + (at.length == 0 ? "" : " at " + at[0]);
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = JwarpCommand.class.getPackage().getImplementationVersion();
            return new String[] {"jwarp " + (v == null ? "(development build)" : v)
                    + " on Java " + Runtime.version()};
        }
    }
}
