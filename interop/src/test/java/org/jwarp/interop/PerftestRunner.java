package org.jwarp.interop;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs a {@link PerftestCell}: perftest in the guest, {@code jwarp ... --perftest} in this JVM
 * through the real command. A cell passes when both sides end well and print their result row
 * for the size and iteration count asked; in WRITE and READ bandwidth the passive server prints
 * the numbers the client sent it, which must be the client's own.
 */
final class PerftestRunner {

    /** A result row: size, iterations, then numbers. */
    private static final Pattern ROW = Pattern.compile("(?m)^\\s*(\\d+)\\s+(\\d+)\\s+([0-9.]+)\\s+([0-9.]+)\\s+([0-9.]+)");
    /** What perftest prints when something went wrong. */
    private static final Pattern TROUBLE = Pattern.compile("(?i)bad wc|failed|couldn't|unable|error|mismatch");

    /**
     * perftest times its runs in CPU cycles and calibrates the clock rate by regression over short
     * timed loops; in the emulated guest under load the fit can fail, and perftest then ends without
     * its report or its closing exchange. Not an interop failure: the cell is run again.
     */
    static final String CLOCK_FAILURE = "Can't produce a report";
    static final String CLOCK_FAILURE_DETAIL = "perftest could not calibrate its clock in the emulated guest "
            + "(\"Correlation coefficient r^2 < 0.9\", \"Can't produce a report\")";

    private final SiwVm vm;

    PerftestRunner(SiwVm vm) {
        this.vm = vm;
    }

    ToolResult run(PerftestCell c) throws InterruptedException {
        List<String> opts = new ArrayList<>(c.common());
        String perftestArgs = String.join(" ", opts);
        List<String> args = new ArrayList<>(List.of(c.jwarpCommand(), "--perftest"));
        args.addAll(opts);
        if (!c.crc()) {
            args.addAll(List.of("--crc", "off"));
        }
        String siw;
        int siwExit;
        CellRunner.Jwarp j;
        if (c.jwarpClient()) {
            vm.guestBackground("pts", "ib_" + c.test() + " -R -d siw0 -p " + SiwVm.GUEST_PERFTEST_PORT + " " + perftestArgs
                    + "; echo \"exit $?\"");
            if (!vm.awaitGuestListen(SiwVm.GUEST_PERFTEST_PORT, Duration.ofSeconds(30))) {
                vm.guestKill("pts");
                return fail(c, "perftest's server did not start listening" + vm.healthNote(), "");
            }
            args.addAll(List.of("-p", "" + SiwVm.GUEST_PERFTEST_PORT, "127.0.0.1"));
            j = CellRunner.Jwarp.run(args);
            boolean exited = vm.awaitJob("pts", Duration.ofSeconds(j.exit == 0 ? 60 : 5));
            if (!exited) {
                vm.guestKill("pts");
            }
            siw = vm.jobLog("pts");
            siwExit = exited ? exitOf(siw) : -1;
        } else {
            args.addAll(List.of("-p", "" + SiwVm.HOST_PERFTEST_PORT));
            j = CellRunner.Jwarp.start(args, "waiting for perftest");
            if (!j.awaitMarker(Duration.ofSeconds(20))) {
                j.stop();
                return fail(c, "jwarp did not listen: " + CellRunner.firstLine(j.err), j.out + j.err);
            }
            SiwVm.Result r = vm.guest(Duration.ofSeconds(120), "ib_" + c.test() + " -R -d siw0 -p "
                    + SiwVm.HOST_PERFTEST_PORT + " " + perftestArgs + " " + SiwVm.HOST_FROM_GUEST + " 2>&1");
            if (!j.await(Duration.ofSeconds(60))) {
                j.stop();
            }
            siw = r.output();
            siwExit = r.exit();
        }
        String log = "--- perftest ib_" + c.test() + " (exit " + siwExit + ")\n" + siw + "--- jwarp "
                + String.join(" ", args) + " (exit " + j.exit + ")\n" + j.out + j.err;
        Matcher ours = ROW.matcher(j.out);
        Matcher theirs = ROW.matcher(siw);
        // the server of READ latency has nothing to time: its engine answers the READs (perftest's
        // server prints no row)
        boolean readLat = c.test().equals("read_lat");
        boolean jwarpTimes = c.jwarpClient() || !readLat;
        boolean perftestTimes = !c.jwarpClient() || !readLat;
        boolean oursRow = !jwarpTimes || ours.find() && rowMatches(ours, c);
        boolean theirsRow = !perftestTimes || theirs.find() && rowMatches(theirs, c);
        String failure = siw.contains(CLOCK_FAILURE) ? CLOCK_FAILURE_DETAIL
                : j.exit != 0 ? "jwarp: " + CellRunner.firstLine(j.err)
                : siwExit != 0 ? "perftest exited " + siwExit + ": " + trouble(siw)
                : TROUBLE.matcher(siw).find() ? "perftest reported: " + trouble(siw)
                : !oursRow ? "jwarp printed no result row for -s " + c.size()
                : !theirsRow ? "perftest printed no result row for -s " + c.size() : null;
        if (failure == null && passiveServer(c) && !ours.group(4).equals(theirs.group(4))) {
            // both rows are the client's measurement: the server shows what the client reported
            failure = "the server's row (" + theirs.group(4) + " MB/s) is not the client's (" + ours.group(4) + ")";
        }
        if (failure != null) {
            return fail(c, failure, log);
        }
        return new ToolResult(c.name(), true, (jwarpTimes ? "jwarp " + describe(ours, c) : "jwarp served the READs") + "; perftest "
                + (perftestTimes ? describe(theirs, c) : "served the READs"), log);
    }

    /** WRITE and READ bandwidth: the server's application is idle and shows the client's report. */
    private static boolean passiveServer(PerftestCell c) {
        return c.test().equals("write_bw") || c.test().equals("read_bw");
    }

    private static boolean rowMatches(Matcher m, PerftestCell c) {
        long n = Long.parseLong(m.group(2));
        // latency tests with perftest's halving report one sample fewer than iterations
        return Integer.parseInt(m.group(1)) == c.size() && (n == c.iterations() || n == c.iterations() - 1);
    }

    private static String describe(Matcher m, PerftestCell c) {
        return c.test().endsWith("_bw") ? m.group(4) + " MB/s" : m.group(5) + " µs typical";
    }

    private static int exitOf(String log) {
        Matcher m = Pattern.compile("(?m)^exit (\\d+)$").matcher(log);
        int exit = -1;
        while (m.find()) {
            exit = Integer.parseInt(m.group(1));
        }
        return exit;
    }

    private static String trouble(String s) {
        return s.lines().filter(l -> TROUBLE.matcher(l).find()).findFirst().orElse(CellRunner.firstLine(s));
    }

    private static ToolResult fail(PerftestCell c, String detail, String log) {
        return new ToolResult(c.name(), false, detail, log);
    }
}
