package org.jwarp.ibverbs;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.CmEvent;
import org.jwarp.verbs.CmEventQueue;
import org.jwarp.verbs.CompletionQueue;
import org.jwarp.verbs.ConnectParams;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.Listener;
import org.jwarp.verbs.MemoryRegion;
import org.jwarp.verbs.PostStatus;
import org.jwarp.verbs.ProtectionDomain;
import org.jwarp.verbs.QpInitAttr;
import org.jwarp.verbs.QpState;
import org.jwarp.verbs.QueuePair;
import org.jwarp.verbs.RdmaDevice;
import org.jwarp.verbs.RecvWr;
import org.jwarp.verbs.WcStatus;
import org.jwarp.verbs.WorkCompletion;

/**
 * Checks written against the verbs API only, for any provider: what a program may rely on whichever
 * provider runs it. Connections go from the device to itself through {@code address} (a listener
 * on it, a client to it), so one device and one process suffice.
 *
 * <pre>Conformance jwarp|ibverbs ADDRESS</pre>
 * Prints one line per check ("ok NAME", "FAIL NAME: why") and exits 0 when none failed.
 */
public final class Conformance {

    private static final Duration WAIT = Duration.ofSeconds(60);

    private final RdmaDevice device;
    private final String address;
    private final PrintStream out;
    private final List<String> failed = new ArrayList<>();

    private Conformance(RdmaDevice device, String address, PrintStream out) {
        this.device = device;
        this.address = address;
        this.out = out;
    }

    public static void main(String[] args) throws InterruptedException {
        if (args.length != 2) {
            System.err.println("usage: Conformance jwarp|ibverbs ADDRESS");
            System.exit(2);
        }
        try (RdmaDevice device = RdmaDevice.open(DeviceConfig.builder().providerName(args[0]).build())) {
            List<String> failed = run(device, args[1], System.out);
            System.out.println(failed.isEmpty() ? "conformance on " + args[0] + ": OK" : "conformance on " + args[0]
                    + ": FAILED " + failed);
            System.exit(failed.isEmpty() ? 0 : 1);
        }
    }

    /**
     * Runs every check on {@code device}.
     *
     * @param device  the device
     * @param address an address of the device's own host that its connections can reach
     * @param out     where the check lines go
     * @return the names of the checks that failed
     * @throws InterruptedException if interrupted while waiting
     */
    public static List<String> run(RdmaDevice device, String address, PrintStream out) throws InterruptedException {
        Conformance c = new Conformance(device, address, out);
        c.check("device", c::deviceAndLimits);
        c.check("memory", c::memory);
        c.check("queues", c::queues);
        c.check("flush", c::flushInOrder);
        c.check("reject", c::rejectWithPrivateData);
        c.check("pingpong", c::pingPong);
        c.check("srq", () -> SrqConformance.run(device, address));
        c.check("memory windows", c::memoryWindows);
        return c.failed;
    }

    /** A check the device cannot run: what it refused, in its own words. */
    static final class Skipped extends RuntimeException {
        Skipped(String reason) {
            super(reason, null, false, false);
        }
    }

    private interface Check {
        void run() throws Exception;
    }

    private void check(String name, Check check) {
        try {
            check.run();
            out.println("ok " + name);
        } catch (Skipped e) {
            out.println("skip " + name + ": " + e.getMessage());
        } catch (Exception | AssertionError e) {
            failed.add(name);
            out.println("FAIL " + name + ": " + e.getMessage());
        }
    }

    private void deviceAndLimits() {
        expect(device.providerName() != null && !device.providerName().isBlank(), "a provider name");
        var l = device.config().limits();
        expect(l.maxQps() > 0 && l.maxQpWr() > 0 && l.maxSge() > 0 && l.maxCqDepth() > 0, "positive limits: " + l);
    }

    private void memory() {
        try (Arena arena = Arena.ofShared(); ProtectionDomain pd = device.allocPd()) {
            MemorySegment s = arena.allocate(8192, 4096);
            MemoryRegion mr = pd.registerMemory(s, Access.LOCAL_WRITE | Access.REMOTE_WRITE);
            expect(mr.length() == 8192 && mr.segment().equals(s) && mr.isValid(), "the region over the segment: " + mr);
            expect(mr.iova() == s.address(), "a native region's tagged offset is its address, got 0x" + Long.toHexString(mr.iova()));
            expect(mr.access() == (Access.LOCAL_WRITE | Access.REMOTE_WRITE), "the access flags kept");
            expectThrows(() -> pd.registerMemory(s.asSlice(0, 0), Access.LOCAL_WRITE), "an empty region refused");
            mr.deregister();
            expect(!mr.isValid(), "a deregistered region invalid");
        }
    }

    private void queues() {
        try (ProtectionDomain pd = device.allocPd()) {
            CompletionQueue cq = device.createCq(10, null);
            expect(cq.depth() >= 10, "CQ depth at least 10, got " + cq.depth());
            QueuePair qp = device.createQp(pd, QpInitAttr.builder(cq, cq).maxSendWr(5).maxRecvWr(7).maxSendSge(1)
                    .maxRecvSge(1).maxInlineData(0).build());
            expect(qp.state() == QpState.INIT, "a new queue pair in INIT, got " + qp.state());
            QpInitAttr a = qp.initAttr();
            expect(a.maxSendWr() >= 5 && a.maxRecvWr() >= 7, "queue depths at least those asked: " + a);
            expectThrows(() -> qp.modify(QpState.RTS), "RTS refused outside the connection manager");
            qp.close();
            cq.close();
        }
    }

    private void flushInOrder() throws InterruptedException {
        try (Arena arena = Arena.ofShared(); ProtectionDomain pd = device.allocPd()) {
            MemoryRegion mr = pd.registerMemory(arena.allocate(4096, 4096), Access.LOCAL_WRITE);
            CompletionQueue cq = device.createCq(16, null);
            QueuePair qp = device.createQp(pd, QpInitAttr.builder(cq, cq).maxSendWr(4).maxRecvWr(8).maxSendSge(1)
                    .maxRecvSge(1).maxInlineData(0).build());
            for (int i = 0; i < 5; i++) {
                int rc = qp.postRecv(new RecvWr(1).wrId(500 + i).addSge(mr, i * 64L, 64));
                expect(PostStatus.isOk(rc), "post_recv " + i + ": " + PostStatus.toString(rc));
            }
            qp.modify(QpState.ERROR);
            WorkCompletion[] wcs = {new WorkCompletion()};
            long deadline = System.nanoTime() + WAIT.toNanos();
            for (int i = 0; i < 5; i++) {
                while (cq.poll(wcs, 1) == 0) {
                    expect(System.nanoTime() - deadline < 0, "receive " + i + " flushed in time");
                    device.invoke();
                    Thread.sleep(1);
                }
                expect(wcs[0].wrId() == 500 + i && wcs[0].status() == WcStatus.WR_FLUSH_ERR && wcs[0].qpNum() == qp.qpNum(),
                        "receive " + (500 + i) + " flushed in order on qp " + qp.qpNum() + ", got " + wcs[0]);
            }
            qp.close();
            cq.close();
            mr.deregister();
        }
    }

    private void rejectWithPrivateData() throws InterruptedException {
        byte[] ask = "may I".getBytes(StandardCharsets.US_ASCII);
        byte[] no = "no, thanks".getBytes(StandardCharsets.US_ASCII);
        CmEventQueue serverEvents = new CmEventQueue();
        CmEventQueue clientEvents = new CmEventQueue();
        try (ProtectionDomain pd = device.allocPd();
             Listener listener = device.connectionManager().listen(new InetSocketAddress(address, 0), 4, serverEvents)) {
            CompletionQueue cq = device.createCq(8, null);
            QueuePair qp = device.createQp(pd, QpInitAttr.builder(cq, cq).maxSendWr(4).maxRecvWr(4).maxSendSge(1)
                    .maxRecvSge(1).maxInlineData(0).build());
            device.connectionManager().connect(listener.localAddress(), qp, ConnectParams.of(ask), clientEvents);
            CmEvent.ConnectRequest req = serverEvents.expect(CmEvent.ConnectRequest.class, WAIT, device);
            expect(req != null, "a connect request");
            expect(Arrays.equals(req.request().privateData(), ask), "the request's private data");
            req.request().reject(no).toCompletableFuture().join();
            CmEvent.Rejected rejected = clientEvents.expect(CmEvent.Rejected.class, WAIT, device);
            expect(rejected != null, "the client rejected");
            expect(Arrays.equals(rejected.peerPrivateData(), no), "the reject's private data, got '"
                    + new String(rejected.peerPrivateData(), StandardCharsets.US_ASCII) + "'");
            qp.close();
            cq.close();
        }
    }

    private void pingPong() throws Exception {
        InetSocketAddress at;
        try (Listener probe = device.connectionManager().listen(new InetSocketAddress(address, 0), 1, e -> { })) {
            at = probe.localAddress();                      // a free port on the address, released for the server
        }
        ByteArrayOutputStream serverLog = new ByteArrayOutputStream();
        PrintStream so = new PrintStream(serverLog, true, StandardCharsets.UTF_8);
        List<Integer> sizes = List.of(1, 4096, 65536);
        CompletableFuture<Void> server = CompletableFuture.runAsync(() -> {
            try {
                PingPong.run(device, true, at, sizes, so);
            } catch (InterruptedException | RuntimeException e) {
                so.println("server: FAILED: " + e.getMessage());
            }
        });
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!serverLog.toString(StandardCharsets.UTF_8).contains("listening") && System.nanoTime() - deadline < 0) {
            Thread.sleep(10);
        }
        ByteArrayOutputStream clientLog = new ByteArrayOutputStream();
        try {
            PingPong.run(device, false, at, sizes, new PrintStream(clientLog, true, StandardCharsets.UTF_8));
        } catch (RuntimeException e) {
            throw new IllegalStateException("client: " + e.getMessage() + "; server: " + serverLog);
        }
        server.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        expect(serverLog.toString(StandardCharsets.UTF_8).contains("server on " + device.providerName() + ": OK"),
                "the server side OK: " + serverLog);
    }

    /** A type 2 memory window, or the device's refusal (siw offers none). */
    private void memoryWindows() throws Exception {
        try (ProtectionDomain pd = device.allocPd()) {
            org.jwarp.verbs.MemoryWindow mw;
            try {
                mw = pd.allocMw();
            } catch (UnsupportedOperationException e) {
                throw new Skipped(e.getMessage());
            }
            try (mw) {
                expect(mw.pd() == pd, "the window in the protection domain it was allocated in");
            }
        }
    }

    private static void expect(boolean ok, String what) {
        if (!ok) {
            throw new IllegalStateException("expected " + what);
        }
    }

    private static void expectThrows(Runnable r, String what) {
        try {
            r.run();
        } catch (IllegalArgumentException | IllegalStateException expected) {
            return;
        }
        throw new IllegalStateException("expected " + what);
    }
}
