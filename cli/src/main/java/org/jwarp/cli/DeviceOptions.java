package org.jwarp.cli;

import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.jwarp.engine.provider.JwarpConfig;
import org.jwarp.engine.provider.JwarpConfigBuilder;
import org.jwarp.engine.rss.RssConfig;
import org.jwarp.verbs.DeviceConfig;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * The settings of a jwarp device as options, one set for every command that opens a device (the
 * perf tests, {@code demo}, {@code rping}): the same spellings, the same defaults (this machine's
 * {@link DeviceConfig#defaults()} and {@link JwarpConfig#defaults()}), one option per setting. The
 * MPA options, limits and the peer timeout go into the {@link DeviceConfig}; the engine's (threading,
 * idling, RSS, NUMA, the socket I/O layer) into its {@link JwarpConfig}.
 */
final class DeviceOptions {

    @Option(names = "--provider", paramLabel = "NAME", description = "The verbs provider that opens the device: jwarp"
            + " (default: jwarp's software RNIC) or ibverbs (the kernel's RDMA stack through libibverbs: a real RNIC,"
            + " siw or rxe; the options below that set jwarp's engine or its MPA do not apply to it).")
    String provider;

    @Option(names = "--ib-dev", paramLabel = "DEVICE", description = "With --provider ibverbs: the RDMA device to"
            + " open, as ibv_devices lists it (siw0, mlx5_0; default: the first one).")
    String ibDev;

    @Option(names = "--threading", paramLabel = "MODE", description = "Who runs the engine: dedicated (engine"
            + " threads of their own; default with 4+ CPUs), hybrid (the polling application thread, with a standby"
            + " engine thread when it stops; default with fewer), invoker (only the application's threads) or toad"
            + " (seed 001's arrangement: dedicated, the engine on a CPU of its own and the application on another;"
            + " needs 2 CPUs, places the threads itself).")
    String threading;

    @Option(names = "--engine-threads", paramLabel = "N", description = "Engine threads per device (dedicated"
            + " mode; default 1).")
    Integer engineThreads;

    @Option(names = "--idle", paramLabel = "KIND", description = "What an idle engine thread does: adaptive"
            + " (default: spin 50 µs, then sleep in its selector), spin, backoff or park.")
    String idle;

    @Option(names = "--crc", paramLabel = "POLICY", description = "MPA CRC32c: preferred (send C=1; default; 'on'"
            + " means the same), required (refuse a peer without it), off (send C=0; CRC runs only if the peer asks).")
    String crc;

    @Option(names = "--markers", paramLabel = "on|off", arity = "0..1", fallbackValue = "on",
            description = "Ask the peer for MPA markers (M=1; default off; --markers alone means on). siw refuses them.")
    String markers;

    @Option(names = "--mpa-rev", paramLabel = "1|2", description = "MPA revision: 2 = RFC 6581 enhanced setup with"
            + " IRD/ORD (default), 1 = RFC 5044.")
    Integer mpaRevision;

    @Option(names = "--p2p", negatable = true, fallbackValue = "true", description = "As initiator, ask for RFC 6581"
            + " peer-to-peer mode and send an RTR (default: on; needs --mpa-rev 2).")
    Boolean peerToPeer;

    @Option(names = "--rtr", paramLabel = "KIND,...", split = ",", description = "RTR messages offered as initiator"
            + " and accepted as responder: write, read, send (default: write,read).")
    List<String> rtr;

    @Option(names = "--steering", paramLabel = "HOW", description = "How new connections are spread over the engine"
            + " threads: rss (default: the Toeplitz hash of the 4-tuple), round-robin, or one (all on engine thread 0).")
    String steering;

    @Option(names = "--rss-table", paramLabel = "SIZE", description = "Entries of the RSS indirection table that"
            + " steers connections to engine threads, a power of two (default 128).")
    Integer rssTable;

    @Option(names = "--rss-key", paramLabel = "HEX", description = "The RSS Toeplitz key, 40 bytes or more as hex"
            + " digits (default: Microsoft's RSS key).")
    String rssKey;

    @Option(names = "--rebalance", paramLabel = "POLICY", description = "Move RSS table entries between engine"
            + " threads by their load: off (default), periodic (every period, the busiest entry of the busiest"
            + " thread to the idlest) or threshold (only when the busiest thread carries over --rebalance-threshold"
            + " times the average).")
    String rebalance;

    @Option(names = "--rebalance-period", paramLabel = "SECONDS", description = "How often the rebalancer looks"
            + " (default 1).")
    Double rebalancePeriod;

    @Option(names = "--numa", description = "Pin the engine threads over the NUMA nodes (one node after another) and"
            + " keep each one's connection buffers on its node; needs --threading dedicated.")
    boolean numa;

    @Option(names = "--io", paramLabel = "LAYER", description = "The socket I/O layer under the engine: auto (default:"
            + " syscalls where the JVM shows sockets' descriptors, else nio), syscalls (sendmsg/readv through FFM),"
            + " uring (io_uring through FFM, one ring per engine thread), uring-sqpoll (the same with a kernel"
            + " thread polling each ring), uring-direct (every socket an io_uring direct descriptor, not a"
            + " descriptor of the process) or nio (SocketChannel).")
    String io;

    @Option(names = "--peer-timeout", paramLabel = "SECONDS", description = "How long a connection's peer may stay"
            + " silent (its host died: no FIN, no RST) before the connection is lost, with its work requests flushed"
            + " and one CM event: 3 or more, or 0 for TCP's own limit (default 60).")
    Integer peerTimeout;

    @Option(names = "--rebalance-threshold", paramLabel = "X", description = "threshold policy: times the average"
            + " load, above 1 (default 1.5).")
    Double rebalanceThreshold;

    /** Whether the device is jwarp's own engine (not another provider such as ibverbs). */
    boolean engine(CommandSpec spec) {
        return ProviderChoice.of(spec, provider, ibDev).engine();
    }

    /** The threading mode these options ask for, or this machine's default. */
    JwarpConfig.ThreadingMode threadingMode(CommandSpec spec) {
        if (threading == null) {
            return JwarpConfig.defaults().threadingMode();
        }
        return switch (threading.toLowerCase(Locale.ROOT)) {
            case "dedicated", "toad" -> JwarpConfig.ThreadingMode.DEDICATED;
            case "hybrid" -> JwarpConfig.ThreadingMode.HYBRID;
            case "invoker" -> JwarpConfig.ThreadingMode.INVOKER;
            default -> throw bad(spec, "--threading must be dedicated, hybrid, invoker or toad, not '" + threading + "'");
        };
    }

    /**
     * Whether {@code --threading toad} was asked for: dedicated engine threads, and the command
     * places engine and application threads on CPUs of their own ({@code Placement.toad}).
     */
    boolean toad() {
        return "toad".equalsIgnoreCase(threading);
    }

    /**
     * The TOAD arrangement's engine idle strategy: below 4 CPUs the engine's CPU also carries the
     * other side's application, so an idle engine backs off (spins a little, yields, then parks)
     * where the adaptive default would spin 50 µs and then sleep until a wake-up; with a CPU of
     * its own, the default.
     */
    static JwarpConfig.IdleStrategyKind toadIdle() {
        return toadSharesCpus() ? JwarpConfig.IdleStrategyKind.BACKOFF : JwarpConfig.defaults().idleStrategy();
    }

    /**
     * Whether the TOAD arrangement must share CPUs here: below 4, two sides (two processes, or both
     * ends of a loopback run) put an application and the other side's engine on each CPU, so a
     * polling application yields when idle and the engine backs off.
     */
    static boolean toadSharesCpus() {
        return Runtime.getRuntime().availableProcessors() < 4;
    }

    /** Whether --threading was given (else the header says why the default was chosen). */
    boolean threadingGiven() {
        return threading != null;
    }

    /** The idle strategy these options ask for, or the default. */
    JwarpConfig.IdleStrategyKind idleKind(CommandSpec spec) {
        if (idle == null) {
            return toad() ? toadIdle() : JwarpConfig.defaults().idleStrategy();
        }
        return switch (idle.toLowerCase(Locale.ROOT)) {
            case "adaptive" -> JwarpConfig.IdleStrategyKind.ADAPTIVE;
            case "spin" -> JwarpConfig.IdleStrategyKind.SPIN;
            case "backoff" -> JwarpConfig.IdleStrategyKind.BACKOFF;
            case "park" -> JwarpConfig.IdleStrategyKind.PARK;
            default -> throw bad(spec, "--idle must be adaptive, spin, backoff or park, not '" + idle + "'");
        };
    }

    /** Engine threads asked for (1 by default). */
    int engineThreads(CommandSpec spec) {
        int n = engineThreads == null ? 1 : engineThreads;
        if (n < 1 || n > 64) {
            throw bad(spec, "--engine-threads must be in 1..64, not " + n);
        }
        if (n > 1 && threadingMode(spec) != JwarpConfig.ThreadingMode.DEDICATED) {
            throw bad(spec, "--engine-threads " + n + " needs --threading dedicated (" + (threading == null
                    ? "the default here is " + threadingMode(spec).name().toLowerCase(Locale.ROOT)
                    : "--threading " + threading + " runs the engine on the application's thread") + ")");
        }
        return n;
    }

    /**
     * The device configuration these options describe, on this machine's defaults otherwise.
     * {@code processors} overrides the processor count for the spinner rule (0: this machine's).
     */
    DeviceConfig toConfig(CommandSpec spec, int processors) {
        ProviderChoice choice = ProviderChoice.of(spec, provider, ibDev);
        if (!choice.engine()) {
            return choice.config(spec);
        }
        DeviceConfig.CrcPolicy crcPolicy = switch (crc == null ? "preferred" : crc.toLowerCase(Locale.ROOT)) {
            case "preferred", "on" -> DeviceConfig.CrcPolicy.PREFERRED;
            case "required" -> DeviceConfig.CrcPolicy.REQUIRED;
            case "off" -> DeviceConfig.CrcPolicy.OFF;
            default -> throw bad(spec, "--crc must be preferred, required or off, not '" + crc + "'");
        };
        boolean markersOn = switch (markers == null ? "off" : markers.toLowerCase(Locale.ROOT)) {
            case "on" -> true;
            case "off" -> false;
            default -> throw bad(spec, "--markers must be on or off, not '" + markers + "'");
        };
        int rev = mpaRevision == null ? 2 : mpaRevision;
        if (rev != 1 && rev != 2) {
            throw bad(spec, "--mpa-rev must be 1 or 2, not " + rev);
        }
        Set<DeviceConfig.RtrKind> kinds = EnumSet.noneOf(DeviceConfig.RtrKind.class);
        for (String k : rtr == null ? List.of("write", "read") : rtr) {
            try {
                kinds.add(DeviceConfig.RtrKind.valueOf(k.strip().toUpperCase(Locale.ROOT)));
            } catch (IllegalArgumentException e) {
                throw bad(spec, "--rtr takes write, read or send, not '" + k + "'");
            }
        }
        if (Boolean.TRUE.equals(peerToPeer) && rev == 1) {
            throw bad(spec, "--p2p needs --mpa-rev 2: peer-to-peer mode is RFC 6581's, MPA revision 1 has none");
        }
        boolean p2p = (peerToPeer == null || peerToPeer) && rev == 2;
        if (p2p && kinds.isEmpty()) {
            throw bad(spec, "--p2p needs at least one --rtr kind");
        }
        RssConfig rss = rssConfig(spec);
        JwarpConfig.SocketIo layer;
        try {
            layer = io == null ? JwarpConfig.SocketIo.AUTO : JwarpConfig.SocketIo.parse(io);
        } catch (IllegalArgumentException e) {
            throw bad(spec, "--io must be auto, syscalls, uring, uring-sqpoll, uring-direct or nio, not '" + io + "'");
        }
        if (numa && threadingMode(spec) != JwarpConfig.ThreadingMode.DEDICATED) {
            throw bad(spec, "--numa pins engine threads of their own: it needs --threading dedicated");
        }
        if (peerTimeout != null && peerTimeout != 0 && (peerTimeout < 3 || peerTimeout > 86_400)) {
            throw bad(spec, "--peer-timeout must be 0 (TCP's own limit) or 3..86400 seconds, not " + peerTimeout);
        }
        try {
            JwarpConfigBuilder j = JwarpConfig.builder().threadingMode(threadingMode(spec)).rss(rss).numa(numa)
                    .socketIo(layer).engineThreads(engineThreads(spec)).idleStrategy(idleKind(spec));
            if (processors > 0) {
                j.availableProcessors(processors);
            }
            DeviceConfig.Builder b = DeviceConfig.builder().provider(j.build())
                    .mpaRevision(rev).peerToPeer(p2p).rtrKinds(kinds).crcPolicy(crcPolicy)
                    .markerPolicy(markersOn ? DeviceConfig.MarkerPolicy.REQUEST : DeviceConfig.MarkerPolicy.NEVER_REQUEST);
            if (peerTimeout != null) {
                b.peerTimeout(java.time.Duration.ofSeconds(peerTimeout));
            }
            return b.build();
        } catch (IllegalArgumentException e) {
            throw bad(spec, e.getMessage());
        }
    }

    /** The RSS table, key and rebalancing these options ask for. */
    RssConfig rssConfig(CommandSpec spec) {
        RssConfig.Rebalance policy = switch (rebalance == null ? "off" : rebalance.toLowerCase(Locale.ROOT)) {
            case "off" -> RssConfig.Rebalance.OFF;
            case "periodic" -> RssConfig.Rebalance.PERIODIC;
            case "threshold" -> RssConfig.Rebalance.THRESHOLD;
            default -> throw bad(spec, "--rebalance must be off, periodic or threshold, not '" + rebalance + "'");
        };
        if (policy != RssConfig.Rebalance.OFF && engineThreads(spec) < 2) {
            throw bad(spec, "--rebalance " + rebalance + " needs --threading dedicated and --engine-threads 2 or more");
        }
        RssConfig.Steering how = switch (steering == null ? "rss" : steering.toLowerCase(Locale.ROOT)) {
            case "rss" -> RssConfig.Steering.RSS;
            case "round-robin" -> RssConfig.Steering.ROUND_ROBIN;
            case "one" -> RssConfig.Steering.ONE;
            default -> throw bad(spec, "--steering must be rss, round-robin or one, not '" + steering + "'");
        };
        if (how != RssConfig.Steering.RSS && policy != RssConfig.Rebalance.OFF) {
            throw bad(spec, "--rebalance moves RSS table entries: it needs --steering rss");
        }
        double period = rebalancePeriod == null ? RssConfig.DEFAULT.period().toNanos() / 1e9 : rebalancePeriod;
        if (!(period >= 0.001 && period <= 3600)) {
            throw bad(spec, "--rebalance-period must be 0.001 to 3600 seconds, not " + rebalancePeriod);
        }
        try {
            return new RssConfig(how, rssTable == null ? RssConfig.DEFAULT.tableSize() : rssTable,
                    rssKey == null ? "" : rssKey.replace(":", ""), policy,
                    java.time.Duration.ofNanos((long) (period * 1e9)),
                    rebalanceThreshold == null ? RssConfig.DEFAULT.threshold() : rebalanceThreshold);
        } catch (IllegalArgumentException e) {
            throw bad(spec, e.getMessage().replace("the RSS indirection table size", "--rss-table")
                    .replace("the RSS key", "--rss-key").replace("the rebalancing threshold", "--rebalance-threshold"));
        }
    }

    /** {@link #toConfig(CommandSpec, int)} on this machine's processor count. */
    DeviceConfig toConfig(CommandSpec spec) {
        return toConfig(spec, 0);
    }

    private static ParameterException bad(CommandSpec spec, String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
