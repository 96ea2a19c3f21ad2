package org.jwarp.engine.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.CmEvent;
import org.jwarp.verbs.CompletionQueue;
import org.jwarp.verbs.MemoryRegion;
import org.jwarp.verbs.PostStatus;
import org.jwarp.verbs.QpState;
import org.jwarp.verbs.RdmaDevice;
import org.jwarp.verbs.RecvWr;
import org.jwarp.verbs.SendFlags;
import org.jwarp.verbs.SendWr;
import org.jwarp.verbs.WcStatus;
import org.jwarp.verbs.WorkCompletion;
import org.jwarp.verbs.WrOpcode;
import org.jwarp.wire.rdmap.DdpError;
import org.jwarp.wire.rdmap.RdmapError;
import org.jwarp.wire.rdmap.TerminateError;
import org.junit.jupiter.api.Test;

/**
 * An application that closes the {@link Arena} of a registered region while the region is still
 * registered and in use, in every direction the engine touches application memory: the
 * connection that used it ends with the RFC 5040 Terminate that fits, the request whose memory
 * is gone completes with an error status, the rest are flushed, the engine thread lives on (no
 * "failed on the engine thread" report, no device failure) and another connection on the same
 * engine thread keeps moving verified data.
 */
class FreedMemoryTest {

    static final Duration WAIT = Duration.ofSeconds(20);
    static final int SIZE = 64 * 1024;
    static final int RW = Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ;

    @Test
    void aPeerWritingIntoFreedMemoryGetsAnInvalidStagTerminateAndTheOtherConnectionCarriesOn() throws Exception {
        try (DevicePair d = new DevicePair(4096); CapturedErr log = new CapturedErr()) {
            DevicePair.Connected victimPair = d.connect();
            DevicePair.Connected healthyPair = d.connect();     // both on the one engine thread of each device
            Arena doomed = Arena.ofShared();
            MemoryRegion victim = d.spd.registerMemory(doomed.allocate(SIZE, 64), Access.LOCAL_WRITE
                    | Access.REMOTE_WRITE);
            MemoryRegion healthy = d.serverRegion(SIZE, RW);
            MemoryRegion inbox = d.serverRegion(1024, Access.LOCAL_WRITE);
            MemoryRegion back = d.clientRegion(SIZE, Access.LOCAL_WRITE);
            MemoryRegion source = d.clientRegion(SIZE, Access.LOCAL_WRITE);
            for (int i = 0; i < SIZE; i++) {
                source.segment().set(ValueLayout.JAVA_BYTE, i, (byte) (i * 7 + 1));
            }
            for (int r = 0; r < 2; r++) {
                assertEquals(PostStatus.OK, victimPair.server().postRecv(new RecvWr().wrId(500 + r)
                        .addSge(inbox, r * 512L, 512)));
            }
            SendWr toVictim = new SendWr().opcode(WrOpcode.RDMA_WRITE).addSge(source, 0, SIZE)
                    .remote(victim.iova(), victim.rkey());
            int posted = 0;
            while (posted < 60) {
                if (victimPair.client().postSend(toVictim.wrId(posted)) == PostStatus.OK) {
                    posted++;
                }
                if (posted == 10 && victim.segment().scope().isAlive()) {
                    closeWhileInUse(doomed);     // the application frees the memory; the region stays registered
                    assertFalse(victim.isValid(), "a region whose memory is gone is not valid");
                }
                drain(d.ccq);
            }
            CmEvent.Disconnected serverSide = DevicePair.expect(d.serverEvents, CmEvent.Disconnected.class, d.server);
            assertSame(victimPair.server(), serverSide.qp(), "the victim connection ended, not the other");
            // RFC 5040 §4.8: RDMAP layer, remote protection error, invalid STag
            assertEquals(RdmapError.INVALID_STAG.controlBits(), serverSide.terminate(), describe(serverSide));
            assertSame(CmEvent.Disconnected.Cause.TERMINATE_SENT, serverSide.cause());
            assertEquals(QpState.ERROR, victimPair.server().state());
            CmEvent clientSide = victimPair.clientEvents().poll(WAIT, d.client);
            assertTrue(clientSide instanceof CmEvent.Disconnected c
                    && c.terminate() == RdmapError.INVALID_STAG.controlBits(), "the peer sees the Terminate: " + clientSide);
            // the victim QP's receives are flushed, once each
            List<Long> flushed = new ArrayList<>();
            WorkCompletion wc = new WorkCompletion();
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (flushed.size() < 2 && System.nanoTime() < deadline) {
                if (drainOne(d.scq, wc)) {
                    assertSame(WcStatus.WR_FLUSH_ERR, wc.status(), wc.toString());
                    flushed.add(wc.wrId());
                }
            }
            assertEquals(List.of(500L, 501L), flushed);
            drain(d.ccq);
            assertEquals(PostStatus.OK, healthyPair.client().postSend(new SendWr().wrId(99).opcode(WrOpcode.RDMA_WRITE)
                    .signaled(true).addSge(source, 0, SIZE).remote(healthy.iova(), healthy.rkey())));
            assertEquals(PostStatus.OK, healthyPair.client().postSend(new SendWr().wrId(100).opcode(WrOpcode.RDMA_READ)
                    .signaled(true).addSge(back, 0, SIZE).remote(healthy.iova(), healthy.rkey())));
            assertSame(WcStatus.SUCCESS, next(d.ccq, 99).status());
            assertSame(WcStatus.SUCCESS, next(d.ccq, 100).status());
            assertEquals(-1, back.segment().mismatch(source.segment()), "the WRITE's bytes arrived and came back");
            assertEngineAlive(log, d.server, d.client);
        }
    }

    @Test
    void aReadOfFreedMemoryCompletesWithARemoteAccessErrorAndFlushesTheReadBehindIt() throws Exception {
        try (LoopbackPair p = new LoopbackPair(LoopbackPair.dedicated(), LoopbackPair.dedicated(), new byte[0],
                new byte[0]); CapturedErr log = new CapturedErr()) {
            Arena doomed = Arena.ofShared();
            MemoryRegion gone = p.server.pd.registerMemory(doomed.allocate(SIZE, 64), RW);
            MemoryRegion sink = p.client.register(SIZE, Access.LOCAL_WRITE);
            doomed.close();
            assertFalse(gone.isValid());
            assertEquals(PostStatus.OK, p.client.qp.postSend(new SendWr().wrId(1).opcode(WrOpcode.RDMA_READ)
                    .signaled(true).addSge(sink, 0, SIZE).remote(gone.iova(), gone.rkey())));
            MemoryRegion fine = p.server.register(SIZE, RW);
            assertEquals(PostStatus.OK, p.client.qp.postSend(new SendWr().wrId(2).opcode(WrOpcode.RDMA_READ)
                    .signaled(true).addSge(sink, 0, SIZE).remote(fine.iova(), fine.rkey())));
            WorkCompletion read = p.client.next();
            assertEquals(1, read.wrId());
            assertSame(WcStatus.REM_ACCESS_ERR, read.status(), read.toString());
            assertTerminate(RdmapError.INVALID_STAG, read, true);
            WorkCompletion after = p.client.next();
            assertEquals(2, after.wrId());
            assertSame(WcStatus.WR_FLUSH_ERR, after.status(), "the Read behind it is flushed: " + after);
            assertPeerTerminate(p, RdmapError.INVALID_STAG);
            assertEngineAlive(log, p.server.device, p.client.device);
        }
    }

    @Test
    void anAtomicOnFreedMemoryCompletesWithARemoteAccessError() throws Exception {
        try (LoopbackPair p = new LoopbackPair(LoopbackPair.dedicated(), LoopbackPair.dedicated(), new byte[0],
                new byte[0]); CapturedErr log = new CapturedErr()) {
            Arena doomed = Arena.ofShared();
            MemoryRegion gone = p.server.pd.registerMemory(doomed.allocate(8, 8), Access.LOCAL_WRITE
                    | Access.REMOTE_ATOMIC);
            MemoryRegion result = p.client.register(8, Access.LOCAL_WRITE);
            doomed.close();
            assertEquals(PostStatus.OK, p.client.qp.postSend(new SendWr().wrId(7).opcode(WrOpcode.ATOMIC_FETCH_AND_ADD)
                    .signaled(true).addSge(result, 0, 8).remote(gone.iova(), gone.rkey()).fetchAdd(2)));
            WorkCompletion add = p.client.next();
            assertSame(WcStatus.REM_ACCESS_ERR, add.status(), add.toString());
            assertTerminate(RdmapError.INVALID_STAG, add, true);
            assertPeerTerminate(p, RdmapError.INVALID_STAG);
            assertEngineAlive(log, p.server.device, p.client.device);
        }
    }

    @Test
    void aSendIntoAFreedReceiveBufferCompletesTheReceiveWithALocalProtectionError() throws Exception {
        try (LoopbackPair p = new LoopbackPair(LoopbackPair.dedicated(), LoopbackPair.dedicated(), new byte[0],
                new byte[0]); CapturedErr log = new CapturedErr()) {
            Arena doomed = Arena.ofShared();
            MemoryRegion gone = p.server.pd.registerMemory(doomed.allocate(SIZE, 64), Access.LOCAL_WRITE);
            MemoryRegion spare = p.server.register(SIZE, Access.LOCAL_WRITE);
            MemoryRegion source = p.client.register(SIZE, Access.LOCAL_WRITE);
            assertEquals(PostStatus.OK, p.server.qp.postRecv(new RecvWr().wrId(10).addSge(gone, 0, SIZE)));
            assertEquals(PostStatus.OK, p.server.qp.postRecv(new RecvWr().wrId(11).addSge(spare, 0, SIZE)));
            doomed.close();
            assertEquals(PostStatus.OK, p.client.qp.postSend(new SendWr().wrId(1).opcode(WrOpcode.SEND)
                    .signaled(true).addSge(source, 0, SIZE)));
            WorkCompletion recv = p.server.next();
            assertEquals(10, recv.wrId());
            assertSame(WcStatus.LOC_PROT_ERR, recv.status(), recv.toString());
            assertTerminate(DdpError.LOCAL_CATASTROPHIC, recv, false);
            WorkCompletion other = p.server.next();
            assertEquals(11, other.wrId());
            assertSame(WcStatus.WR_FLUSH_ERR, other.status(), other.toString());
            // the sender learns it from the Terminate (RFC 5041 §7.2: DDP layer, local catastrophic)
            CmEvent ended = p.client.events.poll(WAIT, p.client.device);
            assertTrue(ended instanceof CmEvent.Disconnected c
                    && c.terminate() == DdpError.LOCAL_CATASTROPHIC.controlBits(), "" + ended);
            assertEngineAlive(log, p.server.device, p.client.device);
        }
    }

    @Test
    void aReadIntoAFreedSinkCompletesWithALocalProtectionError() throws Exception {
        try (LoopbackPair p = new LoopbackPair(LoopbackPair.dedicated(), LoopbackPair.dedicated(), new byte[0],
                new byte[0]); CapturedErr log = new CapturedErr()) {
            Arena doomed = Arena.ofShared();
            MemoryRegion sink = p.client.pd.registerMemory(doomed.allocate(SIZE, 64), Access.LOCAL_WRITE);
            MemoryRegion remote = p.server.register(SIZE, RW);
            doomed.close();
            assertEquals(PostStatus.OK, p.client.qp.postSend(new SendWr().wrId(1).opcode(WrOpcode.RDMA_READ)
                    .signaled(true).addSge(sink, 0, SIZE).remote(remote.iova(), remote.rkey())));
            WorkCompletion read = p.client.next();
            assertSame(WcStatus.LOC_PROT_ERR, read.status(), read.toString());
            assertTerminate(RdmapError.LOCAL_CATASTROPHIC, read, false);
            CmEvent ended = p.server.events.poll(WAIT, p.server.device);
            assertTrue(ended instanceof CmEvent.Disconnected c
                    && c.terminate() == RdmapError.LOCAL_CATASTROPHIC.controlBits(), "" + ended);
            assertEngineAlive(log, p.server.device, p.client.device);
        }
    }

    @Test
    void aWriteOrSendFromFreedMemoryCompletesWithALocalProtectionErrorAndFlushesTheRest() throws Exception {
        for (WrOpcode op : new WrOpcode[] {WrOpcode.RDMA_WRITE, WrOpcode.SEND}) {
            try (LoopbackPair p = new LoopbackPair(LoopbackPair.dedicated(), LoopbackPair.dedicated(), new byte[0],
                    new byte[0]); CapturedErr log = new CapturedErr()) {
                Arena doomed = Arena.ofShared();
                MemoryRegion source = p.client.pd.registerMemory(doomed.allocate(SIZE, 64), Access.LOCAL_WRITE);
                MemoryRegion kept = p.client.register(SIZE, Access.LOCAL_WRITE);
                MemoryRegion remote = p.server.register(SIZE, RW);
                MemoryRegion inbox = p.server.register(SIZE, Access.LOCAL_WRITE);
                assertEquals(PostStatus.OK, p.server.qp.postRecv(new RecvWr().wrId(30).addSge(inbox, 0, SIZE)));
                doomed.close();
                assertEquals(PostStatus.OK, p.client.qp.postSend(new SendWr().wrId(1).opcode(op).signaled(true)
                        .addSge(source, 0, SIZE).remote(remote.iova(), remote.rkey())));
                assertEquals(PostStatus.OK, p.client.qp.postSend(new SendWr().wrId(2).opcode(WrOpcode.RDMA_WRITE)
                        .signaled(true).addSge(kept, 0, SIZE).remote(remote.iova(), remote.rkey())));
                WorkCompletion first = p.client.next();
                assertEquals(1, first.wrId());
                assertSame(WcStatus.LOC_PROT_ERR, first.status(), op + ": " + first);
                assertTerminate(RdmapError.LOCAL_CATASTROPHIC, first, false);
                WorkCompletion second = p.client.next();
                assertEquals(2, second.wrId());
                assertSame(WcStatus.WR_FLUSH_ERR, second.status(), op + ": " + second);
                // RFC 5040 §4.8: the peer is told with an RDMAP local catastrophic error
                CmEvent ended = p.server.events.poll(WAIT, p.server.device);
                assertTrue(ended instanceof CmEvent.Disconnected c
                        && c.terminate() == RdmapError.LOCAL_CATASTROPHIC.controlBits(), op + ": " + ended);
                WorkCompletion recv = p.server.next();
                assertEquals(30, recv.wrId());
                assertSame(WcStatus.WR_FLUSH_ERR, recv.status(), op + ": " + recv);
                assertEngineAlive(log, p.server.device, p.client.device);
            }
        }
    }

    @Test
    void anInlineSendFromClosedMemoryIsRefusedAtPostAndTheQueuePairCarriesOn() throws Exception {
        try (LoopbackPair p = new LoopbackPair(LoopbackPair.dedicated(), LoopbackPair.dedicated(), new byte[0],
                new byte[0]); CapturedErr log = new CapturedErr()) {
            Arena doomed = Arena.ofShared();
            var closedSource = doomed.allocate(64, 8);
            doomed.close();
            MemoryRegion inbox = p.server.register(64, Access.LOCAL_WRITE);
            assertEquals(PostStatus.OK, p.server.qp.postRecv(new RecvWr().wrId(40).addSge(inbox, 0, 64)));
            int rc = p.client.qp.postSend(new SendWr().wrId(1).opcode(WrOpcode.SEND).signaled(true)
                    .addFlags(SendFlags.INLINE).addInlineSge(closedSource, 0, 64));
            assertEquals(PostStatus.INVALID_WR, PostStatus.code(rc), PostStatus.toString(rc));
            var live = p.client.arena.allocate(64, 8);
            live.fill((byte) 5);
            assertEquals(PostStatus.OK, p.client.qp.postSend(new SendWr().wrId(2).opcode(WrOpcode.SEND).signaled(true)
                    .addFlags(SendFlags.INLINE).addInlineSge(live, 0, 64)));
            WorkCompletion sent = p.client.next();
            assertEquals(2, sent.wrId());
            assertSame(WcStatus.SUCCESS, sent.status(), sent.toString());
            WorkCompletion recv = p.server.next();
            assertSame(WcStatus.SUCCESS, recv.status(), recv.toString());
            assertEquals(5, inbox.segment().get(ValueLayout.JAVA_BYTE, 63));
            assertEngineAlive(log, p.server.device, p.client.device);
        }
    }

    // ---- helpers ---------------------------------------------------------------------------------

    /** The peer's connection event names the Terminate {@code expected} (TERMINATE_SENT on its side). */
    private static void assertPeerTerminate(LoopbackPair p, TerminateError expected) throws InterruptedException {
        CmEvent serverSide = p.server.events.poll(WAIT, p.server.device);
        assertTrue(serverSide instanceof CmEvent.Disconnected d && d.cause() == CmEvent.Disconnected.Cause.TERMINATE_SENT
                && d.terminate() == expected.controlBits(), "the side that found the freed memory: " + serverSide);
        CmEvent clientSide = p.client.events.poll(WAIT, p.client.device);
        assertTrue(clientSide instanceof CmEvent.Disconnected d && d.terminate() == expected.controlBits(),
                "the peer: " + clientSide);
    }

    private static void assertTerminate(TerminateError expected, WorkCompletion wc, boolean fromPeer) {
        assertEquals(expected.layer(), wc.terminateLayer(), wc.toString());
        assertEquals(expected.errorType(), wc.terminateErrorType(), wc.toString());
        assertEquals(expected.errorCode(), wc.terminateErrorCode(), wc.toString());
        assertEquals(fromPeer, wc.terminateFromPeer(), wc.toString());
    }

    /** No connection failed as a bug, no device failed: the engine threads handled it. */
    private static void assertEngineAlive(CapturedErr log, RdmaDevice... devices) {
        for (RdmaDevice dev : devices) {
            assertTrue(dev.failure().isEmpty(), "the device failed: " + dev.failure());
        }
        assertFalse(log.text().contains("failed on the engine thread"), log.text());
        assertFalse(log.text().contains("Already closed"), log.text());
    }

    private static String describe(CmEvent.Disconnected d) {
        return d + String.format(" (terminate %08x)", d.terminate());
    }

    private static WorkCompletion next(CompletionQueue cq, long wrId) {
        WorkCompletion wc = new WorkCompletion();
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            if (drainOne(cq, wc) && wc.wrId() == wrId) {
                return wc;
            }
        }
        throw new AssertionError("no completion of " + wrId + " within " + WAIT);
    }

    /**
     * Closes a shared arena that the engine may be reading into at this moment: such a close is
     * refused while a system call holds the memory (NIO's, or a held call of the other layers), so
     * it is tried again until the call let go.
     */
    private static void closeWhileInUse(Arena arena) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (true) {
            try {
                arena.close();
                return;
            } catch (IllegalStateException held) {
                assertTrue(System.nanoTime() < deadline, "the arena stayed in use: " + held);
                Thread.onSpinWait();
            }
        }
    }

    private static void drain(CompletionQueue cq) {
        WorkCompletion wc = new WorkCompletion();
        while (drainOne(cq, wc)) {
            // only freeing send-queue room
        }
    }

    private static boolean drainOne(CompletionQueue cq, WorkCompletion wc) {
        WorkCompletion[] one = {wc};
        return cq.poll(one) == 1;
    }

    /** Standard error, where the engine reports failures, captured until closed. */
    private static final class CapturedErr implements AutoCloseable {
        private final ByteArrayOutputStream log = new ByteArrayOutputStream();
        private final PrintStream saved = System.err;

        CapturedErr() {
            System.setErr(new PrintStream(log, true));
        }

        String text() {
            return log.toString();
        }

        @Override
        public void close() {
            System.setErr(saved);
        }
    }
}
