package org.jwarp.interop;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jwarp.cli.rping.RpingPattern;

/**
 * Runs one {@link Cell}: jwarp's rping in this JVM (through the real {@code jwarp rping} command
 * line), siw's rping in the guest, and judges the result from both sides' output: the client's
 * {@code -V} compares the echo with what it sent, and each side's ping lines are compared with
 * rping's data pattern (so the bytes siw READ from jwarp, and those jwarp READ from siw, are checked
 * too).
 */
final class CellRunner {

    /** Longest wait for one step (connection, a completion) on the jwarp side. */
    static final int STEP_TIMEOUT_S = 30;
    private static final Pattern RATE = Pattern.compile("(?m)^(?:client|server): (\\d+) pings of (\\d+) bytes in ([0-9.]+) s: ([0-9.]+) pings/s$");

    private final SiwVm vm;

    CellRunner(SiwVm vm) {
        this.vm = vm;
    }

    CellResult run(Cell cell) throws InterruptedException {
        return cell.toSiw() ? toSiw(cell) : fromSiw(cell);
    }

    /** jwarp rping -c  ->  siw rping -s (non-persistent, so it exits and its output is complete). */
    private CellResult toSiw(Cell cell) throws InterruptedException {
        // stderr apart: rping's stdout is block-buffered, so its unbuffered stderr lines would land
        // in the middle of a long ping line
        vm.guestBackground("srv", "rping -s -a 0.0.0.0 -p " + SiwVm.GUEST_RPING_PORT + " -v -S " + RpingPattern.MAX_SIZE
                + " 2>/tmp/bg/srv.err");
        if (!vm.awaitGuestListen(SiwVm.GUEST_RPING_PORT, Duration.ofSeconds(30))) {
            vm.guestKill("srv");
            return fail(cell, "siw rping -s did not start listening" + vm.healthNote(), "");
        }
        List<String> args;
        if (cell.config().disni()) {
            args = List.of("-c", "-a", "127.0.0.1", "-p", "" + SiwVm.GUEST_RPING_PORT, "-C", "" + cell.count(), "-S",
                    "" + cell.size(), "-V", "-t", "" + STEP_TIMEOUT_S);
        } else {
            args = new ArrayList<>(List.of("rping", "-c", "-a", "127.0.0.1", "-p", "" + SiwVm.GUEST_RPING_PORT,
                    "-C", "" + cell.count(), "-S", "" + cell.size(), "-V", "-d", "--timeout", "" + STEP_TIMEOUT_S));
            args.addAll(cell.config().args());
        }
        Jwarp j = Jwarp.run(HostRping.of(cell.config()), args);
        // a refused connection never reaches siw's rping, which then waits for another: do not wait long
        boolean exited = vm.awaitJob("srv", Duration.ofSeconds(j.exit == 0 ? 30 : 3));
        if (!exited) {
            vm.guestKill("srv");
        }
        String siw = vm.jobLog("srv") + vm.guest(Duration.ofSeconds(20), "cat /tmp/bg/srv.err").output();
        String log = "--- jwarp rping " + String.join(" ", args) + " (exit " + j.exit + ")\n" + j.out + j.err
                + "--- siw rping -s" + (exited ? "" : " (killed: still running)") + "\n" + siw;
        List<String> expectedLines = expectedLines("server ping data: ", cell);
        boolean siwSawPattern = siw.lines().filter(l -> l.startsWith("server ping data: ")).toList().equals(expectedLines);
        return judge(cell, j, j.exit == 0 && siwSawPattern && exited, log,
                j.exit != 0 ? firstLine(j.err) : !siwSawPattern ? "siw's server did not read rping's data pattern from jwarp"
                        : !exited ? "siw's server did not exit" : "");
    }

    /** siw rping -c  ->  jwarp rping -s (in this JVM, listening before the guest connects). */
    private CellResult fromSiw(Cell cell) throws InterruptedException {
        List<String> args;
        if (cell.config().disni()) {
            args = List.of("-s", "-a", "127.0.0.1", "-p", "" + SiwVm.HOST_RPING_PORT, "-S", "" + RpingPattern.MAX_SIZE,
                    "-t", "" + STEP_TIMEOUT_S);
        } else {
            args = new ArrayList<>(List.of("rping", "-s", "-a", "127.0.0.1", "-p", "" + SiwVm.HOST_RPING_PORT,
                    "-S", "" + RpingPattern.MAX_SIZE, "-V", "-d", "--timeout", "" + STEP_TIMEOUT_S));
            args.addAll(cell.config().args());
        }
        Jwarp server = Jwarp.start(HostRping.of(cell.config()), args, "listening on");
        if (!server.awaitMarker(Duration.ofSeconds(20))) {
            server.stop();
            return fail(cell, "jwarp rping -s did not listen: " + firstLine(server.err), server.out + server.err);
        }
        String cmd = "rping -c -a " + SiwVm.HOST_FROM_GUEST + " -p " + SiwVm.HOST_RPING_PORT + " -C " + cell.count() + " -S "
                + cell.size() + " -v -V 2>/tmp/cli.err; rc=$?; cat /tmp/cli.err; exit $rc";
        SiwVm.Result siw = vm.guest(Duration.ofSeconds(STEP_TIMEOUT_S * 2L), cmd);
        if (!server.await(Duration.ofSeconds(STEP_TIMEOUT_S + 10))) {
            server.stop();
        }
        String log = "--- siw " + cmd + " (exit " + siw.exit() + ")\n" + siw.output() + "--- jwarp " + String.join(" ", args)
                + " (exit " + server.exit + ")\n" + server.out + server.err;
        List<String> expectedLines = expectedLines("ping data: ", cell);
        boolean siwValidated = siw.output().lines().filter(l -> l.startsWith("ping data: ")).toList().equals(expectedLines)
                && !siw.output().contains("mismatch");
        boolean jwarpServed = server.exit == 0 && server.out.contains("server: " + cell.count() + " pings of " + cell.size() + " bytes");
        return judge(cell, server, siwValidated && jwarpServed && siw.exit() == 0, log,
                server.exit != 0 ? firstLine(server.err) : !siwValidated ? "siw's client did not get its pings back validated: "
                        + firstLine(siw.output().lines().filter(l -> !l.startsWith("ping data: ")).reduce("", (a, b) -> a + b + "\n")) : "jwarp's server did not report " + cell.count() + " pings");
    }

    private CellResult judge(Cell cell, Jwarp j, boolean passed, String log, String failure) {
        String params = firstMatch(j.out, "(?m)^(?:rdma_connect successful|connection established): (.*)$");
        if (cell.expected().isPresent()) {
            Cell.Refusal r = cell.expected().get();
            if (passed) {
                return fail(cell, "expected a refusal (" + r.why() + ") but every ping went through", log);
            }
            if (log.contains(r.evidence())) {
                return new CellResult(cell, CellResult.Outcome.REFUSED, r.why() + " [" + r.evidence() + "]", 0, log);
            }
            return fail(cell, "refused, but without the expected reason '" + r.evidence() + "': " + failure, log);
        }
        if (!passed) {
            return fail(cell, failure, log);
        }
        Matcher m = RATE.matcher(j.out);
        double rate = m.find() ? Double.parseDouble(m.group(4)) : 0;
        return new CellResult(cell, CellResult.Outcome.PASS, params == null ? "" : params, rate, log);
    }

    private static CellResult fail(Cell cell, String detail, String log) {
        return new CellResult(cell, CellResult.Outcome.FAIL, detail, 0, log);
    }

    static List<String> expectedLines(String prefix, Cell cell) {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < cell.count(); i++) {
            lines.add(prefix + RpingPattern.expectedLine(cell.size(), i));
        }
        return lines;
    }

    /** The first line, cut to 160 characters (ping lines are up to 64 KiB). */
    static String firstLine(String s) {
        String l = s.strip().lines().findFirst().orElse("");
        return l.length() > 160 ? l.substring(0, 160) + "..." : l;
    }

    private static String firstMatch(String s, String regex) {
        Matcher m = Pattern.compile(regex).matcher(s);
        return m.find() ? m.group(1) : null;
    }

    /** One run of the jwarp command in this JVM, on a thread of its own. */
    static final class Jwarp {
        private static final AtomicInteger IDS = new AtomicInteger();
        final String marker;
        private final HostRping program;
        final CountDownLatch seen = new CountDownLatch(1);
        final CountDownLatch done = new CountDownLatch(1);
        volatile int exit = -1;
        volatile String out = "";
        volatile String err = "";
        private Thread thread;

        private Jwarp(HostRping program, String marker) {
            this.program = program;
            this.marker = marker;
        }

        /** Runs the jwarp command to its end on this thread. */
        static Jwarp run(List<String> args) {
            return run(HostRping.JWARP, args);
        }

        /** Runs {@code program} to its end on this thread. */
        static Jwarp run(HostRping program, List<String> args) {
            Jwarp j = new Jwarp(program, null);
            j.execute(args);
            return j;
        }

        /** Starts the jwarp command on a thread, as {@link #start(HostRping, List, String)}. */
        static Jwarp start(List<String> args, String marker) {
            return start(HostRping.JWARP, args, marker);
        }

        /** Starts {@code program} on a thread; {@link #awaitMarker} waits for an output line containing {@code marker}. */
        static Jwarp start(HostRping program, List<String> args, String marker) {
            Jwarp j = new Jwarp(program, marker);
            j.thread = new Thread(() -> j.execute(args), "jwarp-" + IDS.incrementAndGet());
            j.thread.setDaemon(true);
            j.thread.start();
            return j;
        }

        private void execute(List<String> args) {
            StringWriter o = new StringWriter() {
                @Override
                public void flush() {
                    super.flush();
                    out = toString();
                    if (marker != null && out.contains(marker)) {
                        seen.countDown();
                    }
                }
            };
            StringWriter e = new StringWriter();
            try {
                exit = program.execute(args, new PrintWriter(o, true), new PrintWriter(e, true));
            } finally {
                out = o.toString();
                err = e.toString();
                done.countDown();
            }
        }

        boolean awaitMarker(Duration limit) throws InterruptedException {
            // a command that ended (a bind failure, say) will never show the marker
            long deadline = System.nanoTime() + limit.toNanos();
            while (System.nanoTime() - deadline < 0) {
                if (seen.await(50, TimeUnit.MILLISECONDS)) {
                    return true;
                }
                if (done.getCount() == 0) {
                    return false;
                }
            }
            return false;
        }

        boolean await(Duration limit) throws InterruptedException {
            return done.await(limit.toMillis(), TimeUnit.MILLISECONDS);
        }

        void stop() throws InterruptedException {
            if (thread != null) {
                thread.interrupt();
                done.await(10, TimeUnit.SECONDS);
            }
        }
    }
}
