package org.jwarp.engine.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.jwarp.engine.cm.JwarpListener;
import org.jwarp.verbs.CmEvent;
import org.jwarp.verbs.CmEventQueue;
import org.jwarp.verbs.CompletionQueue;
import org.jwarp.verbs.ConnectParams;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.Listener;
import org.jwarp.verbs.QpInitAttr;
import org.jwarp.verbs.QpState;
import org.jwarp.verbs.QueuePair;
import org.jwarp.verbs.RdmaDevice;

/**
 * Every way a connection setup ends gives its side exactly one CM event, and releases what the
 * connection held: a peer that resets TCP after reading our MPA Request, and clients that send
 * garbage to a listener.
 */
class SetupEndTest {

    static final Duration WAIT = Duration.ofSeconds(20);

    static DeviceConfig dedicated() {
        return DeviceConfig.builder().provider(SuiteConfig.jwarp()
                .threadingMode(JwarpConfig.ThreadingMode.DEDICATED).engineThreads(1).build()).build();
    }

    @Test
    void aPeerThatResetsAfterReadingTheMpaRequestGivesOneConnectError() throws Exception {
        try (ServerSocket peer = new ServerSocket(0, 8, InetAddress.getLoopbackAddress());
             RdmaDevice dev = RdmaDevice.open(dedicated())) {
            CompletableFuture<Integer> requestBytes = new CompletableFuture<>();
            java.util.concurrent.CountDownLatch reset = new java.util.concurrent.CountDownLatch(1);
            CompletableFuture.runAsync(() -> {
                try (Socket s = peer.accept()) {
                    InputStream in = s.getInputStream();
                    requestBytes.complete(in.readNBytes(new byte[20], 0, 20));   // the MPA Request's fixed part
                    reset.await();
                    s.setSoLinger(true, 0);                         // close with RST
                } catch (Exception e) {
                    requestBytes.completeExceptionally(e);
                }
            });
            CompletionQueue cq = dev.createCq(16, null);
            QueuePair qp = dev.createQp(dev.allocPd(), QpInitAttr.builder(cq, cq).build());
            CmEventQueue events = new CmEventQueue();
            dev.connectionManager().connect((InetSocketAddress) peer.getLocalSocketAddress(), qp,
                    ConnectParams.of(new byte[0]), events);
            assertEquals(20, requestBytes.get(WAIT.toSeconds(), TimeUnit.SECONDS));
            assertEquals(QpState.INIT, qp.state(), "the peer read the Request and has not answered: the QP stays in INIT");
            reset.countDown();
            CmEvent e = events.poll(WAIT, dev);
            assertNotNull(e, "a reset during MPA setup must end with a CM event");
            CmEvent.ConnectError err = assertInstance(CmEvent.ConnectError.class, e);
            assertSame(CmEvent.ConnectError.Kind.PROTOCOL, err.kind());
            assertTrue(err.reason().contains("reset the connection during MPA setup"), err.reason());
            assertSame(qp, err.qp());
            assertEquals(QpState.ERROR, qp.state());
            assertEquals(0, ((JwarpDevice) dev).connectionCount() - 1, "only the failed QP's flushing connection stays");
            assertEquals(0, events.size(), "exactly one event");
        }
    }

    @Test
    void garbageClientsEachGiveOneConnectErrorAndLeaveNothingBehind() throws Exception {
        try (RdmaDevice dev = RdmaDevice.open(dedicated())) {
            CmEventQueue events = new CmEventQueue();
            Listener listener = dev.connectionManager().listen(
                    new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64, events);
            long fdsBefore = openFds();
            int clients = 100;
            for (int i = 0; i < clients; i++) {
                try (Socket s = new Socket(InetAddress.getLoopbackAddress(), listener.localAddress().getPort())) {
                    OutputStream out = s.getOutputStream();
                    out.write(("GET / HTTP/1.1\r\nHost: x\r\n\r\n" + i).getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                    CmEvent e = events.poll(WAIT, dev);
                    CmEvent.ConnectError err = assertInstance(CmEvent.ConnectError.class, e);
                    assertTrue(err.reason().contains("not speaking MPA"), err.reason());
                }
            }
            assertEquals(0, events.size(), "one event per client");
            assertEquals(0, ((JwarpDevice) dev).connectionCount(), "ended setups are dropped with their buffers");
            // a socket kept per client would show as 100 more; the JVM opens a few of its own meanwhile
            assertTrue(openFds() < fdsBefore + clients / 10, "sockets of ended setups are closed: " + fdsBefore + " -> "
                    + openFds());
            listener.close();
        }
    }

    /**
     * The backlog holds only requests awaiting the application's decision: silent clients beyond it
     * are admitted (bounded on their own, {@link SetupAdmissionTest}), and a complete Request that
     * finds the backlog full waits until a decision gives a place back.
     */
    @Test
    void onlyRequestsAwaitingTheApplicationCountAgainstTheBacklog() throws Exception {
        try (RdmaDevice dev = RdmaDevice.open(dedicated())) {
            CmEventQueue events = new CmEventQueue();
            int backlog = 4;
            Listener listener = dev.connectionManager().listen(
                    new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), backlog, events);
            int port = listener.localAddress().getPort();
            Socket[] silent = new Socket[10];
            for (int i = 0; i < silent.length; i++) {
                silent[i] = new Socket(InetAddress.getLoopbackAddress(), port);
            }
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (((JwarpDevice) dev).connectionCount() < silent.length && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertEquals(silent.length, ((JwarpDevice) dev).connectionCount(), "silent clients beyond the backlog are admitted");
            byte[] request = org.jwarp.wire.mpa.MpaVectors.JAVA_REQUEST.bytes();
            Socket[] requesters = new Socket[backlog + 1];
            CmEvent.ConnectRequest[] delivered = new CmEvent.ConnectRequest[backlog];
            for (int i = 0; i < requesters.length; i++) {
                requesters[i] = new Socket(InetAddress.getLoopbackAddress(), port);
                requesters[i].getOutputStream().write(request);
                if (i < backlog) {
                    delivered[i] = assertInstance(CmEvent.ConnectRequest.class, events.poll(WAIT, dev));
                }
            }
            assertEquals(null, events.poll(Duration.ofMillis(300), dev), "a fifth undecided request waits for room");
            delivered[0].request().reject(new byte[0]).toCompletableFuture().get(WAIT.toSeconds(), TimeUnit.SECONDS);
            assertInstance(CmEvent.ConnectRequest.class, events.poll(WAIT, dev));   // the decision gave its place
            for (Socket s : silent) {
                s.close();                         // each ends its setup: one ConnectError each
            }
            for (Socket s : requesters) {
                s.close();
            }
            for (int i = 0; i < silent.length + backlog; i++) {
                assertInstance(CmEvent.ConnectError.class, events.poll(WAIT, dev));
            }
            deadline = System.nanoTime() + WAIT.toNanos();
            while (((JwarpDevice) dev).connectionCount() > 0 && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertEquals(0, ((JwarpDevice) dev).connectionCount());
            assertEquals(0, ((JwarpListener) listener).dropped(), "no pressure: nobody was dropped");
            listener.close();
        }
    }

    /**
     * A responder that accepted with an RTR agreed (RFC 6581) runs its stream but is not connected
     * until the RTR arrives: a client that closes before sending it ends the server's setup with a
     * ConnectError — never a Disconnected without an Established before it.
     */
    @Test
    void aClientThatClosesBeforeItsRtrGivesTheServerOneConnectError() throws Exception {
        DeviceConfig cfg = ConnectionManagerTest.base().peerToPeer(true).build();
        try (RdmaDevice dev = RdmaDevice.open(cfg)) {
            CmEventQueue events = new CmEventQueue();
            Listener listener = dev.connectionManager().listen(
                    new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 8, events);
            CompletionQueue cq = dev.createCq(16, null);
            QueuePair qp = dev.createQp(dev.allocPd(), QpInitAttr.builder(cq, cq).build());
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), listener.localAddress().getPort())) {
                s.setSoTimeout((int) WAIT.toMillis());
                OutputStream out = s.getOutputStream();
                // RFC 6581 Request: CRC and the enhanced header (S), revision 2, 4 bytes of private data:
                // peer-to-peer with IRD 1, Write RTR with ORD 1
                out.write("MPA ID Req Frame".getBytes(StandardCharsets.US_ASCII));
                out.write(org.jwarp.wire.Wire.unhex("50020004" + "80018001"));
                out.flush();
                CmEvent.ConnectRequest req = assertInstance(CmEvent.ConnectRequest.class, events.poll(WAIT, dev));
                req.request().accept(qp, org.jwarp.verbs.AcceptParams.of(new byte[0]));
                byte[] reply = s.getInputStream().readNBytes(24);
                assertEquals("MPA ID Rep Frame", new String(reply, 0, 16, StandardCharsets.US_ASCII));
                long deadline = System.nanoTime() + WAIT.toNanos();
                while (qp.state() == QpState.INIT && System.nanoTime() < deadline) {
                    Thread.onSpinWait();            // the engine enters RTR right after handing the Reply to TCP
                }
                assertEquals(QpState.RTR, qp.state(), "the stream runs; the RTR has not arrived");
            }
            CmEvent.ConnectError err = assertInstance(CmEvent.ConnectError.class, events.poll(WAIT, dev));
            assertSame(qp, err.qp());
            assertTrue(err.reason().contains("before the connection was established"), err.reason());
            assertEquals(QpState.ERROR, qp.state());
            assertEquals(0, events.size(), "exactly one event");
            listener.close();
        }
    }

    private static long openFds() throws Exception {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.count();
        }
    }

    private static <T> T assertInstance(Class<T> type, Object o) {
        assertNotNull(o, "no " + type.getSimpleName() + " within " + WAIT);
        assertTrue(type.isInstance(o), "expected " + type.getSimpleName() + ", got " + o);
        return type.cast(o);
    }
}
