package org.jwarp.bench.experiments;

import static org.jwarp.bench.experiments.Rows.f;
import static org.jwarp.bench.experiments.Rows.max;
import static org.jwarp.bench.experiments.Rows.medians;
import static org.jwarp.bench.experiments.Rows.min;
import static org.jwarp.bench.experiments.Rows.size;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Software iWARP against TCP, MPA CRC on and off (seed 002); the paper gives numbers, set beside ours. */
final class IwarpVsTcp extends SeedExperiment {

    IwarpVsTcp() {
        super("iwarp-vs-tcp", "seed 002 Tables 1-2, Fig. 2-4: latency and throughput, jwarp (MPA CRC on, off) "
                + "vs Java TCP sockets; each side's CPU by thread time and by a cycle soaker",
                new Paper("Software iWARP against TCP, CRC on and off (seed 002)",
                    "seed 002 Tables 1, 2, Fig. 2-4",
                    "Does a software iWARP stack keep up with TCP in latency and throughput, what does the MPA CRC cost, "
                            + "and how much CPU does each side use?",
                    "Software iWARP was within a few µs of TCP's latency (kernel stack with CRC 20.3 µs at 4 B and "
                            + "615.5 µs at 64 kB, TCP 16.9 and 594.8 µs), about 10 Mb/s below TCP in throughput on "
                            + "1 GbE, the CRC costing about 8 Mb/s; its host ran near full CPU load, much of it the CRC."));
    }

    @Override
    public TableWords tableWords() {
        return TableWords.parts(Map.of("latency", "Latency (ping-pong)", "throughput", "Throughput (one-way stream)"));
    }

    @Override
    public List<String> help() {
        return List.of("Seed 002's Tables 1-2 and Fig. 2-4: RDMA WRITE ping-pong latency and one-way stream "
                + "throughput between two jwarp processes with MPA CRC on and off, against Java TCP sockets; during "
                + "the stream, each side's CPU by message size, by thread CPU time and by a low-priority cycle soaker "
                + "on each side's CPU (server on CPU 0, client on CPU 1).",
                "Quick: latency at 4 B and 64 KiB, throughput at 4 and 64 KiB for 1 s, one run per point.");
    }

    @Override
    public List<ExperimentOption> options() {
        return List.of(ExperimentOption.REPEATS,
                ExperimentOption.list("--latency-sizes", "BYTES,...", Integer.class, "Ping-pong sizes instead of the "
                        + "mode's."),
                ExperimentOption.list("--throughput-sizes", "BYTES,...", Integer.class, "Stream message sizes instead "
                        + "of the mode's."),
                ExperimentOption.one("--seconds", "S", Double.class, "Seconds per throughput run instead of the "
                        + "mode's."));
    }

    @Override
    public void run(ExperimentRun run) throws Exception {
        IwarpVsTcpExperiment.Plan base = run.quick() ? IwarpVsTcpExperiment.Plan.quick()
                : IwarpVsTcpExperiment.Plan.full();
        IwarpVsTcpExperiment.Plan plan = new IwarpVsTcpExperiment.Plan(run.sizes("--latency-sizes",
                base.latencySizes()), run.sizes("--throughput-sizes", base.throughputSizes()),
                run.repeats(base.repeats()), base.roundTrips(), run.range("--seconds", base.seconds(), 0.1, 600),
                base.calibrateMillis());
        IwarpVsTcpExperiment.Pinning pin = IwarpVsTcpExperiment.Pinning.forThisMachine();
        List<String> notes = new ArrayList<>();
        notes.add(Runtime.getRuntime().availableProcessors() + " CPUs; " + pin.description()
                + "; jwarp in its default threading mode for a one-CPU process");
        notes.add("the machine may be shared: a soaker counts any other work on its CPU as load");
        Path dir = run.dir();
        run.out().printf(java.util.Locale.ROOT, "jwarp experiment iwarp-vs-tcp (%s): latency sizes %s, throughput "
                + "sizes %s (%.1f s), %d run(s) per point; %s%n", run.mode(), plan.latencySizes(), plan.throughputSizes(),
                plan.seconds(), plan.repeats(), pin.description());
        run.out().flush();
        List<IwarpVsTcpExperiment.Point> points;
        int total = plan.repeats() * IwarpVsTcpExperiment.STACKS.size() * (plan.latencySizes().size()
                + plan.throughputSizes().size());
        try (ExperimentProgress bar = new ExperimentProgress(run.out(), total)) {
            points = new ArrayList<>(IwarpVsTcpExperiment.latency(run.jwarp(), plan, pin, p -> bar.point(line(p))));
            points.addAll(IwarpVsTcpExperiment.throughput(run.jwarp(), plan, pin, notes, p -> bar.point(line(p))));
        }
        ExperimentData.printSummary(run.out(), dir, IwarpVsTcpExperiment.write(dir, plan, points, run.mode(), notes));
    }

    private static String line(IwarpVsTcpExperiment.Point p) {
        return p.part().equals("latency")
                ? f("  latency    %-11s %7d B: typical %9.2f us, p99 %9.2f us", p.stack(), p.size(), p.typicalUs(),
                        p.p99Us())
                : f("  throughput %-11s %7d B: %7.3f Gb/s; CPU %% sender %3.0f (soaker %3.0f), receiver %3.0f (soaker "
                        + "%3.0f)", p.stack(), p.size(), p.gbps(), p.clientThreadPct(), p.clientSoakPct(),
                        p.serverThreadPct(), p.serverSoakPct());
    }

    @Override
    public Verdict verdict(RunResult e) {
        Map<String, Double> gbps = medians(e, List.of("part", "size", "stack"), "gbps");
        Map<String, Double> lat = medians(e, List.of("part", "size", "stack"), "typical_us");
        Map<String, Double> tx = medians(e, List.of("part", "size", "stack"), "client_soak_pct");
        Map<String, Double> rx = medians(e, List.of("part", "size", "stack"), "server_soak_pct");
        StringBuilder crc = new StringBuilder();
        StringBuilder cpu = new StringBuilder();
        double leastCrc = Double.NaN;
        double mostCrc = Double.NaN;
        for (String k : gbps.keySet()) {
            if (!k.endsWith("|jwarp-crc")) {
                continue;
            }
            String base = k.substring(0, k.length() - "jwarp-crc".length());
            Double off = gbps.get(base + "jwarp-nocrc");
            Double tcp = gbps.get(base + "tcp");
            double on = gbps.get(k);
            String s = size(base.split("\\|")[1]);
            if (off != null) {
                leastCrc = Double.isNaN(leastCrc) ? on / off : Math.min(leastCrc, on / off);
                mostCrc = Double.isNaN(mostCrc) ? on / off : Math.max(mostCrc, on / off);
                crc.append(f("%s %.0f Mb/s (%.0f %%); ", s, (off - on) * 1000, 100 * (off - on) / off));
            }
            if (tcp != null && tx.containsKey(k) && tx.containsKey(base + "tcp")) {
                cpu.append(f("%s sender %.2f, receiver %.2f; ", s, tx.get(k) / on / (tx.get(base + "tcp") / tcp),
                        rx.get(k) / on / (rx.get(base + "tcp") / tcp)));
            }
        }
        StringBuilder latency = new StringBuilder();
        double worstLatency = 0;
        for (String k : lat.keySet()) {
            String base = k.substring(0, k.lastIndexOf('|') + 1);
            if (k.endsWith("|jwarp-crc") && lat.containsKey(base + "tcp")) {
                double r = lat.get(k) / lat.get(base + "tcp");
                worstLatency = Math.max(worstLatency, r);
                latency.append(f("%s %.2f; ", size(base.split("\\|")[1]), r));
            }
        }
        if (crc.isEmpty() || latency.isEmpty()) {
            return Verdict.none("the run lacks a latency point against TCP or a throughput point with CRC on and off.");
        }
        // the paper: kernel software iWARP 1.20x TCP's latency at 4 B (20.3 / 16.9 us), 1.03x at 64 kB; CRC 8 Mb/s of ~600
        boolean nearTcp = worstLatency <= 1.25;
        boolean cheapCrc = leastCrc >= 0.9;
        String headline = f("latency at most %.2f× TCP's (the paper: 1.20× at 4 B); throughput with the CRC %.2f-%.2f× "
                + "without it (the paper: 8 Mb/s less, about 0.99×)", worstLatency, leastCrc, mostCrc);
        List<List<String>> rows = new ArrayList<>();
        rows.add(List.of("paper: kernel software iWARP, CRC on (Table 2)", "20.3", "615.5"));
        rows.add(List.of("paper: kernel software iWARP, CRC off (Table 2)", "20.1", "604.5"));
        rows.add(List.of("paper: TCP (Table 1)", "16.9", "594.8"));
        for (String[] st : new String[][] {{"jwarp-crc", "jwarp, CRC on"}, {"jwarp-nocrc", "jwarp, CRC off"},
            {"tcp", "Java TCP sockets"}}) {
            rows.add(List.of("ours: " + st[1], Rows.number(lat.getOrDefault("latency|4|" + st[0], Double.NaN)),
                    Rows.number(lat.getOrDefault("latency|65536|" + st[0], Double.NaN))));
        }
        return new Verdict(Verdict.of((nearTcp ? 1 : 0) + (cheapCrc ? 1 : 0), 2), headline, "The MPA CRC cost jwarp "
                + crc + "(the paper: about 8 Mb/s on 1 GbE, where the link bounded every stack). Latency, jwarp with CRC "
                + "/ TCP: " + latency + "soaker CPU per Gb/s, jwarp with CRC / TCP: " + cpu + "(the paper: software "
                + "iWARP near full load, TCP less).").withComparison(List.of("one-way latency, µs", "4 B", "64 KiB"), rows);
    }
}
