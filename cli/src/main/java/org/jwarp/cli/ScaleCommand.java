package org.jwarp.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.jwarp.bench.json.JsonCodec;
import org.jwarp.bench.report.Progress;
import org.jwarp.bench.run.Listening;
import org.jwarp.bench.scale.ScaleDocument;
import org.jwarp.bench.scale.ScaleRun;
import org.jwarp.bench.scale.ScaleServer;
import org.jwarp.bench.scale.SetupServer;
import org.jwarp.engine.provider.JwarpConfig;
import org.jwarp.sys.OpenFileLimit;
import org.jwarp.verbs.DeviceConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * {@code jwarp scale --qps N}: N connected QPs between two processes ({@link ScaleRun}; a server
 * process is started as {@code jwarp bench} starts its perf servers, this process the client).
 * Raises the open-file limit of both processes to what N sockets need; where N sockets do not
 * fit under the hard limit, the sockets are io_uring direct descriptors ({@code --io uring-direct},
 * chosen then by {@code --io auto}), which the limit does not count.
 */
@Command(name = "scale", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"N connected QPs between two processes (a server process started here, this one the client),"
                + " over several loopback addresses, every connection through MPA and each QP with a receive posted:"
                + " memory per QP, the engine threads' CPU while all are idle, an 8 B WRITE ping-pong on one QP alone"
                + " and beside the others, one WRITE and SEND on every QP with every byte verified, and what is left"
                + " after all are closed."})
final class ScaleCommand implements Callable<Integer> {

    static final int MAX_QPS = 200_000;
    /** Descriptors a process needs besides one socket per QP (the JVM's jars, epoll, io_uring, listeners). */
    static final int SPARE_FDS = 1024;

    @Spec
    CommandSpec spec;

    @Option(names = "--qps", paramLabel = "N", description = "Connected QPs (default 2000; 2 to " + MAX_QPS + ").")
    int qps = 2000;

    @Option(names = "--io", paramLabel = "LAYER", description = "The socket I/O layer of both devices: auto (default;"
            + " uring-direct where the QPs' sockets do not fit the open-file limit), syscalls, uring, uring-sqpoll,"
            + " uring-direct (sockets as io_uring direct descriptors, beyond the open-file limit) or nio.")
    String io = "auto";

    @Option(names = "--idle", paramLabel = "SECONDS", description = "The idle window over which the engine threads'"
            + " CPU is read (default 3).")
    int idleSeconds = 3;

    @Option(names = "--rounds", paramLabel = "N", description = "Round trips of each ping-pong (default 10000).")
    int rounds = 10_000;

    @Option(names = "--peer-timeout", paramLabel = "SECONDS", description = "Both devices' peer timeout (TCP keepalive"
            + " and TCP_USER_TIMEOUT; 0: TCP's own limits; default 60, or 0 where loopback's backlog cannot carry"
            + " the keepalive probes of --qps, which a line then says).")
    Integer askedPeerTimeout;

    /** The peer timeout the run uses: the one asked for, else the default or none ({@link LoopbackBacklog#choose}). */
    private int peerTimeoutSeconds = (int) DeviceConfig.DEFAULT_PEER_TIMEOUT.toSeconds();

    @Option(names = "--json", description = "Print one JSON document (schema " + ScaleDocument.SCHEMA
            + ") instead of the lines.")
    boolean json;

    @Option(names = "--serve", hidden = true, paramLabel = "KIND", description = "Be the server process of a scale"
            + " run (scale) or of jwarp bench's connection setup lines (setup).")
    String serve;

    @Option(names = "--private-data", hidden = true, paramLabel = "BYTES", description = "--serve setup: the"
            + " private-data size of the Replies (read from the Requests) and of the sockets' replies.")
    int privateData = BenchSetupLines.PRIVATE_DATA;

    @Override
    public Integer call() throws Exception {
        JwarpConfig.SocketIo layer;
        try {
            layer = JwarpConfig.SocketIo.parse(io);
        } catch (IllegalArgumentException e) {
            throw bad("--io must be auto, syscalls, uring, uring-sqpoll, uring-direct or nio, not '" + io + "'");
        }
        if (askedPeerTimeout != null) {
            peerTimeoutSeconds = askedPeerTimeout;
        }
        if (serve != null) {
            PrintWriter err = spec.commandLine().getErr();
            java.util.function.IntConsumer waiting = port -> {
                err.println(Listening.waiting(serve + " server", port));
                err.flush();
            };
            switch (serve) {
                case "scale" -> ScaleServer.serve(layer, java.time.Duration.ofSeconds(peerTimeoutSeconds), waiting);
                case "setup" -> SetupServer.serve(layer, privateData, BenchSetupLines.MAX_QPS, waiting);
                default -> throw bad("--serve takes scale or setup, not '" + serve + "'");
            }
            return 0;
        }
        if (qps < 2 || qps > MAX_QPS) {
            throw bad("--qps must be 2 to " + MAX_QPS + ", not " + qps);
        }
        if (idleSeconds < 1 || idleSeconds > 600) {
            throw bad("--idle must be 1 to 600 seconds, not " + idleSeconds);
        }
        if (peerTimeoutSeconds != 0 && (peerTimeoutSeconds < 3 || peerTimeoutSeconds > 86_400)) {
            throw bad("--peer-timeout must be 0 (TCP's own limits) or 3..86400 seconds, not " + peerTimeoutSeconds);
        }
        if (rounds < 100) {
            throw bad("--rounds must be at least 100, not " + rounds);
        }
        layer = directIfBeyondLimit(layer, (long) qps + SPARE_FDS);
        if (layer == JwarpConfig.SocketIo.URING_DIRECT) {
            raiseOpenFiles(Math.min((long) qps + SPARE_FDS, OpenFileLimit.get().hard()));
        } else {
            raiseOpenFiles((long) qps + SPARE_FDS);
        }
        PrintWriter out = spec.commandLine().getOut();
        LoopbackBacklog.Choice keepalive = LoopbackBacklog.choose(qps, askedPeerTimeout,
                (int) DeviceConfig.DEFAULT_PEER_TIMEOUT.toSeconds(), LoopbackBacklog.read());
        peerTimeoutSeconds = keepalive.peerTimeoutSeconds();
        String backlogWarning = keepalive.line();
        if (backlogWarning != null) {
            spec.commandLine().getErr().println(backlogWarning);
            spec.commandLine().getErr().flush();
        }
        ScaleDocument d;
        try (Progress progress = json ? Progress.none() : Progress.forTerminal()) {
            ServerProcess server = ServerProcess.start(new ArrayList<>(List.of("scale", "--serve", "scale", "--io",
                    layer.option(), "--peer-timeout", String.valueOf(peerTimeoutSeconds))));
            try {
                try {
                    d = new ScaleRun(new ScaleRun.Options(qps, layer, idleSeconds * 1000, rounds,
                            java.time.Duration.ofSeconds(peerTimeoutSeconds)), progress)
                            .run(server.address());
                } catch (RuntimeException e) {
                    String said = firstLines(server.output().lines().filter(l -> Listening.port(l).isEmpty()).toList());
                    throw new IllegalStateException(e.getMessage() + (said.isEmpty() ? "" : " (the server process: "
                            + said + ")") + (backlogWarning == null ? "" : "; " + backlogWarning), e);
                }
                server.awaitExit();
            } finally {
                server.destroy();
            }
            progress.clear();
        }
        if (json) {
            out.println(JsonCodec.write(d));
        } else {
            print(out, d);
        }
        out.flush();
        return d.ok() ? 0 : 1;
    }

    /** How many of the server's lines a failure quotes: when thousands of connections end, the first say why. */
    static final int QUOTED_LINES = 3;

    /** The server's first {@value #QUOTED_LINES} lines, joined, and how many more it printed. */
    static String firstLines(List<String> lines) {
        String quoted = String.join("; ", lines.subList(0, Math.min(QUOTED_LINES, lines.size())));
        int more = lines.size() - QUOTED_LINES;
        return more > 0 ? quoted + "; and " + more + " more lines" : quoted;
    }

    /**
     * {@code auto} where {@code wanted} descriptors do not fit under the hard limit: uring-direct,
     * whose sockets are not descriptors, if it runs here; else {@code asked}.
     */
    private JwarpConfig.SocketIo directIfBeyondLimit(JwarpConfig.SocketIo asked, long wanted) {
        if (asked != JwarpConfig.SocketIo.AUTO || OpenFileLimit.why() != null
                || wanted <= OpenFileLimit.get().hard()) {
            return asked;
        }
        String why = org.jwarp.engine.io.IoDrivers.whyNot(org.jwarp.engine.io.IoLayer.URING_DIRECT);
        if (why != null) {
            return asked;                           // the limit's own message follows
        }
        return JwarpConfig.SocketIo.URING_DIRECT;
    }

    /** Both processes' limit (the server inherits it); one line if it cannot be raised far enough. */
    private void raiseOpenFiles(long wanted) {
        String why = OpenFileLimit.why();
        if (why != null) {
            throw bad("--qps " + qps + " needs " + wanted + " open files, and the limit cannot be read here: " + why);
        }
        try {
            OpenFileLimit.raiseTo(wanted);
        } catch (IllegalStateException e) {
            long hard = OpenFileLimit.get().hard();
            throw bad("--qps " + qps + ": " + e.getMessage() + "; at most " + Math.max(0, hard - SPARE_FDS)
                    + " QPs fit under the hard limit " + hard + " here");
        }
    }

    static void print(PrintWriter out, ScaleDocument d) {
        out.printf(Locale.ROOT, "jwarp scale: %,d QPs between two processes (this one the client), server on %s,"
                + " socket I/O %s, threading %s%n", d.qps(), String.join(" ", d.addresses()), d.socketIo(), d.threading());
        out.printf(Locale.ROOT, "  connected     %,d QPs through MPA, a receive posted on each: %.2f s, %,.0f per s%n",
                d.qpsEstablished(), d.setupSeconds(), d.connectionsPerSecond());
        out.printf(Locale.ROOT, "  memory per QP %,d B (heap after GC + direct; client %,d B, server %,d B; resident"
                + " set client %,d B, server %,d B)%n", d.bytesPerQp(), d.client().bytesPerQp(), d.server().bytesPerQp(),
                d.client().rssBytesPerQp(), d.server().rssBytesPerQp());
        out.printf(Locale.ROOT, "  idle engines  %.3f %% of one CPU over %d s (client %.3f %%, server %.3f %%;"
                + " processes %.2f %% and %.2f %%)%n", d.idleEngineCpuPercent(), d.idleWindowMs() / 1000,
                d.client().idleEngineCpuPercent(), d.server().idleEngineCpuPercent(),
                d.client().idleProcessCpuPercent(), d.server().idleProcessCpuPercent());
        out.printf(Locale.ROOT, "  ping-pong     8 B WRITE on QP 0, %,d rounds: alone %.2f µs (p99 %.2f), beside %,d idle"
                + " QPs %.2f µs (p99 %.2f): %.2fx%n", d.pingpongRounds(), d.pingpongAloneUs(), d.pingpongAloneP99Us(),
                d.qps() - 1, d.pingpongBesideUs(), d.pingpongBesideP99Us(), d.pingpongRatio());
        out.printf(Locale.ROOT, "  every QP      a 64 B WRITE and an 8 B SEND: %,d bytes verified%n", d.bytesVerified());
        out.printf(Locale.ROOT, "  closed        %,d QPs in %.2f s%n", d.qps(), d.closeSeconds());
        out.printf(Locale.ROOT, "  after close   left: %d file descriptors, %d threads, %,d direct bytes%s%n",
                d.leaked().fds(), d.leaked().threads(), d.leaked().directBytes(), d.ok() ? "" : "  NOT OK");
    }

    private CommandLine.ParameterException bad(String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }
}
