package org.jwarp.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * jwarp against Linux soft-iWARP (siw) and rdma-core's rping in the harness's qemu guest, both
 * directions, every siw variant (reloaded in place), with captures checked by tshark. Boots the VM
 * once (building its image first if the cache lacks it) and stops it at the end, also on failure.
 * A VM that cannot be built or booted fails the run with the harness's reason.
 */
@Tag("interop")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SiwInteropTest {

    private static final int RATE_COUNT = 30;

    private final List<CellResult> results = Collections.synchronizedList(new ArrayList<>());
    private final List<CellResult> sweep = Collections.synchronizedList(new ArrayList<>());
    private final List<CellResult> sessions = Collections.synchronizedList(new ArrayList<>());
    private final List<CellResult> rates = Collections.synchronizedList(new ArrayList<>());
    private final List<String> captures = Collections.synchronizedList(new ArrayList<>());
    /** Cells whose first attempt failed, with what went wrong. */
    private final List<String> retried = Collections.synchronizedList(new ArrayList<>());
    private final List<ToolResult> perftests = Collections.synchronizedList(new ArrayList<>());
    private SiwVm vm;
    private CellRunner runner;
    private PerftestRunner perftestRunner;
    private LibrdmacmRunner librdmacmRunner;
    private final List<ToolResult> examples = Collections.synchronizedList(new ArrayList<>());
    private final List<ToolResult> ibverbs = Collections.synchronizedList(new ArrayList<>());
    private String loaded;
    private long started;
    private Path work;

    @BeforeAll
    void boot() throws IOException {
        started = System.nanoTime();
        work = Files.createDirectories(Path.of("target", "interop"));
        vm = SiwVm.locate();
        log("harness " + vm.harness() + (vm.imageBuilt() ? "" : " (building the VM image first)"));
        vm.start();
        log(String.format(Locale.ROOT, "VM up after %.0f s", (System.nanoTime() - started) / 1e9));
        runner = new CellRunner(vm);
        perftestRunner = new PerftestRunner(vm);
        librdmacmRunner = new LibrdmacmRunner(vm);
    }

    @AfterAll
    void report() {
        try {
            StringBuilder sb = new StringBuilder("\n=== jwarp <-> siw interop matrix (rping, " + Matrix.COUNT
                    + " pings per cell, data validated on both sides) ===\n");
            sb.append(Matrix.render(results));
            sb.append("\nsize sweep (stock, jwarp v2+rtr crc):\n");
            for (CellResult r : sweep) {
                sb.append(String.format(Locale.ROOT, "  %-11s %6d B  %-7s %s%n", r.cell().direction(), r.cell().size(),
                        r.mark(), r.detail()));
            }
            sb.append("\nrefusals (expected; the reason as printed):\n");
            for (CellResult r : results) {
                if (r.outcome() == CellResult.Outcome.REFUSED) {
                    sb.append("  ").append(r.cell().name()).append(": ").append(r.detail()).append('\n');
                }
            }
            sb.append("\nrping rate under TCG (stock, ").append(RATE_COUNT).append(" pings; for spotting pathologies only):\n");
            for (CellResult r : rates) {
                sb.append(String.format(Locale.ROOT, "  %-11s %6d B  %s%n", r.cell().direction(), r.cell().size(),
                        r.outcome() == CellResult.Outcome.PASS ? String.format(Locale.ROOT, "%.1f pings/s", r.rate()) : "FAIL"));
            }
            sb.append("\ncells that failed once and were run again (").append(retried.size()).append("):\n");
            retried.forEach(c -> sb.append("  ").append(c).append('\n'));
            sb.append("\nperftest (siw's ib_* -R) x jwarp --perftest, stock siw:\n");
            for (ToolResult o : perftests) {
                sb.append(String.format(Locale.ROOT, "  %-58s %-4s %s%n", o.name(), o.mark(),
                        o.detail()));
            }
            sb.append("\nlibrdmacm examples x jwarp, stock siw:\n");
            for (ToolResult o : examples) {
                sb.append(String.format(Locale.ROOT, "  %-58s %-4s %s%n", o.name(), o.mark(), o.detail()));
            }
            sb.append("\nthe ibverbs provider in the guest over siw, x jwarp on the host:\n");
            for (ToolResult o : ibverbs) {
                sb.append(String.format(Locale.ROOT, "  %-58s %-4s %s%n", o.name(), o.mark(), o.detail()));
            }
            sb.append("\ncaptures and MPA checks:\n");
            captures.forEach(c -> sb.append("  ").append(c).append('\n'));
            List<CellResult> all = new ArrayList<>(results);
            all.addAll(sweep);
            all.addAll(rates);
            all.addAll(sessions);
            long failed = all.stream().filter(r -> !r.good()).count();
            sb.append(String.format(Locale.ROOT, "%n%d rping sessions, %d failed, %.0f s in all%n", all.size(), failed,
                    (System.nanoTime() - started) / 1e9));
            System.out.println(sb);
        } finally {
            if (vm != null) {
                vm.close();
            }
        }
    }

    @Test
    @Order(1)
    void captureJwarpToSiw() throws InterruptedException {
        capture(new Cell("stock", true, JwarpMpaConfig.V2_RTR_CRC, 4097, Matrix.COUNT, Optional.empty()),
                SiwVm.GUEST_RPING_PORT, "jwarp-to-siw.pcap");
    }

    @Test
    @Order(2)
    void captureSiwToJwarp() throws InterruptedException {
        capture(new Cell("stock", false, JwarpMpaConfig.V2_RTR_CRC, 4097, Matrix.COUNT, Optional.empty()),
                SiwVm.HOST_RPING_PORT, "siw-to-jwarp.pcap");
    }

    /** rping written against DiSNI's API, on jwarp-disni, as client of siw's rping; the capture checked by tshark. */
    @Test
    @Order(2)
    void captureDisniToSiw() throws InterruptedException {
        capture(new Cell("stock", true, JwarpMpaConfig.DISNI, 4097, Matrix.COUNT, Optional.empty()),
                SiwVm.GUEST_RPING_PORT, "disni-to-siw.pcap");
    }

    /** siw's rping as client of rping written against DiSNI's API, on jwarp-disni; the capture checked by tshark. */
    @Test
    @Order(2)
    void captureSiwToDisni() throws InterruptedException {
        capture(new Cell("stock", false, JwarpMpaConfig.DISNI, 1443, Matrix.COUNT, Optional.empty()),
                SiwVm.HOST_RPING_PORT, "siw-to-disni.pcap");
    }

    /**
     * siw takes at most 256 bytes of MPA private data (RFC 5044: 512) and closes the connection,
     * with no Reply, on more: 252 bytes after the RFC 6581 header pass, 253 do not, and jwarp names
     * the cap.
     */
    @Test
    @Order(3)
    void privateDataCap() throws InterruptedException {
        use("stock");
        String accepted = PrivateDataProbe.connect(vm, 252);
        String refused = PrivateDataProbe.connect(vm, 253);
        captures.add("private data: 252 bytes -> " + accepted + "; 253 bytes -> " + refused);
        log("private data 252 B: " + accepted + "; 253 B: " + refused);
        assertTrue(accepted.startsWith("established"), accepted);
        assertTrue(refused.contains("siw and cxgb4 close the connection above 256"), refused);
    }

    @TestFactory
    @Order(4)
    Stream<DynamicTest> sizeSweep() {
        return Matrix.sweep().stream().map(c -> DynamicTest.dynamicTest(c.name(), () -> check(run(c, sweep))));
    }

    @TestFactory
    @Order(5)
    Stream<DynamicTest> rate() {
        List<Cell> cells = new ArrayList<>();
        for (int size : new int[] {64, 65535}) {
            cells.add(new Cell("stock", true, JwarpMpaConfig.V2_RTR_CRC, size, RATE_COUNT, Optional.empty()));
            cells.add(new Cell("stock", false, JwarpMpaConfig.V2_RTR_CRC, size, RATE_COUNT, Optional.empty()));
        }
        return cells.stream().map(c -> DynamicTest.dynamicTest("rate " + c.name(), () -> check(run(c, rates))));
    }

    @TestFactory
    @Order(6)
    Stream<DynamicTest> variantMatrix() {
        return Matrix.cells().stream().map(c -> DynamicTest.dynamicTest(c.name(), () -> check(run(c, results))));
    }

    @TestFactory
    @Order(7)
    Stream<DynamicTest> perftest() {
        return PerftestCell.matrix().stream().map(c -> DynamicTest.dynamicTest(c.name(), () -> {
            use("stock");
            ToolResult o = perftestRunner.run(c);
            // once for any failure, as the rping cells; twice more while perftest's own clock
            // calibration fails in the guest
            for (int attempt = 1; !o.pass() && (attempt == 1
                    || attempt < 4 && o.detail().equals(PerftestRunner.CLOCK_FAILURE_DETAIL)); attempt++) {
                retried.add(c.name() + ": " + o.detail());
                log("retrying " + c.name() + "; the last attempt's output:\n" + SiwVm.tail(o.log(), 60));
                o = perftestRunner.run(c);
            }
            perftests.add(o);
            log(String.format(Locale.ROOT, "%-58s %-4s %s", c.name(), o.mark(), o.detail()));
            assertTrue(o.pass(), o.detail() + "\n" + SiwVm.tail(o.log(), 80));
        }));
    }

    @TestFactory
    @Order(9)
    Stream<DynamicTest> librdmacmExamples() {
        return LibrdmacmCell.matrix().stream().map(c -> DynamicTest.dynamicTest(c.name(), () -> {
            use("stock");
            ToolResult o = librdmacmRunner.run(c);
            if (!o.pass()) {
                retried.add(c.name() + ": " + o.detail());
                log("retrying " + c.name() + " once; the first attempt's output:\n" + SiwVm.tail(o.log(), 60));
                o = librdmacmRunner.run(c);
            }
            examples.add(o);
            log(String.format(Locale.ROOT, "%-58s %-4s %s", c.name(), o.mark(), o.detail()));
            assertTrue(o.pass(), o.detail() + "\n" + SiwVm.tail(o.log(), 80));
        }));
    }

    /** ucmatose's connections on the wire, each checked by tshark. */
    @TestFactory
    @Order(10)
    Stream<DynamicTest> librdmacmCaptures() {
        return Stream.of(true, false).map(jwarpClient -> new LibrdmacmCell("ucmatose", jwarpClient,
                List.of("-c", "3", "-C", "10", "-S", "1000"), true)).map(c -> DynamicTest.dynamicTest("capture " + c.name()
                + " (siw p2p)", () -> {
                    // ucmatose's server speaks first. Stock siw asks for no RTR as initiator and, as
                    // responder, sends at once; so the startup order of RFC 5044 §7.1.2 holds only
                    // with siw's peer-to-peer build, where the RTR goes first (jwarp's responder
                    // without an RTR waits for the initiator's FPDU a while, then sends too).
                    use("p2p");
                    int port = c.jwarpClient() ? LibrdmacmRunner.GUEST_PORT : LibrdmacmRunner.HOST_PORT;
                    Path pcap = work.resolve("ucmatose-" + (c.jwarpClient() ? "jwarp-client" : "jwarp-server") + ".pcap")
                            .toAbsolutePath();
                    WireCapture cap = WireCapture.start(port, pcap);
                    ToolResult o;
                    try {
                        o = librdmacmRunner.run(c);
                    } finally {
                        cap.close();
                    }
                    assertTrue(o.pass(), o.detail() + "\n" + SiwVm.tail(o.log(), 80));
                    List<String> streams = WireCapture.tshark(Duration.ofMinutes(1), "-r", pcap.toString(), "-T", "fields",
                            "-e", "tcp.stream").lines().filter(l -> !l.isBlank()).distinct().toList();
                    assertEquals(3, streams.size(), "TCP connections in " + pcap + ": " + streams);
                    for (String stream : streams) {
                        TsharkVerdict v = verdict(pcap, "tcp.stream==" + stream);
                        captures.add(c.name() + ", connection " + stream + ": " + v);
                        log("capture " + pcap.getFileName() + " connection " + stream + ": " + v);
                        assertTrue(v.clean(), "tshark on " + pcap + " connection " + stream + ": " + v);
                    }
                }));
    }

    /**
     * perftest's atomic tests do not run over siw, siw against siw included: siw offers no atomics
     * (atomic_cap ATOMIC_NONE) and refuses the post, and jwarp's --perftest does not speak them.
     * An expected refusal, each side's reason shown.
     */
    @Test
    @Order(7)
    void perftestAtomicsAreRefused() {
        use("stock");
        SiwVm.Result dev = vm.guest(Duration.ofSeconds(30), "ibv_devinfo -v -d siw0 | grep atomic_cap");
        CellRunner.Jwarp j = CellRunner.Jwarp.run(List.of("atomic-bw", "--perftest", "-p", "" + SiwVm.GUEST_PERFTEST_PORT,
                "127.0.0.1"));
        String line = "ib_atomic_bw -R: refused (siw: " + dev.output().strip().replaceAll("\\s+", " ") + "; jwarp: "
                + CellRunner.firstLine(j.err) + ")";
        perftests.add(new ToolResult("ib_atomic_bw <-> jwarp atomic-bw", true, true, line, ""));
        log(line);
        assertTrue(dev.output().contains("ATOMIC_NONE"), dev.output());
        assertEquals(2, j.exit, j.err);
        assertTrue(j.err.contains("--perftest speaks send-, write- and read-lat/bw"), j.err);
    }

    /** perftest's sessions on the wire: its exchange channel and data connections, each checked by tshark. */
    @TestFactory
    @Order(8)
    Stream<DynamicTest> perftestCaptures() {
        return Stream.of(new PerftestCell("write_bw", true, 4096, 50, true), new PerftestCell("send_bw", false, 4096, 50, true))
                .map(c -> DynamicTest.dynamicTest("capture " + c.name(), () -> {
                    use("stock");
                    int port = c.jwarpClient() ? SiwVm.GUEST_PERFTEST_PORT : SiwVm.HOST_PERFTEST_PORT;
                    Path pcap = work.resolve("perftest-" + c.test() + (c.jwarpClient() ? "-jwarp-client" : "-jwarp-server")
                            + ".pcap").toAbsolutePath();
                    ToolResult o = null;
                    // as the perftest cells: again, on a fresh capture, while perftest's own clock
                    // calibration fails in the guest (up to three more times)
                    for (int attempt = 0; attempt < 4 && (o == null || !o.pass()
                            && o.detail().equals(PerftestRunner.CLOCK_FAILURE_DETAIL)); attempt++) {
                        if (o != null) {
                            retried.add("capture " + c.name() + ": " + o.detail());
                            log("retrying capture " + c.name() + "; the last attempt's output:\n" + SiwVm.tail(o.log(), 60));
                        }
                        WireCapture cap = WireCapture.start(port, pcap);
                        try {
                            o = perftestRunner.run(c);
                        } finally {
                            cap.close();
                        }
                    }
                    assertTrue(o.pass(), o.detail() + "\n" + SiwVm.tail(o.log(), 80));
                    List<String> streams = WireCapture.tshark(Duration.ofMinutes(1), "-r", pcap.toString(), "-T", "fields",
                            "-e", "tcp.stream").lines().filter(l -> !l.isBlank()).distinct().toList();
                    int established = 0;
                    for (String stream : streams) {
                        TsharkVerdict v = verdict(pcap, "tcp.stream==" + stream);
                        // a data connection tried before perftest's server listens again: siw
                        // closes it after the MPA Request, and the client tries again
                        boolean early = v.mpaFrames() == 1 && v.fpdus() == 0 && v.problems().isEmpty();
                        captures.add("perftest " + c.name() + ", connection " + stream + ": " + v
                                + (early ? " (closed by siw before its rdma_cm listened again; retried)" : ""));
                        log("capture " + pcap.getFileName() + " connection " + stream + ": " + v);
                        assertTrue(v.clean() || early, "tshark on " + pcap + " connection " + stream + ": " + v);
                        established += v.clean() ? 1 : 0;
                    }
                    // the exchange channel and one data connection
                    assertEquals(2, established, "connections with MPA Request and Reply in " + pcap + ": " + streams);
                }));
    }

    private static TsharkVerdict verdict(Path pcap, String filter) {
        List<String> args = new ArrayList<>(List.of("-2", "-r", pcap.toString(), "-Y", filter, "-T", "fields",
                "-E", "separator=|"));
        TsharkVerdict.FIELDS.forEach(field -> args.addAll(List.of("-e", field)));
        String fields = WireCapture.tshark(Duration.ofMinutes(1), args.toArray(String[]::new));
        String verbose = WireCapture.tshark(Duration.ofMinutes(1), "-2", "-r", pcap.toString(), "-V", "-Y",
                "(" + filter + ") && iwarp_mpa.fpdu");
        return TsharkVerdict.of(fields, verbose);
    }

    private void capture(Cell cell, int port, String name) throws InterruptedException {
        Path pcap = work.resolve(name).toAbsolutePath();
        CellResult r;
        WireCapture cap = WireCapture.start(port, pcap);
        try {
            r = run(cell, sessions);
        } finally {
            cap.close();
        }
        log("tcpdump: " + cap.report());
        check(r);
        TsharkVerdict v = verdict(pcap, "tcp");
        captures.add(cell.direction() + " " + name + ": " + v);
        log("capture " + name + ": " + v);
        assertTrue(v.clean(), "tshark on " + pcap + ": " + v);
    }

    /**
     * Runs a cell; a failed one runs once more, and the report lists the first attempt with both
     * sides' output. The guest is an emulated (TCG) machine sharing two CPUs with the build, and a
     * rare session fails there for reasons outside either stack; two failures in a row fail the cell.
     */
    private CellResult run(Cell cell, List<CellResult> into) throws InterruptedException {
        CellResult r = attempt(cell);
        if (!r.good()) {
            retried.add(cell.name() + ": " + r.detail());
            log("retrying " + cell.name() + " once; the first attempt's output:\n" + SiwVm.tail(r.log(), 60));
            r = attempt(cell);
        }
        into.add(r);
        return r;
    }

    private CellResult attempt(Cell cell) throws InterruptedException {
        use(cell.variant());
        long t0 = System.nanoTime();
        CellResult r = runner.run(cell);
        log(String.format(Locale.ROOT, "%-45s %-7s %s%s (%.1f s)", cell.name(), r.mark(), r.detail(),
                r.rate() > 0 ? String.format(Locale.ROOT, ", %.1f pings/s", r.rate()) : "", (System.nanoTime() - t0) / 1e9));
        if (!r.good() && !vm.healthNote().isEmpty()) {
            log("the guest kernel oopsed" + vm.healthNote() + "; rebooting the VM");
            vm.restart();
            loaded = null;
        }
        return r;
    }

    /**
     * The ibverbs provider (libibverbs through the FFM API) in the guest over stock siw: its smoke
     * check, the conformance checks, then the same verbs-API program against jwarp in this JVM, guest
     * as client and as server.
     */
    @TestFactory
    @Order(11)
    Stream<DynamicTest> ibverbsProviderInGuest() {
        IbverbsGuest guest = new IbverbsGuest(vm);
        List<String> names = List.of("ibverbs smoke", "ibverbs conformance", "ibverbs client -> jwarp", "jwarp -> ibverbs server");
        List<java.util.concurrent.Callable<ToolResult>> runs = List.of(guest::smoke, guest::conformance, guest::guestClient,
                guest::guestServer);
        return java.util.stream.IntStream.range(0, runs.size()).mapToObj(i -> DynamicTest.dynamicTest(names.get(i), () -> {
            use("stock");
            ToolResult o = runs.get(i).call();
            if (!o.pass() && guestJvmCrashed(o.log())) {
                // an open finding (docs/ibverbs.md): the guest's JVM has crashed now and then under
                // the emulator; the crash is reported and kept, and the cell runs once more
                log(o.name() + ": the guest's JVM crashed, once more: " + crashSummary(o.log()));
                keepLog(o);
                o = runs.get(i).call();
            }
            ibverbs.add(o);
            log(o.name() + ": " + o.mark() + " " + o.detail());
            if (!o.pass()) {
                keepLog(o);
            }
            assertTrue(o.pass(), o.detail() + "\n" + SiwVm.tail(o.log(), 60));
        }));
    }

    /**
     * jwarp's commands with {@code --provider ibverbs} in the guest over stock siw against jwarp in
     * this JVM: write-lat, write-bw, read-lat and rping, the guest as client, then as server.
     */
    @TestFactory
    @Order(12)
    Stream<DynamicTest> ibverbsCommandsInGuest() {
        IbverbsCli cli = new IbverbsCli(vm);
        List<java.util.concurrent.Callable<List<ToolResult>>> roles = List.of(cli::guestClients, cli::guestServers);
        List<String> names = List.of("jwarp commands, --provider ibverbs in the guest as client",
                "jwarp commands, --provider ibverbs in the guest as server");
        return java.util.stream.IntStream.range(0, roles.size()).mapToObj(i -> DynamicTest.dynamicTest(names.get(i), () -> {
            use("stock");
            List<ToolResult> cells = roles.get(i).call();
            String crash = cells.stream().filter(o -> !o.pass() && guestJvmCrashed(o.log())).map(o -> crashSummary(o.log()))
                    .findFirst().orElse(null);
            if (crash != null) {
                log(names.get(i) + ": the guest's JVM crashed, once more: " + crash);
                cells.stream().filter(o -> !o.pass()).forEach(SiwInteropTest::keepLog);
                cells = roles.get(i).call();
            }
            StringBuilder failures = new StringBuilder();
            for (ToolResult o : cells) {
                ibverbs.add(o);
                log(o.name() + ": " + o.mark() + " " + o.detail());
                if (!o.pass()) {
                    keepLog(o);
                    failures.append(o.name()).append(": ").append(o.detail()).append('\n').append(SiwVm.tail(o.log(), 30));
                }
            }
            assertTrue(failures.isEmpty(), failures.toString());
        }));
    }

    /** Whether a guest cell's output holds a JVM's fatal error report. */
    static boolean guestJvmCrashed(String output) {
        return output.contains("A fatal error has been detected by the Java Runtime Environment");
    }

    /** The signal and the problematic frame of a JVM's fatal error report, on one line. */
    static String crashSummary(String output) {
        List<String> lines = output.lines().toList();
        StringBuilder b = new StringBuilder();
        for (int k = 0; k < lines.size(); k++) {
            String l = lines.get(k);
            if (l.startsWith("#  SIG") || l.startsWith("# Problematic frame:") && k + 1 < lines.size()) {
                b.append(b.isEmpty() ? "" : " / ").append(l.startsWith("#  SIG") ? l.substring(1).strip()
                        : lines.get(k + 1).substring(1).strip());
            }
        }
        return b.isEmpty() ? "no report found" : b.toString();
    }

    /** A failed guest cell's whole output (a JVM's crash report included) kept in target/ for a look afterwards. */
    private static void keepLog(ToolResult o) {
        try {
            java.nio.file.Path f = java.nio.file.Path.of("target", "guest-" + o.name().replaceAll("[^A-Za-z0-9]+", "-") + ".log");
            java.nio.file.Files.writeString(f, o.log());
            log("  its output: " + f.toAbsolutePath());
        } catch (java.io.IOException e) {
            log("  its output could not be kept: " + e.getMessage());
        }
    }

    private void use(String variant) {
        if (!variant.equals(loaded)) {
            vm.loadVariant(variant);
            loaded = variant;
            log("siw variant '" + variant + "' loaded");
        }
    }

    private static void check(CellResult r) {
        if (!r.good()) {
            fail(r.cell().name() + ": " + r.detail() + "\n" + SiwVm.tail(r.log(), 40));
        }
    }

    private static void log(String line) {
        System.out.println("[interop] " + line);
        System.out.flush();
    }
}
