package org.jwarp.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jwarp.bench.run.LoopbackRun;
import org.jwarp.bench.scale.SetupRate;
import org.jwarp.bench.scale.SetupWarmUp;
import org.jwarp.engine.provider.JwarpConfig;

/**
 * {@code jwarp bench}'s connection setup lines ({@link SetupRate}): connections established per
 * second, serially and with {@link #WINDOW} in flight, jwarp (MPA Request and Reply with
 * {@link #PRIVATE_DATA} bytes of private data each way, the RTR, both QPs in RTS) against TCP
 * connect plus a request and a reply of as many bytes; against one server process
 * ({@code jwarp scale --serve setup}) for all pairs, the order alternating, once both processes
 * are in steady state ({@link SetupWarmUp}).
 */
final class BenchSetupLines {

    static final int PRIVATE_DATA = 32;
    static final int WINDOW = 64;
    /** The most QPs either device holds at once: one in-flight run's, before they are closed. */
    static final int MAX_QPS = 4096;
    /** The longest warm-up, in seconds per second of {@code --seconds}: steady state comes first. */
    static final int WARM_UP_PER_SECOND = 20;

    private BenchSetupLines() {
    }

    /** A line: serial or in flight, and how many connections a run makes. */
    private record Line(String caseName, String label, int window, int connections) {
    }

    /** Runs the lines after a warm-up of at most {@code warmUpLimit} ({@link SetupWarmUp}), prints them, and returns their JSON rows. */
    static List<BenchDocument.Row> run(PrintWriter out, int pairs, boolean quick, JwarpConfig.SocketIo io,
                                          Duration warmUpLimit)
            throws IOException, InterruptedException {
        List<Line> lines = List.of(new Line("setup_serial", "connection setup, serial", 1, quick ? 100 : 1000),
                new Line("setup_in_flight", "connection setup, " + WINDOW + " in flight", WINDOW, quick ? 300 : 2000));
        List<BenchDocument.Row> rows = new ArrayList<>();
        ServerProcess server = ServerProcess.start(List.of("scale", "--serve", "setup", "--io", io.option(),
                "--private-data", String.valueOf(PRIVATE_DATA)));
        try (SetupRate rate = new SetupRate(server.address(), io, PRIVATE_DATA, MAX_QPS)) {
            // the setup path runs thousands of methods in two processes: measured before the JIT
            // compilers are done, the figures would be theirs
            SetupWarmUp.Result warm = SetupWarmUp.run(rate, lines.get(0).connections(), lines.get(1).connections(),
                    WINDOW, warmUpLimit);
            out.println(String.format(Locale.ROOT, " %-30s %d rounds, %.0f s%s", "connection setup, warm-up",
                    warm.rounds(), warm.seconds(), warm.steady() ? "" : " (the JIT compilers still running at its end)"));
            out.flush();
            for (Line line : lines) {
                double[][] perSecond = new double[2][pairs];
                double[][] cpu = new double[2][pairs];
                for (int p = 0; p < pairs; p++) {
                    for (int k = 0; k < 2; k++) {
                        int v = p % 2 == 0 ? k : 1 - k;  // the order alternates, as the other cases'
                        SetupRate.Rate r = v == 0 ? rate.jwarp(line.connections(), line.window())
                                : rate.sockets(line.connections(), line.window());
                        perSecond[v][p] = r.perSecond();
                        cpu[v][p] = r.cpuMicrosPerConnection();
                    }
                }
                double[] ratio = new double[pairs];
                for (int p = 0; p < pairs; p++) {
                    ratio[p] = perSecond[0][p] / perSecond[1][p];
                }
                for (int v = 0; v < 2; v++) {
                    String variant = v == 0 ? "jwarp" : "sockets";
                    LoopbackRun.Spread m = LoopbackRun.Spread.of(perSecond[v]);
                    out.println(String.format(Locale.ROOT, " %-30s %-16s %-30s %-26s %-18s", line.label(), variant,
                            m.format(0) + " conn/s", String.format(Locale.ROOT, "CPU %.0f µs/conn",
                                    LoopbackRun.Spread.of(cpu[v]).median()),
                            v == 0 ? LoopbackRun.Spread.of(ratio).toString() : ""));
                    rows.add(new BenchDocument.Row(line.caseName(), line.label(), variant, "connections/s",
                            FigureRuns.of(perSecond[v]), "us of this process's CPU per connection",
                            FigureRuns.of(cpu[v]), v == 0 ? FigureRuns.of(ratio) : null, null));
                }
                out.flush();
            }
        } finally {
            server.destroy();
        }
        return rows;
    }
}
