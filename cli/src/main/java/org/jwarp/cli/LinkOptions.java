package org.jwarp.cli;

import org.jwarp.degen.JitterDistribution;
import org.jwarp.degen.LinkParams;
import org.jwarp.degen.RouterTuning;
import org.jwarp.degen.Units;
import org.jwarp.degen.testbed.RouterConfig;
import org.jwarp.degen.testbed.Testbed;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/** The link options shared by {@code jwarp degen run} and {@code jwarp testbed up}. */
final class LinkOptions {

    @Option(names = "--delay", paramLabel = "TIME", defaultValue = "0",
            description = "One-way delay added in each direction, e.g. 10ms, 250us (default: ${DEFAULT-VALUE}).")
    String delay;

    @Option(names = "--jitter", paramLabel = "TIME", defaultValue = "0",
            description = "Jitter scale J: uniform in [-J, +J] or normal with sigma J truncated at 3J (default: none). Never reorders.")
    String jitter;

    @Option(names = "--jitter-dist", paramLabel = "DIST", defaultValue = "uniform",
            description = "Jitter distribution: uniform or normal (default: ${DEFAULT-VALUE}).")
    String jitterDist;

    @Option(names = "--rate", paramLabel = "RATE", defaultValue = "0",
            description = "Link speed, e.g. 100mbit, 1g; each packet takes (bytes + overhead) * 8 / rate to serialise (default: unlimited).")
    String rate;

    @Option(names = "--overhead", paramLabel = "BYTES", defaultValue = "38",
            description = "Link bytes per IP packet for the rate: 38 = Ethernet with preamble and gap, so 1g behaves like Gigabit Ethernet; 14 = what tbf counts (default: ${DEFAULT-VALUE}).")
    int overhead;

    @Option(names = "--loss", paramLabel = "P", defaultValue = "0",
            description = "Random loss per packet, e.g. 0.1%% (default: none).")
    String loss;

    @Option(names = "--reorder", paramLabel = "P", defaultValue = "0",
            description = "Packets held back until the packet behind them has left (at most 1 ms), e.g. 1%% (default: none).")
    String reorder;

    @Option(names = "--duplicate", paramLabel = "P", defaultValue = "0",
            description = "Packets sent twice, e.g. 1%% (default: none).")
    String duplicate;

    @Option(names = "--queue", paramLabel = "BYTES", defaultValue = "1m",
            description = "Bytes that may wait for the rate-limited link before tail drop (default: ${DEFAULT-VALUE}).")
    String queue;

    @Option(names = "--a2b", paramLabel = "K=V,...",
            description = "Overrides for the A->B direction only, e.g. delay=5ms,rate=1g (keys: delay, jitter, dist, rate, overhead, loss, queue, reorder, duplicate).")
    String a2b;

    @Option(names = "--b2a", paramLabel = "K=V,...", description = "Overrides for the B->A direction only.")
    String b2a;

    @Option(names = "--mtu-a", paramLabel = "BYTES", defaultValue = "1500", description = "MTU of host A's interface (1500, or 9000 for jumbo frames).")
    int mtuA;

    @Option(names = "--mtu-b", paramLabel = "BYTES", defaultValue = "1500", description = "MTU of host B's interface.")
    int mtuB;

    @Option(names = "--spin-min", paramLabel = "TIME", defaultValue = "20us",
            description = "Least time the router spins before a due time; it measures its own wake-up lateness and spins that long, up to --spin-max (default: ${DEFAULT-VALUE}).")
    String spinMin;

    @Option(names = "--spin-max", paramLabel = "TIME", defaultValue = "500us", description = "Most time the router spins before a due time (default: ${DEFAULT-VALUE}).")
    String spinMax;

    @Option(names = "--rt-priority", paramLabel = "N", defaultValue = "10",
            description = "SCHED_FIFO priority of the router thread, 0 for none (default: ${DEFAULT-VALUE}).")
    int rtPriority;

    @Option(names = "--busy-poll", description = "Never sleep: timestamps arrivals within a microsecond, but takes a whole core.")
    boolean busyPoll;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "1", description = "Seed for jitter, loss, reordering and duplication (default: ${DEFAULT-VALUE}).")
    long seed;

    /** The router configuration for testbed {@code tb}; bad values become a ParameterException naming the option. */
    RouterConfig toConfig(CommandSpec spec, Testbed tb) {
        try {
            LinkParams both = LinkParams.passThrough()
                    .withDelay(parse(spec, "--delay", () -> Units.parseDurationNanos(delay)))
                    .withJitter(parse(spec, "--jitter", () -> Units.parseDurationNanos(jitter)),
                            parse(spec, "--jitter-dist", () -> JitterDistribution.parse(jitterDist)))
                    .withRate(parse(spec, "--rate", () -> Units.parseRateBitsPerSecond(rate)))
                    .withOverhead(overhead)
                    .withLoss(parse(spec, "--loss", () -> Units.parseProbability(loss)))
                    .withReorder(parse(spec, "--reorder", () -> Units.parseProbability(reorder)))
                    .withDuplicate(parse(spec, "--duplicate", () -> Units.parseProbability(duplicate)))
                    .withQueueLimit(parse(spec, "--queue", () -> Units.parseBytes(queue)));
            LinkParams ab = a2b == null ? both : parse(spec, "--a2b", () -> both.withOverrides(a2b));
            LinkParams ba = b2a == null ? both : parse(spec, "--b2a", () -> both.withOverrides(b2a));
            RouterTuning tuning = parse(spec, "--spin-min/--spin-max/--rt-priority", () -> new RouterTuning(
                    Units.parseDurationNanos(spinMin), Units.parseDurationNanos(spinMax), rtPriority, busyPoll));
            return parse(spec, "--mtu-a/--mtu-b", () -> tb.config(ab, ba, mtuA, mtuB, tuning, seed));
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
    }

    private static <T> T parse(CommandSpec spec, String option, java.util.function.Supplier<T> f) {
        try {
            return f.get();
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), option + ": " + e.getMessage(), e);
        }
    }
}
