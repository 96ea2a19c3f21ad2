package org.jwarp.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.jwarp.bench.json.JsonCodec;
import org.jwarp.engine.counters.CounterFile;
import org.jwarp.engine.counters.CounterFileReader;
import org.jwarp.engine.counters.EngineCounters;
import org.jwarp.engine.counters.CounterFileReader.Group;
import org.jwarp.engine.counters.CounterFileReader.Snapshot;
import org.jwarp.verbs.CounterNames;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code jwarp stat}: the counters of the jwarp devices of running processes, read from the
 * counters files they publish (docs/design.md rule 9) — without touching the processes themselves.
 */
@Command(name = "stat", mixinStandardHelpOptions = true,
        description = {"Counters of the jwarp devices in running processes: per device, per engine thread and per "
                + "queue pair (FPDUs and bytes in and out, doorbells, wake-ups, Terminates, CRC errors, bytes "
                + "placed straight from the socket).",
                "Each device publishes them every 200 ms to /dev/shm/jwarp/PID-DEVICE.counters (or jwarp under "
                        + "java.io.tmpdir; JWARP_STAT_DIR or -Djwarp.stat.dir elsewhere). Files of processes that "
                        + "are gone are removed."})
final class StatCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(arity = "0..1", paramLabel = "PID", description = "Only this process.")
    Long pid;

    @Option(names = "--watch", paramLabel = "SECONDS",
            description = "Print again every SECONDS (e.g. 1 or 0.5) until interrupted.")
    Double watch;

    @Option(names = "--count", paramLabel = "N", description = "With --watch: stop after N prints.")
    Integer count;

    @Option(names = "--json", description = "One JSON object per print (one line each, schema " + StatDocument.SCHEMA + ").")
    boolean json;

    @Option(names = "--dir", paramLabel = "DIR", description = "Where the counters files are (default: as above).")
    Path dir;

    @Override
    public Integer call() throws IOException, InterruptedException {
        if (watch != null && !(watch > 0 && watch <= 86_400)) {
            throw new ParameterException(spec.commandLine(), "--watch must be a number of seconds above 0, e.g. 1: " + watch);
        }
        if (count != null && count < 1) {
            throw new ParameterException(spec.commandLine(), "--count must be at least 1: " + count);
        }
        if (count != null && watch == null) {
            throw new ParameterException(spec.commandLine(), "--count goes with --watch, e.g. --watch 1 --count 10");
        }
        Path d = dir != null ? dir : CounterFile.directory();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (d == null) {
            err.println("jwarp stat: counters publication is off (" + CounterFile.DIRECTORY_ENV
                    + "=off); give the directory with --dir DIR");
            return 1;
        }
        List<Snapshot> previous = null;
        for (int printed = 0; ; printed++) {
            List<Snapshot> all = CounterFileReader.readAll(d, true);
            List<Snapshot> shown = pid == null ? all : all.stream().filter(s -> s.pid() == pid).toList();
            if (shown.isEmpty()) {
                err.println("jwarp stat: " + (pid == null ? "no jwarp processes (no counters files in " + d + ")"
                        : "no jwarp process with pid " + pid + (all.isEmpty() ? "" : " (jwarp processes: "
                        + pids(all) + ")")));
                return 1;
            }
            long now = System.currentTimeMillis();
            out.print(json ? json(shown, now) + System.lineSeparator() : table(shown, now));
            if (!json && previous != null) {
                out.print(rates(previous, shown));
            }
            previous = shown;
            out.flush();
            if (watch == null || (count != null && printed + 1 >= count)) {
                return 0;
            }
            Thread.sleep((long) (watch * 1000)); // a refresh period, not a wait for an event
            if (!json) {
                out.println();
            }
        }
    }

    private static String pids(List<Snapshot> all) {
        return String.join(", ", all.stream().map(s -> Long.toString(s.pid())).distinct().toList());
    }

    /** The human-readable form: per device a title line, then one row per counter group. */
    static String table(List<Snapshot> snapshots, long nowMillis) {
        StringBuilder b = new StringBuilder();
        for (Snapshot s : snapshots) {
            b.append(String.format(Locale.ROOT, "pid %d  device %d  %s  up %s  published %s ago%s%n", s.pid(),
                    s.device(), s.label(), duration(nowMillis - s.startMillis()),
                    duration(Math.max(0, nowMillis - s.publishedAtMillis())),
                    s.truncated() ? "  (some queue pairs left out: the file is full)" : ""));
            List<String> names = new ArrayList<>();
            for (Group g : s.groups()) {
                for (String n : g.names()) {
                    if (!names.contains(n)) {
                        names.add(n);
                    }
                }
            }
            int scopeWidth = "scope".length();
            for (Group g : s.groups()) {
                scopeWidth = Math.max(scopeWidth, g.scope().length());
            }
            int[] widths = new int[names.size()];
            for (int i = 0; i < names.size(); i++) {
                widths[i] = names.get(i).length();
                for (Group g : s.groups()) {
                    widths[i] = Math.max(widths[i], cell(g, names.get(i)).length());
                }
            }
            b.append(String.format("  %-" + scopeWidth + "s", "scope"));
            for (int i = 0; i < names.size(); i++) {
                b.append(String.format("  %" + widths[i] + "s", names.get(i)));
            }
            b.append(System.lineSeparator());
            for (Group g : s.groups()) {
                b.append(String.format("  %-" + scopeWidth + "s", g.scope()));
                for (int i = 0; i < names.size(); i++) {
                    b.append(String.format("  %" + widths[i] + "s", cell(g, names.get(i))));
                }
                b.append(System.lineSeparator());
            }
        }
        return b.toString();
    }

    /**
     * With --watch, from the second print on: per engine thread, what changed since the last print,
     * as rates — wake-ups per second (its parks: each ends in a wake-up), FPDUs per wake-up, MB/s in
     * and out, busy CPU and CPU per KiB (seed 004's per-processor figures).
     */
    static String rates(List<Snapshot> before, List<Snapshot> after) {
        StringBuilder b = new StringBuilder();
        for (Snapshot s : after) {
            Snapshot p = before.stream().filter(o -> o.pid() == s.pid() && o.device() == s.device()).findFirst()
                    .orElse(null);
            if (p == null || s.publishedAtMillis() <= p.publishedAtMillis()) {
                continue;
            }
            double seconds = (s.publishedAtMillis() - p.publishedAtMillis()) / 1000.0;
            boolean title = false;
            for (Group g : s.groups()) {
                Group o = p.groups().stream().filter(x -> x.scope().equals(g.scope())).findFirst().orElse(null);
                if (o == null || !g.scope().startsWith("engine-")) {
                    continue;
                }
                if (!title) {
                    b.append(String.format(Locale.ROOT, "  pid %d device %d, per engine thread over the last %.1f s:%n",
                            s.pid(), s.device(), seconds));
                    title = true;
                }
                long parks = delta(o, g, EngineCounters.IDLE_PARKS);
                long fpdus = delta(o, g, CounterNames.FPDUS_RX) + delta(o, g, CounterNames.FPDUS_TX);
                long bytes = delta(o, g, CounterNames.BYTES_RX) + delta(o, g, CounterNames.BYTES_TX);
                long cpu = g.get(CounterNames.CPU_NS) < 0 ? -1 : delta(o, g, CounterNames.CPU_NS);
                b.append(String.format(Locale.ROOT, "  %-10s wake-ups/s %9.0f  FPDUs/wake-up %9s  MB/s %9.1f  CPU %s"
                                + "  ns CPU/KiB %s%n", g.scope(), parks / seconds,
                        parks == 0 ? (fpdus == 0 ? "-" : "no park") : String.format(Locale.ROOT, "%.1f", (double) fpdus / parks),
                        bytes / seconds / (1 << 20),
                        cpu < 0 ? "-" : String.format(Locale.ROOT, "%5.1f %%", cpu / seconds / 1e7),
                        cpu < 0 || bytes == 0 ? "-" : String.format(Locale.ROOT, "%.0f", cpu * 1024.0 / bytes)));
            }
        }
        return b.toString();
    }

    private static long delta(Group before, Group after, String name) {
        long a = after.get(name);
        long b = before.get(name);
        return a < 0 || b < 0 ? 0 : Math.max(0, a - b);
    }

    /** A counter's value; "-" where the group has none, or where it is not known (-1: cpu.ns of an invoked engine). */
    private static String cell(Group g, String name) {
        int i = g.names().indexOf(name);
        return i < 0 || g.values()[i] < 0 ? "-" : Long.toString(g.values()[i]);
    }

    /** 3d04h, 2h05m, 4m07s, 12.3s, 0.2s. */
    static String duration(long millis) {
        Duration d = Duration.ofMillis(Math.max(0, millis));
        if (d.toDays() > 0) {
            return String.format("%dd%02dh", d.toDays(), d.toHoursPart());
        }
        if (d.toHours() > 0) {
            return String.format("%dh%02dm", d.toHours(), d.toMinutesPart());
        }
        if (d.toMinutes() > 0) {
            return String.format("%dm%02ds", d.toMinutes(), d.toSecondsPart());
        }
        return String.format(Locale.ROOT, "%.1fs", millis / 1000.0);
    }

    /** The machine-readable form: one JSON line, processes by pid, their devices, groups by scope. */
    static String json(List<Snapshot> snapshots, long nowMillis) {
        return JsonCodec.line(StatDocument.of(snapshots, nowMillis));
    }
}
