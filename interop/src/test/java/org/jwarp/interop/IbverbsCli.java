package org.jwarp.interop;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

/**
 * jwarp's own commands on the {@code ibverbs} provider in the guest, over siw, against jwarp (the
 * default provider) in this JVM: {@code write-lat}, {@code write-bw}, {@code read-lat} and
 * {@code rping}, each with the guest as client and as server, at a different size in each role. A
 * cell passes when both sides end with status 0 and their data checks held: the perf tests' "Data
 * verified: yes" on both sides and the client's result row for the size asked; rping's {@code -V}
 * on both sides, and every ping echoed.
 *
 * <p>The guest runs its four commands of a role in one JVM ({@link GuestJwarp}), from this
 * checkout's {@code cli/target/jwarp.jar}. A guest client starts only once every host server
 * listens: siw 6.1 oopses when the far side of the slirp hop refuses an MPA initiator's connection.
 */
final class IbverbsCli {

    private static final Duration LIMIT = Duration.ofMinutes(4);
    /** C1 only, serial GC and a class-data archive kept in the guest: a JVM start takes half as long under TCG. */
    private static final String GUEST_JAVA = IbverbsGuest.ONE_VCPU
            + "java --enable-native-access=ALL-UNNAMED -XX:+ErrorFileToStdout -XX:TieredStopAtLevel=1"
            + " -XX:+UseSerialGC -XX:+AutoCreateSharedArchive -XX:SharedArchiveFile=/tmp/jwarp-cli.jsa";
    private static final String JAR = "cli/target/jwarp.jar";
    /** {@link GuestJwarp} alone in a jar: the class-data archive takes jars only on the class path. */
    private static final String BATCH_JAR = "interop/target/guest-jwarp.jar";
    private static final String IBVERBS = "--provider ibverbs --ib-dev siw0";
    private static final Pattern VERIFIED = Pattern.compile("(?m)^ Data verified\\s*: yes");
    /** stderr and stdout together, so that a server's "waiting" line is seen. */
    private static final HostRping JWARP = (args, out, err) -> HostRping.JWARP.execute(args, out, out);

    /** One command in one role: the guest as client (host port) or as server (guest port). */
    record Cell(String test, boolean guestServer, String workload, int size, int count, int port) {
        String name() {
            return guestServer ? "jwarp " + test + " (host, jwarp) -> " + test + " --provider ibverbs (guest)"
                    : test + " --provider ibverbs (guest) -> jwarp " + test + " (host, jwarp)";
        }

        boolean rping() {
            return test.equals("rping");
        }

        List<String> server(String provider) {
            String s = rping() ? "rping -s -a " + (guestServer ? "0.0.0.0" : "127.0.0.1") + " -p " + port + " -S 65535 -V -d"
                    : test + " -p " + port;
            return words(s + provider);
        }

        List<String> client(String host, String provider) {
            String s = rping() ? "rping -c -a " + host + " -p " + port + " -C " + count + " -S " + size + " -V -v"
                    : test + " " + workload + " -p " + port + " " + host;
            return words(s + provider);
        }
    }

    static final List<Cell> GUEST_CLIENT = List.of(
            new Cell("write-lat", false, "-s 64 -n 100", 64, 100, 21000),
            new Cell("write-bw", false, "-s 4096 -n 200", 4096, 200, 21001),
            new Cell("read-lat", false, "-s 4096 -n 50", 4096, 50, 21002),
            new Cell("rping", false, "", 4096, 10, SiwVm.HOST_RPING_PORT));
    /**
     * The guest as server. jwarp's {@code write-bw} client streams its WRITEs into siw with MPA CRC
     * off: siw 6.1 checks the CRC of an FPDU whose trailer reached it in two TCP segments against a
     * trailer it put together wrongly (it copies each piece to the trailer's start), and ends the
     * stream with an MPA CRC error Terminate (docs/ibverbs.md). The slirp hop re-segments the
     * stream, so jwarp cannot keep trailers whole; without CRC siw does not read the trailer.
     */
    static final List<Cell> GUEST_SERVER = List.of(new Cell("write-lat", true, "-s 4096 -n 100", 4096, 100, 20000),
            new Cell("write-bw", true, "-s 65536 -n 100 --crc off", 65536, 100, 20001),
            new Cell("read-lat", true, "-s 64 -n 100", 64, 100, 20002),
            new Cell("rping", true, "", 65535, 5, 20003));

    private final SiwVm vm;

    IbverbsCli(SiwVm vm) {
        this.vm = vm;
    }

    /** The guest as client of every command: the host's servers first, then the guest's clients in one JVM. */
    List<ToolResult> guestClients() throws InterruptedException {
        List<ToolResult> out = new ArrayList<>();
        String missing = jarMissing();
        List<CellRunner.Jwarp> servers = new ArrayList<>();
        for (Cell c : GUEST_CLIENT) {
            CellRunner.Jwarp s = CellRunner.Jwarp.start(JWARP, c.server(""), c.rping() ? "listening on" : "waiting for a client");
            servers.add(s);
            if (missing == null && !s.awaitMarker(Duration.ofSeconds(30))) {
                missing = "jwarp " + c.test() + " did not listen on " + c.port() + ": " + CellRunner.firstLine(s.out);
            }
        }
        if (missing != null) {
            for (CellRunner.Jwarp s : servers) {
                s.stop();
            }
            for (Cell c : GUEST_CLIENT) {
                out.add(new ToolResult(c.name(), false, missing, ""));
            }
            return out;
        }
        List<String> commands = GUEST_CLIENT.stream().map(c -> String.join(" ", c.client(SiwVm.HOST_FROM_GUEST, " " + IBVERBS)))
                .toList();
        SiwVm.Result guest = vm.guest(LIMIT, batch(commands));
        List<GuestJwarp.Run> runs = GuestJwarp.split(guest.output());
        for (int i = 0; i < GUEST_CLIENT.size(); i++) {
            CellRunner.Jwarp s = servers.get(i);
            if (!s.await(Duration.ofSeconds(30))) {
                s.stop();
            }
            out.add(judge(GUEST_CLIENT.get(i), i < runs.size() ? runs.get(i) : null, s, guest.output()));
        }
        return out;
    }

    /** The guest as server of every command, in one JVM; each host client starts once the guest listens. */
    List<ToolResult> guestServers() throws InterruptedException {
        List<ToolResult> out = new ArrayList<>();
        String missing = jarMissing();
        if (missing != null) {
            GUEST_SERVER.forEach(c -> out.add(new ToolResult(c.name(), false, missing, "")));
            return out;
        }
        String job = "ibverbs-cli";
        List<String> commands = GUEST_SERVER.stream().map(c -> String.join(" ", c.server(" " + IBVERBS))).toList();
        vm.guestBackground(job, batch(commands));
        List<CellRunner.Jwarp> clients = new ArrayList<>();
        String stuck = null;
        for (Cell c : GUEST_SERVER) {
            if (stuck == null && !vm.awaitGuestListen(c.port(), Duration.ofSeconds(120))) {
                stuck = "the guest's " + c.test() + " server did not listen on " + c.port() + vm.healthNote();
            }
            // no client once a server is missing: the batch waits for it for ever
            clients.add(stuck != null ? null : CellRunner.Jwarp.run(JWARP, c.client("127.0.0.1", "")));
        }
        vm.awaitJob(job, Duration.ofSeconds(stuck == null ? 60 : 1));
        String log = vm.jobLog(job);
        vm.guestKill(job);
        List<GuestJwarp.Run> runs = GuestJwarp.split(log);
        for (int i = 0; i < GUEST_SERVER.size(); i++) {
            CellRunner.Jwarp client = clients.get(i);
            if (client == null) {
                out.add(new ToolResult(GUEST_SERVER.get(i).name(), false, stuck, log));
            } else {
                out.add(judge(GUEST_SERVER.get(i), i < runs.size() ? runs.get(i) : null, client, log));
            }
        }
        return out;
    }

    private static ToolResult judge(Cell c, GuestJwarp.Run guest, CellRunner.Jwarp host, String guestLog) {
        String guestOut = guest == null ? "" : guest.output();
        String clientOut = c.guestServer() ? host.out : guestOut;
        String serverOut = c.guestServer() ? guestOut : host.out;
        String log = "--- guest: jwarp " + (guest == null ? "(did not run)" : guest.args() + " (exit " + guest.exit() + ")")
                + "\n" + (guest == null ? guestLog : guestOut) + "--- host: jwarp (exit " + host.exit + ")\n" + host.out;
        String failure = guest == null ? "the guest's command did not run"
                : guest.exit() != 0 ? "guest exited " + guest.exit() + ": " + lastLine(guestOut)
                : host.exit != 0 ? "host exited " + host.exit + ": " + lastLine(host.out)
                : c.rping() ? rpingProblem(c, clientOut) : perfProblem(c, clientOut, serverOut);
        if (failure != null) {
            return new ToolResult(c.name(), false, failure, log);
        }
        String what = c.rping() ? c.count() + " pings of " + c.size() + " B, -V on both sides"
                : c.size() + " B x " + c.count() + ", data verified on both sides";
        return new ToolResult(c.name(), true, what, log);
    }

    private static String perfProblem(Cell c, String client, String server) {
        if (!Pattern.compile("(?m)^\\s*" + c.size() + "\\s+" + c.count() + "\\s").matcher(client).find()) {
            return "the client printed no row for " + c.size() + " B x " + c.count();
        }
        if (!VERIFIED.matcher(client).find() || !VERIFIED.matcher(server).find()) {
            return "data not verified on " + (VERIFIED.matcher(client).find() ? "the server" : "the client");
        }
        return null;
    }

    private static String rpingProblem(Cell c, String client) {
        long pings = client.lines().filter(l -> l.startsWith("ping data: ")).count();
        return pings == c.count() ? null : "the client printed " + pings + " of " + c.count() + " pings";
    }

    /** The guest command that runs {@code commands} in one JVM. */
    private static String batch(List<String> commands) {
        StringBuilder sb = new StringBuilder("cd " + SiwVm.GUEST_REPO + " && " + GUEST_JAVA + " -cp " + JAR
                + ":" + BATCH_JAR + " " + GuestJwarp.class.getName());
        for (String c : commands) {
            sb.append(" '").append(c).append('\'');
        }
        return sb.append(" 2>&1").toString();
    }

    /** Why the guest cannot run jwarp.jar from this checkout, or null; writes {@link #BATCH_JAR}. */
    private static String jarMissing() {
        Path root = Path.of(System.getProperty("jwarp.root", "."));
        if (!Files.isRegularFile(root.resolve(JAR))) {
            return JAR + " is not built: run the interop suite with -am (mvn -pl interop -am verify) so that the cli"
                    + " module is packaged";
        }
        try (var jar = new java.util.jar.JarOutputStream(Files.newOutputStream(root.resolve(BATCH_JAR)))) {
            for (Class<?> c : List.of(GuestJwarp.class, GuestJwarp.Run.class)) {
                String entry = c.getName().replace('.', '/') + ".class";
                try (var in = c.getClassLoader().getResourceAsStream(entry)) {
                    jar.putNextEntry(new java.util.jar.JarEntry(entry));
                    in.transferTo(jar);
                    jar.closeEntry();
                }
            }
        } catch (java.io.IOException e) {
            return "cannot write " + BATCH_JAR + ": " + e.getMessage();
        }
        return null;
    }

    private static String lastLine(String s) {
        List<String> lines = s.lines().filter(l -> !l.isBlank()).toList();
        return lines.isEmpty() ? "(no output)" : lines.getLast();
    }

    private static List<String> words(String s) {
        return Arrays.asList(s.strip().split("\\s+"));
    }
}
