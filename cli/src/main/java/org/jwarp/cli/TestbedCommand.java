package org.jwarp.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import org.jwarp.degen.testbed.Emulator;
import org.jwarp.degen.testbed.Testbed;
import org.jwarp.degen.testbed.Topology;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code jwarp testbed}: two hosts (network namespaces) joined by degen, tbf or netem. */
@Command(name = "testbed", mixinStandardHelpOptions = true,
        description = {"Two hosts, A (10.77.1.1) and B (10.77.2.1), as network namespaces NAME-a and NAME-b, joined by degen "
                + "(or, as anchors, by a veth pair with tbf or netem). Needs root.",
                "State, statistics and degen's log live in /run/jwarp-testbed/NAME/."},
        subcommands = {TestbedCommand.Up.class, TestbedCommand.Down.class, TestbedCommand.Exec.class, TestbedCommand.Status.class,
                TestbedCommand.Cut.class})
final class TestbedCommand extends GroupCommand {

    static final class NameOption {
        @Option(names = "--name", defaultValue = Topology.DEFAULT_NAME, description = "Testbed name (default: ${DEFAULT-VALUE}).")
        String name;
    }

    @Command(name = "up", mixinStandardHelpOptions = true,
            description = {"Creates hosts A and B and joins them. With degen (the default) the router runs as a background process "
                    + "that removes the hosts when it exits; a stale testbed of the same name is removed first."})
    static final class Up implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Mixin
        LinkOptions link;

        @Mixin
        NameOption name;

        @Option(names = "--emulator", paramLabel = "KIND", defaultValue = "degen",
                description = "degen; tbf (veth + the kernel's token bucket, rate only: the rate anchor; with no --rate a plain veth pair); "
                        + "netem (veth + netem, where the kernel has it) (default: ${DEFAULT-VALUE}).")
        String emulator;

        @Option(names = "--cpus", paramLabel = "LIST", description = "Pin the degen process with taskset -c LIST, e.g. 1.")
        String cpus;

        @Override
        public Integer call() throws Exception {
            Testbed tb = DegenCommand.testbed(spec, name.name);
            Emulator kind;
            try {
                kind = Emulator.parse(emulator);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), "--emulator: " + e.getMessage(), e);
            }
            PrintWriter out = spec.commandLine().getOut();
            out.println(tb.up(kind, link.toConfig(spec, tb), cpus));
            out.println("  run commands in a host with: jwarp testbed exec A -- <command>");
            return 0;
        }
    }

    @Command(name = "down", mixinStandardHelpOptions = true, description = "Stops degen, removes both hosts, prints degen's final statistics.")
    static final class Down implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Mixin
        NameOption name;

        @Override
        public Integer call() throws Exception {
            spec.commandLine().getOut().println(DegenCommand.testbed(spec, name.name).down());
            return 0;
        }
    }

    @Command(name = "exec", mixinStandardHelpOptions = true,
            description = "Runs a command inside host A or B, e.g. 'jwarp testbed exec A -- jwarp write-bw 10.77.2.1'. Exits with its exit code.")
    static final class Exec implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Mixin
        NameOption name;

        @Parameters(index = "0", paramLabel = "HOST", description = "A or B.")
        String host;

        @Parameters(index = "1..*", paramLabel = "COMMAND", description = "The command and its arguments (put -- before it).")
        List<String> command;

        @Override
        public Integer call() throws Exception {
            if (!host.equalsIgnoreCase("A") && !host.equalsIgnoreCase("B")) {
                throw new ParameterException(spec.commandLine(), "HOST '" + host + "' must be A or B");
            }
            if (command == null || command.isEmpty()) {
                throw new ParameterException(spec.commandLine(), "no command given; e.g. 'jwarp testbed exec A -- ip addr'");
            }
            return DegenCommand.testbed(spec, name.name).exec(host, command);
        }
    }

    @Command(name = "status", mixinStandardHelpOptions = true,
            description = "Says what is up and prints degen's statistics (read from the file degen rewrites every 250 ms).")
    static final class Status implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Mixin
        NameOption name;

        @Override
        public Integer call() throws Exception {
            spec.commandLine().getOut().println(DegenCommand.testbed(spec, name.name).status());
            return 0;
        }
    }

    @Command(name = "cut", mixinStandardHelpOptions = true,
            description = "Takes degen's link down in both directions for TIME (every packet dropped, as if the cable were pulled); "
                    + "it comes back by itself. E.g. 'jwarp testbed cut 10s'.")
    static final class Cut implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Mixin
        NameOption name;

        @Parameters(index = "0", paramLabel = "TIME", description = "How long the link stays down, e.g. 1s, 500ms.")
        String time;

        @Override
        public Integer call() throws Exception {
            long nanos;
            try {
                nanos = org.jwarp.degen.Units.parseDurationNanos(time);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), "TIME: " + e.getMessage(), e);
            }
            if (nanos <= 0) {
                throw new ParameterException(spec.commandLine(), "TIME must be more than 0, was " + time);
            }
            DegenCommand.testbed(spec, name.name).cut(nanos);
            spec.commandLine().getOut().println("link of testbed " + name.name + " down for " + org.jwarp.degen.Units.formatNanos(nanos));
            return 0;
        }
    }
}
