package org.jwarp.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.jwarp.degen.LinkParams;
import org.jwarp.degen.RouterTuning;
import org.jwarp.degen.testbed.Emulator;
import org.jwarp.degen.testbed.Testbed;
import org.jwarp.degen.testbed.TestbedException;
import org.jwarp.degen.testbed.Topology;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code jwarp experiment latency}: seed 000's Fig. 3 (latency by size) and Fig. 8 (latency by WAN delay). */
@Command(name = "latency", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Seed 000's Fig. 3 and Fig. 8: one-way latency of an RDMA WRITE ping-pong against a TCP sockets "
                + "ping-pong, by message size with no added delay (two processes on loopback), and at 1 KiB by the "
                + "one-way delay degen adds between the testbed's two hosts (needs root; skipped otherwise)."})
final class LatencyExperimentCommand implements Callable<Integer> {

    static final String TESTBED_NAME = "jwlat";

    @Spec
    CommandSpec spec;

    @Option(names = "--quick", description = "5 sizes, delays 0, 2 and 10 ms, one run per point (under 2 minutes).")
    boolean quick;

    @Option(names = "--where", paramLabel = "PLACE", defaultValue = "auto", description = "loopback (sizes only), "
            + "both, or auto: the delay sweep too when running as root (default: ${DEFAULT-VALUE}).")
    String where;

    @Option(names = "--repeats", paramLabel = "N", description = "Runs per point instead of the mode's.")
    Integer repeats;

    @Option(names = "--sizes", paramLabel = "BYTES,...", split = ",", description = "Message sizes instead of the mode's.")
    List<Integer> sizes;

    @Option(names = "--out", paramLabel = "DIR", description = "Output directory (default results/latency-TIMESTAMP).")
    Path out;

    @Override
    public Integer call() throws Exception {
        LatencyExperiment.Plan base = quick ? LatencyExperiment.Plan.quick() : LatencyExperiment.Plan.full();
        if (repeats != null && (repeats < 1 || repeats > 50)) {
            throw new ParameterException(spec.commandLine(), "--repeats must be 1 to 50, not " + repeats);
        }
        if (sizes != null) {
            for (int sz : sizes) {
                if (sz < 1 || sz > (1 << 23)) {
                    throw new ParameterException(spec.commandLine(), "--sizes takes sizes of 1 to 8388608 bytes, not " + sz);
                }
            }
        }
        LatencyExperiment.Plan plan = new LatencyExperiment.Plan(sizes != null ? List.copyOf(sizes) : base.sizes(),
                base.delaysMs(),
                repeats == null ? base.repeats() : repeats, base.iterations());
        List<String> notes = new ArrayList<>();
        notes.add(Runtime.getRuntime().availableProcessors() + " CPUs; no pinning: each process's threads go where the "
                + "kernel puts them; jwarp in its default threading mode");
        boolean delays = switch (where.toLowerCase(Locale.ROOT)) {
            case "loopback" -> false;
            case "both" -> true;
            case "auto" -> {
                try {
                    Testbed.requireCapable();
                    yield true;
                } catch (TestbedException e) {
                    notes.add("delay sweep skipped: " + e.getMessage());
                    yield false;
                }
            }
            default -> throw new ParameterException(spec.commandLine(), "--where takes loopback, both or auto, not '"
                    + where + "'");
        };
        PrintWriter pw = spec.commandLine().getOut();
        Path dir = out != null ? out : Path.of("results", "latency-" + LocalDateTime.now()
                .format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT)));
        pw.printf(Locale.ROOT, "jwarp experiment latency (%s): sizes %s%s, %d run(s) per point%n", quick ? "quick" : "full",
                plan.sizes(), delays ? ", delays " + plan.delaysMs() + " ms at 1 KiB" : "", plan.repeats());
        pw.flush();
        List<LatencyExperiment.Point> points = new ArrayList<>(LatencyExperiment.sizes(plan,
                LatencyExperiment.Hosts.loopback(), p -> progress(pw, p)));
        if (delays) {
            Testbed tb = new Testbed(TESTBED_NAME);
            Topology t = tb.topologyFor(1500, 1500);
            LatencyExperiment.Hosts hosts = new LatencyExperiment.Hosts(List.of("ip", "netns", "exec", t.nsB()),
                    List.of("ip", "netns", "exec", t.nsA()), t.addressOf("B"));
            try {
                for (double d : plan.delaysMs()) {
                    LinkParams link = LinkParams.passThrough().withDelay((long) (d * 1_000_000));
                    tb.up(Emulator.DEGEN, tb.config(link, link, 1500, 1500, RouterTuning.DEFAULT, 1), null);
                    for (int r = 0; r < plan.repeats(); r++) {
                        for (String tr : LatencyExperiment.TRANSPORTS) {
                            LatencyExperiment.Point p = LatencyExperiment.delayPoint(plan, hosts, tr, d, r);
                            points.add(p);
                            progress(pw, p);
                        }
                    }
                    tb.stats().ifPresent(s -> notes.add(String.format(Locale.ROOT, "degen at %.1f ms: %s", d,
                            s.render().strip().replace('\n', ' '))));
                    tb.down();
                }
            } finally {
                try {
                    tb.down();
                } catch (IOException e) {
                    pw.println("taking the testbed down failed: " + e.getMessage());
                }
            }
            notes.add("delay sweep: hosts A and B of testbed " + TESTBED_NAME + " (network namespaces) joined by degen, "
                    + "MTU 1500, the delay added in each direction");
        }
        List<java.nio.file.Path> files = LatencyExperiment.write(dir, plan, points, quick ? "quick" : "full", notes);
        pw.println();
        pw.print(java.nio.file.Files.readString(dir.resolve("README.md")).lines()
                .filter(l -> l.startsWith("|")).reduce("", (a, b) -> a + b + "\n"));
        pw.println("wrote " + files.size() + " files to " + dir);
        pw.flush();
        return 0;
    }

    private static void progress(PrintWriter pw, LatencyExperiment.Point p) {
        pw.printf(Locale.ROOT, "  %-5s %-16s %6d B  delay %5.1f ms: typical %9.2f us, p99 %9.2f us%n", p.part(),
                p.transport(), p.size(), p.delayMs(), p.typicalUs(), p.p99Us());
        pw.flush();
    }
}
