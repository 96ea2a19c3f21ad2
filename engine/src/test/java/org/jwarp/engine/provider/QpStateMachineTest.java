package org.jwarp.engine.provider;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.EnumSet;
import java.util.Set;
import org.jwarp.verbs.AcceptParams;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.CmEvent;
import org.jwarp.verbs.ConnectParams;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.MemoryRegion;
import org.jwarp.verbs.PostStatus;
import org.jwarp.verbs.QpState;
import org.jwarp.verbs.RecvWr;
import org.jwarp.verbs.SendWr;
import org.jwarp.verbs.WcOpcode;
import org.jwarp.verbs.WcStatus;
import org.jwarp.verbs.WorkCompletion;
import org.jwarp.verbs.WrOpcode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

/**
 * Every edge of the queue pair's state machine (QpState's table, OFED's {@code ib_modify_qp_is_ok}
 * for these states, and the error transitions of RFC 5040 §6), carried out by the engine: what
 * {@code modify} allows and refuses, what each state does with posted work, and a QP reused
 * through RESET → INIT for a second connection.
 */
class QpStateMachineTest {

    @ParameterizedTest
    @EnumSource(JwarpConfig.ThreadingMode.class)
    void aNewQpIsInInitAndModifyRefusesTheConnectionManagersStates(JwarpConfig.ThreadingMode mode) {
        try (LoopbackPair.End end = new LoopbackPair.End(DeviceConfig.builder().provider(SuiteConfig.jwarp()
                .threadingMode(mode).build()).build())) {
            assertSame(QpState.INIT, end.qp.state());
            end.qp.modify(QpState.INIT);
            assertSame(QpState.INIT, end.qp.state(), "INIT -> INIT is legal and changes nothing");
            for (QpState cm : EnumSet.of(QpState.RTR, QpState.RTS)) {
                IllegalStateException e = assertThrows(IllegalStateException.class, () -> end.qp.modify(cm));
                assertTrue(e.getMessage().contains("connection manager"), e.getMessage());
            }
            assertSame(QpState.INIT, end.qp.state());
        }
    }

    @Test
    void errorFlushesWhatIsPostedAndWhatIsPostedAfter() {
        try (LoopbackPair.End end = new LoopbackPair.End(LoopbackPair.dedicated())) {
            MemoryRegion mr = end.register(64, Access.LOCAL_WRITE);
            assertEquals(PostStatus.OK, end.qp.postRecv(recv(mr, 1)));
            assertEquals(PostStatus.OK, end.qp.postRecv(recv(mr, 2)));
            end.qp.modify(QpState.ERROR);
            assertSame(QpState.ERROR, end.qp.state(), "modify returns once the engine carried it out");
            expectFlush(end, 1, WcOpcode.RECV);
            expectFlush(end, 2, WcOpcode.RECV);
            assertEquals(PostStatus.OK, end.qp.postRecv(recv(mr, 3)), "ERROR takes posts and flushes them");
            expectFlush(end, 3, WcOpcode.RECV);
            SendWr send = new SendWr().wrId(4).opcode(WrOpcode.SEND).signaled(true).addSge(mr.lkey(), 0, 8);
            assertEquals(PostStatus.OK, end.qp.postSend(send));
            expectFlush(end, 4, WcOpcode.SEND);
        }
    }

    @Test
    void fromErrorOnlyResetAndErrorAreLegal() {
        try (LoopbackPair.End end = new LoopbackPair.End(LoopbackPair.dedicated())) {
            end.qp.modify(QpState.ERROR);
            end.qp.modify(QpState.ERROR);
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> end.qp.modify(QpState.INIT));
            assertTrue(e.getMessage().contains("ERROR -> INIT"), e.getMessage());
            assertSame(QpState.ERROR, end.qp.state());
            end.qp.modify(QpState.RESET);
            assertSame(QpState.RESET, end.qp.state());
        }
    }

    @Test
    void resetDiscardsPostedWorkWithoutCompletionsAndRefusesPosts() {
        try (LoopbackPair.End end = new LoopbackPair.End(LoopbackPair.dedicated())) {
            MemoryRegion mr = end.register(64, Access.LOCAL_WRITE);
            for (int i = 1; i <= 3; i++) {
                assertEquals(PostStatus.OK, end.qp.postRecv(recv(mr, i)));
            }
            end.qp.modify(QpState.RESET);
            assertSame(QpState.RESET, end.qp.state());
            assertEquals(PostStatus.INVALID_STATE, PostStatus.code(end.qp.postRecv(recv(mr, 9))));
            assertEquals(PostStatus.INVALID_STATE, PostStatus.code(end.qp.postSend(
                    new SendWr().wrId(9).opcode(WrOpcode.SEND).addSge(mr.lkey(), 0, 8))));
            assertThrows(IllegalStateException.class, () -> end.qp.modify(QpState.RTR));
            end.qp.modify(QpState.INIT);
            assertSame(QpState.INIT, end.qp.state());
            // completions come in order: if the reset had completed the three, they would come first
            assertEquals(PostStatus.OK, end.qp.postRecv(recv(mr, 10)));
            end.qp.modify(QpState.ERROR);
            expectFlush(end, 10, WcOpcode.RECV);
            assertEquals(0, end.cq.poll(end.wcs, 4), "the reset's discarded receives never complete");
        }
    }

    @ParameterizedTest
    @EnumSource(JwarpConfig.ThreadingMode.class)
    void aQpResetAfterItsConnectionCarriesASecondOne(JwarpConfig.ThreadingMode mode) throws Exception {
        DeviceConfig config = DeviceConfig.builder().provider(SuiteConfig.jwarp().threadingMode(mode).build()).build();
        try (LoopbackPair pair = new LoopbackPair(config, config, new byte[0], new byte[0])) {
            MemoryRegion clientMr = pair.client.register(64, Access.LOCAL_WRITE);
            assertSame(QpState.RTS, pair.client.qp.state());
            assertEquals(PostStatus.OK, pair.client.qp.postRecv(recv(clientMr, 1)));
            pair.client.qp.modify(QpState.RESET);
            assertSame(QpState.RESET, pair.client.qp.state());
            CmEvent.Disconnected local = pair.expect(pair.client, CmEvent.Disconnected.class);
            assertSame(CmEvent.Disconnected.Cause.LOCAL, local.cause());
            pair.expect(pair.server, CmEvent.Disconnected.class);
            assertTrue(pair.client.qp.connectionAttr().isEmpty(), "a reset QP has no connection");

            // the same client QP, through INIT, connects again; the server takes a fresh QP
            pair.client.qp.modify(QpState.INIT);
            LoopbackPair.End server2 = pair.server;
            var qp2 = server2.device.createQp(server2.pd, pair.server.qp.initAttr());
            try {
                pair.client.device.connectionManager().connect(pair.listener.localAddress(), pair.client.qp,
                        ConnectParams.of(new byte[0]), pair.client.events);
                CmEvent.ConnectRequest req = pair.expect(pair.server, CmEvent.ConnectRequest.class);
                req.request().accept(qp2, AcceptParams.of(new byte[0]));
                pair.expect(pair.client, CmEvent.Established.class);
                pair.expect(pair.server, CmEvent.Established.class);
                assertSame(QpState.RTS, pair.client.qp.state());

                MemoryRegion serverMr = server2.register(64, Access.LOCAL_WRITE);
                assertEquals(PostStatus.OK, qp2.postRecv(recv(serverMr, 7)));
                clientMr.segment().asSlice(0, 5).copyFrom(java.lang.foreign.MemorySegment.ofArray(
                        new byte[] {'h', 'e', 'l', 'l', 'o'}));
                assertEquals(PostStatus.OK, pair.client.qp.postSend(
                        new SendWr().wrId(8).opcode(WrOpcode.SEND).signaled(true).addSge(clientMr.lkey(), 0, 5)));
                WorkCompletion sent = nextDriving(pair, pair.client);
                assertEquals(8, sent.wrId());
                assertSame(WcStatus.SUCCESS, sent.status());
                WorkCompletion got = nextDriving(pair, server2);
                assertEquals(7, got.wrId());
                assertEquals(5, got.byteLen());
                assertArrayEquals(new byte[] {'h', 'e', 'l', 'l', 'o'},
                        serverMr.segment().asSlice(0, 5).toArray(ValueLayout.JAVA_BYTE));
            } finally {
                qp2.close();
            }
        }
    }

    @Test
    void modifyErrorOnAnEstablishedQpDisconnectsBothSides() throws Exception {
        try (LoopbackPair pair = new LoopbackPair(LoopbackPair.dedicated(), LoopbackPair.dedicated(), new byte[0],
                new byte[0])) {
            MemoryRegion mr = pair.client.register(64, Access.LOCAL_WRITE);
            assertEquals(PostStatus.OK, pair.client.qp.postRecv(recv(mr, 5)));
            pair.client.qp.modify(QpState.ERROR);
            assertSame(QpState.ERROR, pair.client.qp.state());
            expectFlush(pair.client, 5, WcOpcode.RECV);
            assertSame(CmEvent.Disconnected.Cause.LOCAL, pair.expect(pair.client, CmEvent.Disconnected.class).cause());
            pair.expect(pair.server, CmEvent.Disconnected.class);
            assertSame(QpState.ERROR, pair.server.qp.state(), "the peer's QP leaves RTS when TCP closes");
        }
    }

    @Test
    void aTerminateMovesBothQpsToError() throws Exception {
        try (LoopbackPair pair = new LoopbackPair(LoopbackPair.dedicated(), LoopbackPair.dedicated(), new byte[0],
                new byte[0])) {
            // RFC 5040 §6, RFC 5041 §7.2: a Send with no receive posted is answered with a Terminate
            MemoryRegion mr = pair.client.register(64, Access.LOCAL_WRITE);
            assertEquals(PostStatus.OK, pair.client.qp.postSend(
                    new SendWr().wrId(1).opcode(WrOpcode.SEND).signaled(true).addSge(mr.lkey(), 0, 8)));
            CmEvent.Disconnected sender = pair.expect(pair.client, CmEvent.Disconnected.class);
            CmEvent.Disconnected receiver = pair.expect(pair.server, CmEvent.Disconnected.class);
            assertSame(CmEvent.Disconnected.Cause.TERMINATE_RECEIVED, sender.cause());
            assertSame(CmEvent.Disconnected.Cause.TERMINATE_SENT, receiver.cause());
            assertSame(QpState.ERROR, pair.client.qp.state());
            assertSame(QpState.ERROR, pair.server.qp.state());
        }
    }

    /** A setup the application ends — modify(ERROR) or modify(RESET) while connecting — gives one ConnectError. */
    @ParameterizedTest
    @EnumSource(value = QpState.class, names = {"ERROR", "RESET"})
    void endingASetupLocallyGivesOneConnectError(QpState target) throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 8, InetAddress.getLoopbackAddress());
             LoopbackPair.End end = new LoopbackPair.End(LoopbackPair.dedicated())) {
            end.device.connectionManager().connect((InetSocketAddress) silent.getLocalSocketAddress(), end.qp,
                    ConnectParams.of(new byte[0]), end.events);
            try (var accepted = silent.accept()) {
                assertSame(QpState.INIT, end.qp.state(), "connecting: INIT until the peer answers the MPA Request");
                end.qp.modify(target);
                assertSame(target, end.qp.state());
                CmEvent.ConnectError e = assertInstanceOf(CmEvent.ConnectError.class,
                        end.events.poll(LoopbackPair.WAIT, end.device));
                assertSame(CmEvent.ConnectError.Kind.LOCAL, e.kind());
                assertSame(end.qp, e.qp());
                accepted.setSoTimeout((int) LoopbackPair.WAIT.toMillis());
                accepted.getInputStream().readAllBytes();      // the MPA Request, if it went out, then the close
                assertEquals(0, end.events.size(), "exactly one event");
            }
        }
    }

    private static final Set<WcStatus> FLUSH = EnumSet.of(WcStatus.WR_FLUSH_ERR);

    private static void expectFlush(LoopbackPair.End end, long wrId, WcOpcode opcode) {
        WorkCompletion wc = end.next();
        assertEquals(wrId, wc.wrId());
        assertTrue(FLUSH.contains(wc.status()), wc.toString());
        assertSame(opcode, wc.opcode());
    }

    private static WorkCompletion nextDriving(LoopbackPair pair, LoopbackPair.End end) {
        long deadline = System.nanoTime() + LoopbackPair.WAIT.toNanos();
        while (true) {
            if (end.cq.poll(end.wcs, 1) == 1) {
                return new WorkCompletion().copyFrom(end.wcs[0]);
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("no completion within " + LoopbackPair.WAIT);
            }
            pair.client.device.invoke();
            pair.server.device.invoke();
        }
    }

    private static RecvWr recv(MemoryRegion mr, long wrId) {
        return new RecvWr().wrId(wrId).addSge(mr.lkey(), 0, (int) Math.min(64, mr.length()));
    }
}
