package org.jwarp.engine.provider;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.jwarp.verbs.AcceptParams;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.CmEvent;
import org.jwarp.verbs.CmEventQueue;
import org.jwarp.verbs.ConnectParams;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.Listener;
import org.jwarp.verbs.MemoryRegion;
import org.jwarp.verbs.MpaTimeouts;
import org.jwarp.verbs.QpState;
import org.jwarp.verbs.RecvWr;
import org.jwarp.verbs.SendWr;
import org.jwarp.verbs.WcStatus;
import org.jwarp.verbs.WrOpcode;
import org.junit.jupiter.api.Test;

/** The connection manager over real loopback TCP: accept, reject, refusal, timeouts, bad peers, negotiation. */
class ConnectionManagerTest {

    static final Duration WAIT = LoopbackPair.WAIT;
    static final InetAddress LO = InetAddress.getLoopbackAddress();

    static DeviceConfig.Builder base() {
        return DeviceConfig.builder().provider(SuiteConfig.jwarp()
                .threadingMode(JwarpConfig.ThreadingMode.DEDICATED).engineThreads(1)
                .idleStrategy(JwarpConfig.IdleStrategyKind.BACKOFF).build())
                ;
    }

    @Test
    void rejectCarriesPrivateDataBack() throws Exception {
        try (LoopbackPair.End client = new LoopbackPair.End(base().build());
             LoopbackPair.End server = new LoopbackPair.End(base().build());
             Listener l = server.device.connectionManager().listen(new InetSocketAddress(LO, 0), 4, server.events)) {
            client.device.connectionManager().connect(l.localAddress(), client.qp, ConnectParams.of("hi".getBytes()),
                    client.events);
            var sent = server.events.expect(CmEvent.ConnectRequest.class, WAIT).request()
                    .reject("busy, try later".getBytes());
            assertNull(sent.toCompletableFuture().get(WAIT.toSeconds(), TimeUnit.SECONDS), "the Reply has left");
            CmEvent.Rejected r = client.events.expect(CmEvent.Rejected.class, WAIT);
            assertArrayEquals("busy, try later".getBytes(), r.peerPrivateData());
            assertSame(QpState.ERROR, client.qp.state());
        }
    }

    /** A server that rejects and stops at once still gets its reason to the client. */
    @Test
    void closingTheDeviceRightAfterARejectStillSendsTheReply() throws Exception {
        for (int round = 0; round < 10; round++) {
            try (LoopbackPair.End client = new LoopbackPair.End(base().build())) {
                LoopbackPair.End server = new LoopbackPair.End(base().build());
                Listener l = server.device.connectionManager().listen(new InetSocketAddress(LO, 0), 4, server.events);
                client.device.connectionManager().connect(l.localAddress(), client.qp, ConnectParams.of(new byte[0]),
                        client.events);
                var sent = server.events.expect(CmEvent.ConnectRequest.class, WAIT).request()
                        .reject(("round " + round).getBytes());
                server.close();
                assertTrue(sent.toCompletableFuture().isDone(), "closing the device settled the reject");
                assertNull(sent.toCompletableFuture().get(), "the Reply went out before the socket closed");
                CmEvent.Rejected r = client.events.expect(CmEvent.Rejected.class, WAIT);
                assertEquals("round " + round, new String(r.peerPrivateData()));
            }
        }
    }

    @Test
    void acceptTellsWhenItsReplyHasLeftOrCouldNotBeSent() throws Exception {
        DeviceConfig cfg = base().mpaTimeouts(new MpaTimeouts(Duration.ofSeconds(5), Duration.ofSeconds(10),
                Duration.ofSeconds(10), Duration.ofMillis(300))).build();
        try (LoopbackPair.End client = new LoopbackPair.End(base().build());
             LoopbackPair.End server = new LoopbackPair.End(cfg);
             Listener l = server.device.connectionManager().listen(new InetSocketAddress(LO, 0), 4, server.events)) {
            client.device.connectionManager().connect(l.localAddress(), client.qp, ConnectParams.of(new byte[0]),
                    client.events);
            var request = server.events.expect(CmEvent.ConnectRequest.class, WAIT).request();
            // no decision in time: the listener says so; a late accept is told its Reply never left
            CmEvent.ConnectError e = server.events.expect(CmEvent.ConnectError.class, WAIT);
            assertSame(CmEvent.ConnectError.Kind.TIMEOUT, e.kind());
            assertTrue(e.reason().startsWith("the application did not accept or reject the connection in time"),
                    e.reason());
            var late = request.accept(server.qp, new byte[0]).toCompletableFuture();
            ExecutionException x = assertThrows(ExecutionException.class, () -> late.get(WAIT.toSeconds(),
                    TimeUnit.SECONDS));
            assertTrue(x.getCause().getMessage().startsWith("the MPA Reply was not sent: the connection setup had"
                    + " already ended"), x.getCause().getMessage());
        }
        try (LoopbackPair.End client = new LoopbackPair.End(base().build());
             LoopbackPair.End server = new LoopbackPair.End(base().build());
             Listener l = server.device.connectionManager().listen(new InetSocketAddress(LO, 0), 4, server.events)) {
            client.device.connectionManager().connect(l.localAddress(), client.qp, ConnectParams.of(new byte[0]),
                    client.events);
            var sent = server.events.expect(CmEvent.ConnectRequest.class, WAIT).request().accept(server.qp, new byte[0]);
            assertNull(sent.toCompletableFuture().get(WAIT.toSeconds(), TimeUnit.SECONDS));
            client.events.expect(CmEvent.Established.class, WAIT);
        }
    }

    @Test
    void aClosedPortIsUnreachable() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, LO)) {
            port = s.getLocalPort();
        }
        try (LoopbackPair.End client = new LoopbackPair.End(base().build())) {
            client.device.connectionManager().connect(new InetSocketAddress(LO, port), client.qp,
                    ConnectParams.of(new byte[0]), client.events);
            CmEvent.Unreachable u = client.events.expect(CmEvent.Unreachable.class, WAIT);
            assertTrue(u.reason().toLowerCase().contains("refused"), u.reason());
            assertEquals(new InetSocketAddress(LO, port), u.remote(), "the address that could not be reached");
        }
    }

    @Test
    void aPeerThatNeverRepliesTimesOut() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 1, LO);
             LoopbackPair.End client = new LoopbackPair.End(base().build())) {
            client.device.connectionManager().connect(new InetSocketAddress(LO, silent.getLocalPort()), client.qp,
                    ConnectParams.of(new byte[0]).withTimeout(Duration.ofMillis(300)), client.events);
            try (Socket accepted = silent.accept()) {
                CmEvent.ConnectError e = client.events.expect(CmEvent.ConnectError.class, WAIT);
                assertSame(CmEvent.ConnectError.Kind.TIMEOUT, e.kind());
                // it did send a valid MPA Request first
                byte[] key = accepted.getInputStream().readNBytes(16);
                assertEquals("MPA ID Req Frame", new String(key));
            }
        }
    }

    @Test
    void garbageInsteadOfAnMpaRequestIsClosedAndTheListenerCarriesOn() throws Exception {
        DeviceConfig cfg = base().mpaTimeouts(new MpaTimeouts(Duration.ofSeconds(5), Duration.ofSeconds(10),
                Duration.ofSeconds(10), Duration.ofSeconds(10))).build();
        try (LoopbackPair.End server = new LoopbackPair.End(cfg);
             Listener l = server.device.connectionManager().listen(new InetSocketAddress(LO, 0), 4, server.events)) {
            try (Socket raw = new Socket(LO, l.localAddress().getPort())) {
                raw.getOutputStream().write("GET / HTTP/1.1\r\nHost: jwarp\r\n\r\n".getBytes());
                InputStream in = raw.getInputStream();
                // RFC 5044 §7.1.2: a malformed Request gets no Reply; the connection is closed
                assertEquals(-1, in.read());
            }
            // the server application hears of it, once, with what the client sent
            CmEvent.ConnectError e = server.events.expect(CmEvent.ConnectError.class, WAIT);
            assertSame(CmEvent.ConnectError.Kind.PROTOCOL, e.kind());
            assertNull(e.qp());
            assertTrue(e.reason().matches("the peer 127\\.0\\.0\\.1:\\d+ is not speaking MPA: first bytes 'GET / HT'"),
                    e.reason());
            assertEquals(0, server.events.size(), "no ConnectRequest for garbage");
            try (LoopbackPair.End client = new LoopbackPair.End(base().build())) {
                client.device.connectionManager().connect(l.localAddress(), client.qp, ConnectParams.of(new byte[0]),
                        client.events);
                server.events.expect(CmEvent.ConnectRequest.class, WAIT).request().accept(server.qp, new byte[0]);
                client.events.expect(CmEvent.Established.class, WAIT);
            }
        }
    }

    @Test
    void aClientThatSendsNoMpaRequestInTimeIsReportedOnTheListener() throws Exception {
        DeviceConfig cfg = base().mpaTimeouts(new MpaTimeouts(Duration.ofMillis(300), Duration.ofSeconds(10),
                Duration.ofSeconds(10), Duration.ofSeconds(10))).build();
        try (LoopbackPair.End server = new LoopbackPair.End(cfg);
             Listener l = server.device.connectionManager().listen(new InetSocketAddress(LO, 0), 4, server.events);
             Socket raw = new Socket(LO, l.localAddress().getPort())) {
            raw.getOutputStream().write("MPA ID".getBytes()); // the start of a key, and then silence
            CmEvent.ConnectError e = server.events.expect(CmEvent.ConnectError.class, WAIT);
            assertSame(CmEvent.ConnectError.Kind.TIMEOUT, e.kind());
            assertNull(e.qp());
            assertTrue(e.reason().matches("no MPA Request arrived in time from 127\\.0\\.0\\.1:\\d+"), e.reason());
            assertEquals(-1, raw.getInputStream().read(), "the connection is closed");
        }
    }

    @Test
    void aClientThatSendsBinaryGarbageIsQuotedInHex() throws Exception {
        try (LoopbackPair.End server = new LoopbackPair.End(base().build());
             Listener l = server.device.connectionManager().listen(new InetSocketAddress(LO, 0), 4, server.events);
             Socket raw = new Socket(LO, l.localAddress().getPort())) {
            raw.getOutputStream().write(new byte[] {0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, (byte) 0xfc, 0x03});
            CmEvent.ConnectError e = server.events.expect(CmEvent.ConnectError.class, WAIT);
            assertTrue(e.reason().endsWith("is not speaking MPA: first bytes '\\x16\\x03\\x01\\x02\\x00\\x01\\x00\\x01'"),
                    e.reason());
        }
    }

    @Test
    void aPeerThatNeverSendsItsRtrTimesOut() throws Exception {
        DeviceConfig cfg = base().mpaTimeouts(new MpaTimeouts(Duration.ofSeconds(5), Duration.ofSeconds(10),
                Duration.ofMillis(300), Duration.ofSeconds(10))).build();
        try (LoopbackPair.End server = new LoopbackPair.End(cfg);
             Listener l = server.device.connectionManager().listen(new InetSocketAddress(LO, 0), 4, server.events);
             Socket raw = new Socket(LO, l.localAddress().getPort())) {
            // a valid peer-to-peer MPA v2 Request offering a Write RTR ... and then silence
            var policy = org.jwarp.wire.mpa.MpaPolicy.defaults().withRtr(true,
                    java.util.EnumSet.of(org.jwarp.wire.mpa.RtrType.WRITE));
            raw.getOutputStream().write(org.jwarp.wire.mpa.MpaNegotiation.request(policy, new byte[0]).toBytes());
            server.events.expect(CmEvent.ConnectRequest.class, WAIT).request().accept(server.qp, new byte[0]);
            byte[] replyKey = raw.getInputStream().readNBytes(16);
            assertEquals("MPA ID Rep Frame", new String(replyKey));
            CmEvent.ConnectError e = server.events.expect(CmEvent.ConnectError.class, WAIT);
            assertSame(CmEvent.ConnectError.Kind.TIMEOUT, e.kind());
            assertTrue(e.reason().contains("RTR"), e.reason());
            assertSame(QpState.ERROR, server.qp.state());
        }
    }

    @Test
    void listeningOnAPortInUseSaysSo() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, LO);
             LoopbackPair.End server = new LoopbackPair.End(base().build())) {
            UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> server.device.connectionManager()
                    .listen(new InetSocketAddress(LO, taken.getLocalPort()), 4, new CmEventQueue()));
            assertTrue(e.getMessage().contains("cannot listen on"), e.getMessage());
        }
    }

    @Test
    void crcIsOffOnlyWhenNeitherSideWantsIt() throws Exception {
        DeviceConfig off = base().crcPolicy(DeviceConfig.CrcPolicy.OFF).build();
        try (LoopbackPair p = new LoopbackPair(off, off, new byte[0], new byte[0])) {
            assertFalse(p.clientEstablished.attr().crc());
            assertFalse(p.serverEstablished.attr().crc());
            exchange(p);
        }
        try (LoopbackPair p = new LoopbackPair(off, base().build(), new byte[0], new byte[0])) {
            assertTrue(p.clientEstablished.attr().crc(), "RFC 5044 §4.4: C in either frame turns CRC on");
            exchange(p);
        }
    }

    @Test
    void markersWhenThePeerAsks() throws Exception {
        DeviceConfig wants = base().markerPolicy(DeviceConfig.MarkerPolicy.REQUEST).build();
        try (LoopbackPair p = new LoopbackPair(wants, base().build(), new byte[0], new byte[0])) {
            assertTrue(p.clientEstablished.attr().markersRx());
            assertFalse(p.clientEstablished.attr().markersTx());
            assertTrue(p.serverEstablished.attr().markersTx());
            exchange(p);
        }
    }

    @Test
    void irdAndOrdAreNegotiated() throws Exception {
        try (LoopbackPair p = new LoopbackPair(base().build(), base().build(), new byte[0], new byte[0])) {
            var c = p.clientEstablished.attr();
            var s = p.serverEstablished.attr();
            // RFC 6581 §9.1: initiator ORD <= responder IRD and responder ORD <= initiator IRD
            assertTrue(c.ord() <= s.ird() && s.ord() <= c.ird(), c + " / " + s);
            assertEquals(2, c.mpaRevision());
        }
    }

    @Test
    void theAcceptorsOwnIrdAndOrdGoInTheReply() throws Exception {
        // RFC 6581 §9.1: the responder lowers its ORD to the initiator's IRD and raises its IRD to
        // the initiator's ORD; what it asked for in rdma_accept is where it starts from.
        ConnectParams connect = new ConnectParams(new byte[0], Duration.ofSeconds(10), 3, 5);
        AcceptParams accept = new AcceptParams(new byte[0], 7, 2);
        try (LoopbackPair p = new LoopbackPair(base().build(), base().build(), connect, accept)) {
            var s = p.serverEstablished.attr();
            var c = p.clientEstablished.attr();
            assertEquals(5, s.ord(), "responder ORD lowered to the initiator's IRD: " + s);
            assertEquals(3, s.ird(), "responder IRD raised to the initiator's ORD: " + s);
            assertEquals(3, c.ord(), c.toString());
            assertEquals(5, c.ird(), c.toString());
            assertEquals(5, c.peerOrd(), c.toString());
            assertEquals(3, c.peerIrd(), c.toString());
            exchange(p);
        }
        AcceptParams small = new AcceptParams(new byte[0], 1, 8);
        try (LoopbackPair p = new LoopbackPair(base().build(), base().build(), connect, small)) {
            var s = p.serverEstablished.attr();
            assertEquals(1, s.ord(), s.toString());
            assertEquals(8, s.ird(), s.toString());
            assertEquals(8, p.clientEstablished.attr().peerIrd());
        }
    }

    @Test
    void mpaRevisionOneWithoutRtr() throws Exception {
        DeviceConfig v1 = base().mpaRevision(1).peerToPeer(false).build();
        try (LoopbackPair p = new LoopbackPair(v1, v1, "v1".getBytes(), new byte[0])) {
            assertEquals(1, p.clientEstablished.attr().mpaRevision());
            // revision 1 carries no IRD/ORD: ConnectionRequest says "not negotiated", 0x3FFF
            assertEquals(0x3FFF, p.connectRequest.request().peerIrd());
            assertEquals(0x3FFF, p.connectRequest.request().peerOrd());
            exchange(p);
        }
    }

    /** A Write, a Read back and a Send: the connection carries data after the given negotiation. */
    static void exchange(LoopbackPair p) {
        int n = 200_000;
        MemoryRegion src = p.client.register(n, Access.LOCAL_WRITE);
        MemoryRegion dst = p.server.register(n, Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ);
        MemoryRegion back = p.client.register(n, Access.LOCAL_WRITE);
        LoopbackTest.fill(src.segment(), 5);
        p.server.qp.postRecv(new RecvWr().wrId(1).addSge(dst, 0, 1000));
        p.client.qp.postSend(new SendWr().wrId(2).opcode(WrOpcode.RDMA_WRITE).addSge(src, 0, n)
                .remote(dst.iova(), dst.rkey()));
        p.client.qp.postSend(new SendWr().wrId(3).opcode(WrOpcode.RDMA_READ).signaled(true).addSge(back, 0, n)
                .remote(dst.iova(), dst.rkey()));
        assertSame(WcStatus.SUCCESS, p.client.next().status());
        LoopbackTest.assertSameBytes(src.segment(), 0, back.segment(), 0, n);
        p.client.qp.postSend(new SendWr().wrId(4).opcode(WrOpcode.SEND).signaled(true).addSge(src, 0, 1000));
        assertSame(WcStatus.SUCCESS, p.client.next().status());
        assertEquals(1000, p.server.next().byteLen());
    }
}
