package org.jwarp.engine.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.jwarp.verbs.AcceptParams;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.CmEvent;
import org.jwarp.verbs.CmEventQueue;
import org.jwarp.verbs.CompletionQueue;
import org.jwarp.verbs.ConnectParams;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.DeviceLimits;
import org.jwarp.verbs.Listener;
import org.jwarp.verbs.MemoryRegion;
import org.jwarp.verbs.PostStatus;
import org.jwarp.verbs.ProtectionDomain;
import org.jwarp.verbs.QpInitAttr;
import org.jwarp.verbs.QueuePair;
import org.jwarp.verbs.RdmaDevice;
import org.jwarp.verbs.SendWr;
import org.jwarp.verbs.WcStatus;
import org.jwarp.verbs.WorkCompletion;
import org.jwarp.verbs.WrOpcode;
import org.jwarp.wire.mpa.MpaVectors;
import org.junit.jupiter.api.Test;

/**
 * A flood that costs the attacker nothing must lock no one out. While 2,000 TCP connections sit
 * silent (no MPA Request) and 500 send a valid peer-to-peer Request and then nothing (no RTR), a
 * legitimate client connects every 200 ms and moves verified data; every one of its connections
 * succeeds. The server accepts every request it is given, as {@code rping -s -P} does. At the end
 * the attackers leave and everything they held is released.
 * {@code -Djwarp.test.flood.silent=N -Djwarp.test.flood.requests=M} for other sizes.
 */
class ListenerFloodTest {

    static final Duration WAIT = Duration.ofSeconds(30);
    static final int SILENT = Integer.getInteger("jwarp.test.flood.silent", 2000);
    static final int SILENT_REQUESTS = Integer.getInteger("jwarp.test.flood.requests", 500);

    @Test
    void silentConnectionsAndSilentRequestsLockNoClientOut() throws Exception {
        DeviceConfig config = DeviceConfig.builder().provider(SuiteConfig.jwarp()
                .threadingMode(JwarpConfig.ThreadingMode.DEDICATED).engineThreads(1).build())
                .limits(DeviceLimits.DEFAULT.withMaxQps(4096)).build();
        try (RdmaDevice server = RdmaDevice.open(config);
             RdmaDevice client = RdmaDevice.open(config);
             Arena arena = Arena.ofShared()) {
            long fdsBefore = openFds();
            ProtectionDomain spd = server.allocPd();
            CompletionQueue scq = server.createCq(8192, null);
            MemoryRegion target = spd.registerMemory(arena.allocate(4096),
                    Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ);
            CmEventQueue serverEvents = new CmEventQueue();
            Listener listener = server.connectionManager().listen(
                    new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 8, serverEvents);
            int port = listener.localAddress().getPort();
            AtomicReference<Throwable> serverFailure = new AtomicReference<>();
            Thread app = Thread.ofPlatform().name("flood-server-app").start(() -> serve(server, spd, scq, serverEvents,
                    serverFailure));

            List<Socket> attackers = new ArrayList<>();
            AtomicReference<Throwable> attackFailure = new AtomicReference<>();
            Thread attack = Thread.ofPlatform().name("flood-attacker").start(() -> {
                byte[] request = MpaVectors.P2P_REQUEST.bytes();
                try {
                    for (int i = 0; i < SILENT + SILENT_REQUESTS; i++) {
                        Socket s = new Socket(InetAddress.getLoopbackAddress(), port);
                        synchronized (attackers) {
                            attackers.add(s);
                        }
                        if (i % 5 == 4 && i / 5 < SILENT_REQUESTS) {
                            s.getOutputStream().write(request);   // a valid Request, then nothing: no RTR
                        }
                    }
                } catch (java.io.IOException | RuntimeException e) {
                    attackFailure.set(e);
                }
            });
            ProtectionDomain cpd = client.allocPd();
            CompletionQueue ccq = client.createCq(64, null);
            MemoryRegion source = cpd.registerMemory(arena.allocate(4096), Access.LOCAL_WRITE);
            MemoryRegion back = cpd.registerMemory(arena.allocate(4096), Access.LOCAL_WRITE);
            // rounds every 200 ms while the attack opens its connections and while they sit there
            int rounds = 0;
            long attackEnded = 0;
            while (rounds < 10 || attackEnded == 0 || System.nanoTime() - attackEnded < 2_000_000_000L) {
                if (!attack.isAlive() && attackEnded == 0) {
                    attackEnded = System.nanoTime();
                }
                legitimateRound(client, cpd, ccq, source, back, target, listener.localAddress(), rounds++);
                Thread.sleep(200);
            }
            attack.join();
            if (attackFailure.get() != null) {
                throw new AssertionError("the attacker could not open its connections", attackFailure.get());
            }
            assertEquals(SILENT + SILENT_REQUESTS, attackers.size());
            synchronized (attackers) {
                for (Socket s : attackers) {
                    s.close();
                }
            }
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (((JwarpDevice) server).connectionCount() > 0 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertEquals(0, ((JwarpDevice) server).connectionCount(), "every attacker's connection is released");
            listener.close();
            app.interrupt();
            app.join();
            if (serverFailure.get() != null) {
                throw new AssertionError("the server application failed", serverFailure.get());
            }
            deadline = System.nanoTime() + WAIT.toNanos();
            while (openFds() > fdsBefore + 8 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertTrue(openFds() <= fdsBefore + 8, "file descriptors: " + fdsBefore + " before, " + openFds() + " after");
        }
    }

    /** The server application: accepts every request on a QP of its own, and closes the QPs of connections that end. */
    private static void serve(RdmaDevice server, ProtectionDomain pd, CompletionQueue cq, CmEventQueue events,
                              AtomicReference<Throwable> failure) {
        try {
            while (!Thread.currentThread().isInterrupted()) {
                CmEvent e = events.poll(Duration.ofMillis(100), server);
                if (e instanceof CmEvent.ConnectRequest r) {
                    QueuePair qp = server.createQp(pd, QpInitAttr.builder(cq, cq).build());
                    r.request().accept(qp, AcceptParams.of(new byte[0]));
                } else if ((e instanceof CmEvent.ConnectError || e instanceof CmEvent.Disconnected) && e.qp() != null) {
                    e.qp().close();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Throwable t) {
            failure.set(t);
        }
    }

    /** One legitimate connection: connect, WRITE 4 KiB, READ it back, compare, disconnect. */
    private static void legitimateRound(RdmaDevice client, ProtectionDomain pd, CompletionQueue cq, MemoryRegion source,
                                        MemoryRegion back, MemoryRegion target, InetSocketAddress server, int round)
            throws Exception {
        QueuePair qp = client.createQp(pd, QpInitAttr.builder(cq, cq).build());
        CmEventQueue events = new CmEventQueue();
        client.connectionManager().connect(server, qp, ConnectParams.of(new byte[0]), events);
        CmEvent e = events.poll(WAIT, client);
        assertTrue(e instanceof CmEvent.Established, "round " + round + ": the legitimate client got " + e);
        for (int i = 0; i < 4096; i++) {
            source.segment().set(ValueLayout.JAVA_BYTE, i, (byte) (i * 31 + round));
        }
        assertEquals(PostStatus.OK, qp.postSend(new SendWr().wrId(1).opcode(WrOpcode.RDMA_WRITE).signaled(true)
                .addSge(source, 0, 4096).remote(target.iova(), target.rkey())));
        assertEquals(PostStatus.OK, qp.postSend(new SendWr().wrId(2).opcode(WrOpcode.RDMA_READ).signaled(true)
                .addSge(back, 0, 4096).remote(target.iova(), target.rkey())));
        WorkCompletion[] wcs = {new WorkCompletion()};
        for (int done = 0; done < 2; done++) {
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (cq.poll(wcs) == 0) {
                assertTrue(System.nanoTime() < deadline, "round " + round + ": the legitimate connection stalled");
                Thread.onSpinWait();
            }
            assertSame(WcStatus.SUCCESS, wcs[0].status(), "round " + round + ": " + wcs[0]);
        }
        assertEquals(-1, back.segment().mismatch(source.segment()), "round " + round + ": the bytes read back");
        client.connectionManager().disconnect(qp);
        events.poll(WAIT, client);                     // its Disconnected
        qp.close();
    }

    private static long openFds() throws Exception {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.count();
        }
    }
}
