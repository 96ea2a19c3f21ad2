package org.jwarp.cli;

import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.jwarp.degen.LinkParams;
import org.jwarp.degen.Units;
import org.jwarp.degen.relay.TcpRelay;
import org.jwarp.degen.testbed.DegenBench;
import org.jwarp.degen.testbed.RouterConfig;
import org.jwarp.degen.testbed.RouterSession;
import org.jwarp.degen.testbed.Testbed;
import org.jwarp.degen.testbed.Topology;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code jwarp degen}: the WAN delay emulator (router mode, relay mode, benchmark). */
@Command(name = "degen", mixinStandardHelpOptions = true,
        description = {"The WAN delay emulator of seed 000: holds every packet for a set delay and reinjects it at its due time.",
                "Most users want 'jwarp testbed up', which creates two hosts and runs 'degen run' between them."},
        subcommands = {DegenCommand.Run.class, DegenCommand.Relay.class, DegenCommand.Bench.class})
final class DegenCommand extends GroupCommand {

    @Command(name = "run", mixinStandardHelpOptions = true,
            description = {"Router mode, in the foreground: joins the hosts of an existing testbed (netns NAME-a and NAME-b) "
                    + "through a TUN device in each, delaying every IP packet. Needs root. Ctrl-C stops it and prints its statistics.",
                    "The hosts must exist (e.g. created with 'ip netns add'); 'jwarp testbed up' does all of it in one step."})
    static final class Run implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Mixin
        LinkOptions link;

        @Option(names = "--name", defaultValue = Topology.DEFAULT_NAME, description = "Testbed name: the hosts are netns NAME-a and NAME-b (default: ${DEFAULT-VALUE}).")
        String name;

        @Option(names = "--stats", paramLabel = "FILE", description = "Publish statistics to FILE every 250 ms while running.")
        java.nio.file.Path stats;

        @Override
        public Integer call() throws Exception {
            Testbed tb = testbed(spec, name);
            Testbed.requireCapable();
            RouterConfig c = link.toConfig(spec, tb);
            c = new RouterConfig(c.topology(), c.a2b(), c.b2a(), c.tuning(), c.seed(), c.ringBytes(), stats, c.statsIntervalNanos());
            PrintWriter out = spec.commandLine().getOut();
            RouterSession session = RouterSession.start(c);
            CountDownLatch stopped = new CountDownLatch(1);
            Thread hook = new Thread(() -> {
                try {
                    session.close();
                    out.print(session.finalStats().render());
                    out.flush();
                } catch (java.io.IOException e) {
                    System.err.println("jwarp: stopping degen failed: " + e.getMessage());
                } finally {
                    stopped.countDown();
                }
            }, "degen-stop");
            Runtime.getRuntime().addShutdownHook(hook);
            out.printf("degen: forwarding %s <-> %s; A->B %s; B->A %s (Ctrl-C stops)%n", c.topology().nsA(), c.topology().nsB(),
                    c.a2b().describe(), c.b2a().describe());
            out.flush();
            Throwable failure = session.awaitRouterExit();
            if (failure != null) {
                throw new java.io.IOException("router stopped: " + failure.getMessage(), failure);
            }
            stopped.await();
            return 0;
        }
    }

    @Command(name = "relay", mixinStandardHelpOptions = true,
            description = {"TCP relay mode, for machines without root: accepts connections on --listen, connects each to --to, "
                    + "and forwards both byte streams after --delay (at --rate if given).",
                    "Honest limits: a relay terminates TCP, so it is NOT a router. The client's handshake, ACKs, window and "
                            + "retransmissions are with the relay over loopback; only the byte stream is delayed. A request/response sees "
                            + "the configured round trip, but slow start, congestion control, ACK clocking, loss and MTU behave as on the "
                            + "local network. Use 'jwarp testbed' (root) for packet-level emulation."})
    static final class Relay implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Option(names = "--listen", required = true, paramLabel = "[HOST:]PORT", description = "Where to accept connections, e.g. 127.0.0.1:7000.")
        String listen;

        @Option(names = "--to", required = true, paramLabel = "HOST:PORT", description = "Where to connect each accepted connection.")
        String to;

        @Option(names = "--delay", paramLabel = "TIME", defaultValue = "0", description = "One-way delay in each direction (default: ${DEFAULT-VALUE}).")
        String delay;

        @Option(names = "--jitter", paramLabel = "TIME", defaultValue = "0", description = "Uniform jitter in [-J, +J] per chunk; never reorders.")
        String jitter;

        @Option(names = "--rate", paramLabel = "RATE", defaultValue = "0", description = "Rate limit per direction and connection, e.g. 100mbit (default: unlimited).")
        String rate;

        @Override
        public Integer call() throws Exception {
            LinkParams p;
            try {
                p = LinkParams.passThrough().withOverhead(0).withDelay(Units.parseDurationNanos(delay))
                        .withJitter(Units.parseDurationNanos(jitter), org.jwarp.degen.JitterDistribution.UNIFORM)
                        .withRate(Units.parseRateBitsPerSecond(rate)).withQueueLimit(Long.MAX_VALUE / 16);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage(), e);
            }
            InetSocketAddress listenAddr = address(spec, "--listen", listen, "127.0.0.1");
            InetSocketAddress target = address(spec, "--to", to, null);
            TcpRelay relay = TcpRelay.start(listenAddr, target, p, p, 1);
            PrintWriter out = spec.commandLine().getOut();
            out.printf("degen relay: %s -> %s, %s each way (a relay terminates TCP: not a router; see --help). Ctrl-C stops.%n",
                    relay.localAddress(), target, p.describe());
            out.flush();
            CountDownLatch done = new CountDownLatch(1);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    relay.close();
                } catch (java.io.IOException e) {
                    System.err.println("jwarp: closing the relay failed: " + e.getMessage());
                }
                done.countDown();
            }, "relay-stop"));
            done.await();
            return 0;
        }
    }

    @Command(name = "bench", mixinStandardHelpOptions = true,
            description = {"Measures degen (needs root; takes a few minutes; not a test): delay error at 0, 1 and 10 ms idle and under "
                    + "a bulk transfer, cross-checked by a TCP ping-pong; rate accuracy at 100 Mb/s and 1 Gb/s against tbf; "
                    + "forwarding throughput against a plain veth pair."})
    static final class Bench implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Option(names = "--repeat", defaultValue = "3", description = "Runs per figure; medians are reported (default: ${DEFAULT-VALUE}).")
        int repeat;

        @Option(names = "--cpus", paramLabel = "LIST", description = "Pin the degen process with taskset -c LIST (e.g. 1).")
        String cpus;

        @Option(names = "--only", paramLabel = "PART", split = ",", description = "Run only some parts: delay, rate, throughput.")
        java.util.List<String> only;

        @Option(names = "--seconds", defaultValue = "3", description = "Length of each bulk transfer (default: ${DEFAULT-VALUE}).")
        int seconds;

        @Option(names = "--busy-poll", description = "Run degen with --busy-poll (arrivals stamped without a wake-up; a whole core).")
        boolean busyPoll;

        @Option(names = "--rt-priority", defaultValue = "10", description = "degen's --rt-priority (0: no SCHED_FIFO) (default: ${DEFAULT-VALUE}).")
        int rtPriority;

        @Override
        public Integer call() throws Exception {
            if (repeat < 1 || seconds < 1) {
                throw new ParameterException(spec.commandLine(), "--repeat and --seconds must be at least 1");
            }
            Testbed.requireCapable();
            PrintWriter out = spec.commandLine().getOut();
            org.jwarp.degen.RouterTuning d = org.jwarp.degen.RouterTuning.DEFAULT;
            org.jwarp.degen.RouterTuning tuning = new org.jwarp.degen.RouterTuning(d.spinMinNanos(), d.spinMaxNanos(), rtPriority, busyPoll);
            new DegenBench(new Testbed("jwbench"), cpus, repeat, seconds * 1_000_000_000L, tuning, out::println)
                    .run(only == null ? java.util.List.of("delay", "rate", "throughput") : only);
            out.flush();
            return 0;
        }
    }

    static Testbed testbed(CommandSpec spec, String name) {
        try {
            return new Testbed(name);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
    }

    static InetSocketAddress address(CommandSpec spec, String option, String text, String defaultHost) {
        int colon = text.lastIndexOf(':');
        String host = colon < 0 ? defaultHost : text.substring(0, colon);
        String port = colon < 0 ? text : text.substring(colon + 1);
        if (host == null || host.isEmpty()) {
            throw new ParameterException(spec.commandLine(), option + " '" + text + "' needs HOST:PORT");
        }
        try {
            int p = Integer.parseInt(port);
            if (p < 0 || p > 65535) {
                throw new NumberFormatException();
            }
            return new InetSocketAddress(host, p);
        } catch (NumberFormatException e) {
            throw new ParameterException(spec.commandLine(), option + " '" + text + "': port must be 0..65535", e);
        }
    }
}
