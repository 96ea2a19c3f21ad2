package org.jwarp.interop;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jwarp.ibverbs.PingPong;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.RdmaDevice;

/**
 * The {@code ibverbs} provider in the guest, over siw, from this checkout's classes (the guest sees
 * the repository at {@link SiwVm#GUEST_REPO} and the host's JDK on its PATH): its smoke check
 * without a peer, the provider-neutral conformance checks (the jwarp provider passes the same in
 * the ibverbs module's tests), and {@link PingPong} against jwarp in this JVM, both roles — the same verbs-API
 * program on both providers, every byte checked on both sides.
 */
final class IbverbsGuest {

    /** Host port the guest reaches at 10.0.2.100 (guest client), and guest port the host reaches (guest server). */
    static final int HOST_PORT = 21003;
    static final int GUEST_PORT = 20003;
    static final List<Integer> SIZES = List.of(1, 23, 4096, 65536);
    private static final Duration LIMIT = Duration.ofMinutes(3);
    private static final String CLASSPATH = "ibverbs/target/classes:verbs/target/classes:sys/target/classes";

    private final SiwVm vm;

    IbverbsGuest(SiwVm vm) {
        this.vm = vm;
    }

    /**
     * Runs a guest JVM on one vCPU. qemu's multi-threaded TCG can execute an instruction that
     * another vCPU is rewriting as a mix of old and new bytes, and HotSpot rewrites the entry of a
     * compiled method (a jump over its first instruction) while other threads may be entering it:
     * the guest's JVMs crashed with a SIGSEGV at such an entry, having run the old first byte
     * ({@code 89}, of the stack bang {@code mov %eax,-0x14000(%rsp)}) with the jump's four new
     * bytes after it, a store to the address that mix names. On one vCPU the rewrite and the
     * execution never overlap.
     */
    static final String ONE_VCPU = "taskset -c 0 ";

    /** The guest command that runs {@code mainClass} of the ibverbs module with {@code args}. */
    static String java(String mainClass, String args) {
        // a crash report goes to the output, which the cell prints when it fails (the guest's /tmp is lost)
        return "cd " + SiwVm.GUEST_REPO + " && " + ONE_VCPU + "java --enable-native-access=ALL-UNNAMED -XX:+ErrorFileToStdout -cp "
                + CLASSPATH
                + " org.jwarp.ibverbs." + mainClass + " " + args;
    }

    /** IbvSmoke on siw0: device, PD, MR, channel, CQ, QP, receives flushed and reported in order. */
    ToolResult smoke() {
        SiwVm.Result r = vm.guest(LIMIT, java("IbvSmoke", "siw0"));
        boolean ok = r.ok() && r.output().contains("ibverbs smoke: OK");
        return new ToolResult("ibverbs smoke on siw0 (guest)", ok, ok ? "device, mr (its arena held open), cq, channel, qp, flush in order"
                : CellRunner.firstLine(SiwVm.tail(r.output(), 3)), r.output());
    }

    /** The provider-neutral checks ({@code Conformance}) on ibverbs over siw, connecting the guest to itself. */
    ToolResult conformance() {
        SiwVm.Result r = vm.guest(LIMIT, java("Conformance", "ibverbs 10.0.2.15"));
        boolean ok = r.ok() && r.output().contains("conformance on ibverbs: OK");
        String checks = String.join(", ", r.output().lines().filter(l -> l.startsWith("ok ") || l.startsWith("skip ") || l.startsWith("FAIL ")).toList());
        return new ToolResult("conformance checks on ibverbs over siw (guest)", ok, ok ? checks
                : CellRunner.firstLine(SiwVm.tail(r.output(), 3)) + " [" + checks + "]", r.output());
    }

    /** PingPong: client on ibverbs in the guest, server on jwarp here. */
    ToolResult guestClient() throws InterruptedException {
        ByteArrayOutputStream host = new ByteArrayOutputStream();
        CompletableFuture<Void> server = hostSide(true, new InetSocketAddress("127.0.0.1", HOST_PORT), host);
        SiwVm.Result guest = vm.guest(LIMIT, java("PingPong", "client ibverbs " + SiwVm.HOST_FROM_GUEST + " " + HOST_PORT));
        String hostLog = finish(server, host);
        boolean ok = guest.ok() && guest.output().contains("client on ibverbs: OK") && hostLog.contains("server on jwarp: OK");
        return new ToolResult("PingPong ibverbs (guest, client) -> jwarp (host, server)", ok, detail(ok, guest.output(), hostLog),
                "guest:\n" + guest.output() + "\nhost:\n" + hostLog);
    }

    /** PingPong: server on ibverbs in the guest, client on jwarp here. */
    ToolResult guestServer() throws InterruptedException {
        String job = "ibverbs-pingpong";
        String sizes = String.join(" ", SIZES.stream().map(String::valueOf).toList());
        vm.guestBackground(job, java("PingPong", "server ibverbs 0.0.0.0 " + GUEST_PORT + " " + sizes));
        long deadline = System.nanoTime() + LIMIT.toNanos();
        while (!vm.jobLog(job).contains("listening") && System.nanoTime() - deadline < 0) {
            Thread.sleep(500);
        }
        ByteArrayOutputStream host = new ByteArrayOutputStream();
        String hostLog = finish(hostSide(false, new InetSocketAddress("127.0.0.1", GUEST_PORT), host), host);
        vm.awaitJob(job, Duration.ofSeconds(60));
        String guestLog = vm.jobLog(job);
        vm.guestKill(job);
        boolean ok = guestLog.contains("server on ibverbs: OK") && hostLog.contains("client on jwarp: OK");
        return new ToolResult("PingPong jwarp (host, client) -> ibverbs (guest, server)", ok, detail(ok, guestLog, hostLog),
                "guest:\n" + guestLog + "\nhost:\n" + hostLog);
    }

    private static CompletableFuture<Void> hostSide(boolean server, InetSocketAddress address, ByteArrayOutputStream log) {
        PrintStream out = new PrintStream(log, true, StandardCharsets.UTF_8);
        return CompletableFuture.runAsync(() -> {
            try (RdmaDevice device = RdmaDevice.open(DeviceConfig.builder().providerName("jwarp").build())) {
                PingPong.run(device, server, address, SIZES, out);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                out.println("interrupted");
            } catch (RuntimeException e) {
                out.println((server ? "server" : "client") + ": FAILED: " + e.getMessage());
            }
        });
    }

    private static String finish(CompletableFuture<Void> side, ByteArrayOutputStream log) throws InterruptedException {
        try {
            side.get(LIMIT.toSeconds(), TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            return log.toString(StandardCharsets.UTF_8) + "\n[host side: " + e + "]";
        }
        return log.toString(StandardCharsets.UTF_8);
    }

    private static String detail(boolean ok, String guest, String host) {
        if (ok) {
            return "RDMA WRITE, SEND, RDMA READ at " + SIZES + " bytes, every byte checked on both sides";
        }
        String g = CellRunner.firstLine(SiwVm.tail(guest, 2));
        return "guest: " + g + "; host: " + CellRunner.firstLine(SiwVm.tail(host, 2));
    }
}
