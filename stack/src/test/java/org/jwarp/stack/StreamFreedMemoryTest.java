package org.jwarp.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.jwarp.stack.StagTable.Region;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.WcStatus;
import org.jwarp.verbs.WorkCompletion;
import org.jwarp.verbs.WrOpcode;
import org.jwarp.wire.rdmap.DdpError;
import org.jwarp.wire.rdmap.RdmapError;
import org.jwarp.wire.rdmap.TerminateError;
import org.junit.jupiter.api.Test;

/**
 * Memory freed under a registered region in the middle of a message — after the segment's or
 * request's checks passed, the application closed the region's arena: the stream answers with
 * the Terminate that fits (checked on the wire), the request whose memory is gone completes with
 * its error status, the rest flush, and nothing escapes as an exception. The engine's
 * {@code FreedMemoryTest} covers the same over TCP, where the checks find the memory gone first.
 */
class StreamFreedMemoryTest {

    static final int RW = Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ;
    static final int SIZE = 8192;       // several FPDUs at the default MULPDU

    static Region register(StreamPair.Side side, Arena arena, long size, int access) {
        MemorySegment m = arena.allocate(size, 8);
        return side.stags.register(StreamPair.PD, m, m.address(), access);
    }

    static void feed(StreamPair.Side to, byte[] bytes, int from, int length) {
        to.stream.receive(MemorySegment.ofArray(bytes), from, length);
    }

    @Test
    void aWriteWhoseTargetIsFreedMidMessageGetsAnRdmapInvalidStagTerminate() {
        try (StreamPair p = StreamErrorsTest.pair(51)) {
            Arena doomed = Arena.ofShared();
            Region src = p.a.register(SIZE, Access.LOCAL_WRITE);
            Region dst = register(p.b, doomed, SIZE, RW);
            p.b.postRecv(r -> r.wrId(50));
            p.a.postSend(w -> w.wrId(1).opcode(WrOpcode.RDMA_WRITE).signaled(true).addSge(src.stag(), 0, SIZE)
                    .remote(dst.iova(), dst.stag()));
            byte[] wire = p.takeFramed(p.a);
            feed(p.b, wire, 0, 2000);               // the first segment, and the header of the second
            doomed.close();
            feed(p.b, wire, 2000, wire.length - 2000);
            p.pump();
            // RFC 5040 §4.8: RDMAP layer, remote protection error, invalid STag; the failed
            // segment's DDP header goes in (D set)
            String control = StreamErrorsTest.terminateSentBy(p.b);
            assertEquals(StreamErrorsTest.control(RdmapError.INVALID_STAG, true, true, false), control.substring(0, 8));
            assertSame(WcStatus.SUCCESS, p.a.sendCq.take().status());
            assertEquals(RdmapError.INVALID_STAG.controlBits(), p.a.stream.peerTerminate());
            assertSame(WcStatus.WR_FLUSH_ERR, p.b.recvCq.take().status());
            assertFalse(StagTable.alive(dst));
            assertEquals(StagTable.MEMORY_FREED, p.b.stags.checkRemote(dst, StreamPair.PD, Access.REMOTE_WRITE,
                    dst.iova(), 1));
        }
    }

    @Test
    void aReadWhoseSinkIsFreedMidResponseCompletesWithALocalProtectionError() {
        try (StreamPair p = StreamErrorsTest.pair(52)) {
            Arena doomed = Arena.ofShared();
            Region sink = register(p.a, doomed, SIZE, Access.LOCAL_WRITE);
            Region src = p.b.register(SIZE, RW);
            p.a.postSend(w -> w.wrId(2).opcode(WrOpcode.RDMA_READ).signaled(true).addSge(sink.stag(), 0, SIZE)
                    .remote(src.iova(), src.stag()));
            byte[] request = p.takeFramed(p.a);
            feed(p.b, request, 0, request.length);
            byte[] response = p.takeFramed(p.b);
            feed(p.a, response, 0, 2000);
            doomed.close();
            feed(p.a, response, 2000, response.length - 2000);
            p.pump();
            WorkCompletion read = p.a.sendCq.take();
            assertEquals(2, read.wrId());
            assertSame(WcStatus.LOC_PROT_ERR, read.status(), read.toString());
            assertStamped(DdpError.LOCAL_CATASTROPHIC, read);
            // RFC 5041 §7.2: DDP layer, local catastrophic error
            String control = StreamErrorsTest.terminateSentBy(p.a);
            assertEquals(StreamErrorsTest.control(DdpError.LOCAL_CATASTROPHIC, false, false, false),
                    control.substring(0, 8));
            assertEquals(DdpError.LOCAL_CATASTROPHIC.controlBits(), p.b.stream.peerTerminate());
        }
    }

    @Test
    void aReadResponseWhoseSourceIsFreedAfterTheRequestGetsAnRdmapInvalidStagTerminate() {
        try (StreamPair p = StreamErrorsTest.pair(53)) {
            Arena doomed = Arena.ofShared();
            Region sink = p.a.register(SIZE, Access.LOCAL_WRITE);
            Region src = register(p.b, doomed, SIZE, RW);
            p.a.postSend(w -> w.wrId(4).opcode(WrOpcode.RDMA_READ).signaled(true).addSge(sink.stag(), 0, SIZE)
                    .remote(src.iova(), src.stag()));
            byte[] request = p.takeFramed(p.a);
            feed(p.b, request, 0, request.length);   // checked: the memory was there
            doomed.close();
            p.pump();                                // the Response cannot be read: a Terminate instead
            String control = StreamErrorsTest.terminateSentBy(p.b);
            assertEquals(StreamErrorsTest.control(RdmapError.INVALID_STAG, false, false, false),
                    control.substring(0, 8));
            WorkCompletion read = p.a.sendCq.take();
            assertSame(WcStatus.REM_ACCESS_ERR, read.status(), read.toString());
            assertStamped(RdmapError.INVALID_STAG, read);
            assertSame(RdmapStream.State.ERROR, p.b.stream.state());
        }
    }

    @Test
    void aSendWhoseSourceIsFreedMidMessageCompletesWithALocalProtectionError() {
        try (StreamPair p = StreamErrorsTest.pair(54)) {
            Arena doomed = Arena.ofShared();
            int size = 512 * 1024;                   // more than the sink takes at once
            Region src = register(p.a, doomed, size, Access.LOCAL_WRITE);
            p.a.postSend(w -> w.wrId(5).opcode(WrOpcode.SEND).signaled(true).addSge(src.stag(), 0, size));
            p.a.postSend(w -> w.wrId(6).opcode(WrOpcode.SEND).signaled(true));
            p.takeFramed(p.a);                       // the first part of the message is out
            doomed.close();
            p.takeFramed(p.a);
            WorkCompletion send = p.a.sendCq.take();
            assertEquals(5, send.wrId());
            assertSame(WcStatus.LOC_PROT_ERR, send.status(), send.toString());
            assertStamped(RdmapError.LOCAL_CATASTROPHIC, send);
            WorkCompletion next = p.a.sendCq.take();
            assertEquals(6, next.wrId());
            assertSame(WcStatus.WR_FLUSH_ERR, next.status());
            // RFC 5040 §4.8: RDMAP layer, local catastrophic error
            String control = StreamErrorsTest.terminateSentBy(p.a);
            assertEquals(StreamErrorsTest.control(RdmapError.LOCAL_CATASTROPHIC, false, false, false),
                    control.substring(0, 8));
        }
    }

    @Test
    void anAtomicWhoseTargetIsFreedAfterTheRequestGetsAnRdmapInvalidStagTerminate() {
        try (StreamPair p = StreamErrorsTest.pair(55)) {
            Arena doomed = Arena.ofShared();
            Region result = p.a.register(8, Access.LOCAL_WRITE);
            Region target = register(p.b, doomed, 8, Access.LOCAL_WRITE | Access.REMOTE_ATOMIC);
            p.a.postSend(w -> w.wrId(7).opcode(WrOpcode.ATOMIC_FETCH_AND_ADD).signaled(true)
                    .addSge(result.stag(), 0, 8).remote(target.iova(), target.stag()).fetchAdd(1));
            byte[] request = p.takeFramed(p.a);
            feed(p.b, request, 0, request.length);
            doomed.close();
            p.pump();
            String control = StreamErrorsTest.terminateSentBy(p.b);
            assertEquals(StreamErrorsTest.control(RdmapError.INVALID_STAG, false, false, false),
                    control.substring(0, 8));
            WorkCompletion add = p.a.sendCq.take();
            assertSame(WcStatus.REM_ACCESS_ERR, add.status(), add.toString());
        }
    }

    private static void assertStamped(TerminateError expected, WorkCompletion wc) {
        assertEquals(expected.layer(), wc.terminateLayer(), wc.toString());
        assertEquals(expected.errorType(), wc.terminateErrorType(), wc.toString());
        assertEquals(expected.errorCode(), wc.terminateErrorCode(), wc.toString());
    }
}
