package org.jwarp.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.jwarp.stack.StagTable.Region;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.CounterNames;
import org.jwarp.verbs.Stag;
import org.jwarp.verbs.WcStatus;
import org.jwarp.verbs.WorkCompletion;
import org.jwarp.verbs.WrOpcode;
import org.jwarp.wire.fpdu.FrameStream;
import org.jwarp.wire.fpdu.Seeds;
import org.jwarp.wire.fpdu.StreamDecoding;
import org.jwarp.wire.rdmap.DdpError;
import org.jwarp.wire.rdmap.MpaError;
import org.jwarp.wire.rdmap.RdmapError;
import org.jwarp.wire.rdmap.RdmapOpcode;
import org.jwarp.wire.rdmap.TerminateError;
import org.junit.jupiter.api.Test;

/**
 * Error paths: each asserts the completions on both sides and the Terminate on the wire, decoded
 * from the bytes the detecting side sent.
 */
class StreamErrorsTest {

    static final int RW = Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ;
    static final String TERMINATE_DDP = "4147" + "00000000" + "00000002" + "00000001" + "00000000";

    static StreamPair pair(long seed) {
        return new StreamPair(StreamPair.defaults(), StreamPair.defaults(), Seeds.random(seed));
    }

    /** The last frame a side sent, which must be its Terminate; returns its header hex. */
    static String terminateSentBy(StreamPair.Side side) {
        StreamDecoding.Outcome o = StreamDecoding.decodeWhole(side.sentBytes(), true, false, 0);
        assertNull(o.error());
        FrameStream.Frame f = o.frames().getLast();
        assertSame(RdmapOpcode.TERMINATE, f.opcode());
        assertTrue(f.header().startsWith(TERMINATE_DDP), f.header());
        assertEquals(1, side.counters.get(side.counters.require(CounterNames.TERMINATES_TX)));
        return f.header().substring(TERMINATE_DDP.length());
    }

    static String control(TerminateError e, boolean m, boolean d, boolean r) {
        return String.format("%08x", e.controlBits() | (m ? 0x8000 : 0) | (d ? 0x4000 : 0) | (r ? 0x2000 : 0));
    }

    /** A's requests after the peer's Terminate are flushed; A's state is error; B's receives flush. */
    static void assertBothStopped(StreamPair p, TerminateError sent) {
        assertSame(RdmapStream.State.ERROR, p.a.stream.state());
        assertSame(RdmapStream.State.ERROR, p.b.stream.state());
        assertEquals(sent.controlBits(), p.a.stream.peerTerminate());
        assertSame(sent, p.b.stream.terminateCause());
        p.a.postSend(w -> w.wrId(777).opcode(WrOpcode.SEND));
        p.pump();
        WorkCompletion flushed = p.a.sendCq.completions.getLast();
        assertEquals(777, flushed.wrId());
        assertSame(WcStatus.WR_FLUSH_ERR, flushed.status());
    }

    void writeFails(int access, java.util.function.Function<Region, Integer> stag, long offset, int length,
                    TerminateError expected) {
        try (StreamPair p = pair(expected.hashCode())) {
            Region src = p.a.register(4096, Access.LOCAL_WRITE);
            Region dst = p.b.register(4096, access);
            p.b.postRecv(r -> r.wrId(50));
            int target = stag.apply(dst);
            p.a.postSend(w -> w.wrId(1).opcode(WrOpcode.RDMA_WRITE).signaled(true).addSge(src.stag(), 0, length)
                    .remote(dst.iova() + offset, target));
            p.pump();
            // iWARP completes a Write locally once it is handed to the LLP (RFC 5040 §5.5)
            assertSame(WcStatus.SUCCESS, p.a.sendCq.take().status());
            WorkCompletion recv = p.b.recvCq.take();
            assertEquals(50, recv.wrId());
            assertSame(WcStatus.WR_FLUSH_ERR, recv.status());
            String hdr = String.format("c140%08x%016x", target, dst.iova() + offset);
            assertEquals(control(expected, true, true, false) + String.format("%04x", length) + hdr, terminateSentBy(p.b));
            assertBothStopped(p, expected);
            assertEquals(0, p.b.stream.flush());
        }
    }

    @Test
    void writeToAnUnknownStag() {
        writeFails(RW, r -> Stag.of(40, 0x33), 0, 100, DdpError.INVALID_STAG);
    }

    @Test
    void writeWithTheWrongKey() {
        writeFails(RW, r -> Stag.withNextKey(r.stag()), 0, 100, DdpError.INVALID_STAG);
    }

    @Test
    void writeOutOfBounds() {
        writeFails(RW, Region::stag, 4000, 100, DdpError.BASE_OR_BOUNDS_VIOLATION);
    }

    @Test
    void writeWithoutTheRemoteWriteRight() {
        // RFC 5041 §7.2 has no access-rights code: reported as an invalid STag, as siw does
        writeFails(Access.LOCAL_WRITE | Access.REMOTE_READ, Region::stag, 0, 100, DdpError.INVALID_STAG);
    }

    @Test
    void writeToAnotherProtectionDomainsRegion() {
        try (StreamPair p = pair(11)) {
            Region src = p.a.register(64, Access.LOCAL_WRITE);
            var foreign = p.b.stags.register(StreamPair.PD + 1, p.arena.allocate(64), 0x1000, RW);
            p.a.postSend(w -> w.wrId(1).opcode(WrOpcode.RDMA_WRITE).addSge(src.stag(), 0, 8)
                    .remote(0x1000, foreign.stag()));
            p.pump();
            assertTrue(terminateSentBy(p.b).startsWith(control(DdpError.STAG_NOT_ASSOCIATED, true, true, false)));
        }
    }

    void readFails(int access, long offset, int length, TerminateError expected) {
        try (StreamPair p = pair(expected.hashCode() + 1)) {
            Region sink = p.a.register(4096, Access.LOCAL_WRITE);
            Region src = p.b.register(4096, access);
            p.a.postSend(w -> w.wrId(3).opcode(WrOpcode.RDMA_READ).signaled(true).addSge(sink.stag(), 8, length)
                    .remote(src.iova() + offset, src.stag()));
            p.pump();
            WorkCompletion wc = p.a.sendCq.take();
            assertEquals(3, wc.wrId());
            assertSame(WcStatus.REM_ACCESS_ERR, wc.status());
            assertTrue(wc.terminateFromPeer());
            assertEquals(expected.layer(), wc.terminateLayer());
            assertEquals(expected.errorType(), wc.terminateErrorType());
            assertEquals(expected.errorCode(), wc.terminateErrorCode());
            // RFC 5040 §4.8: a remote protection error on a Read Request carries its DDP and RDMA headers
            String ddp = "4141" + "00000000" + "00000001" + "00000001" + "00000000";
            String rr = String.format("%08x%016x%08x%08x%016x", sink.stag(), sink.iova() + 8, length, src.stag(),
                    src.iova() + offset);
            assertEquals(control(expected, true, true, true) + "0000" + ddp + rr, terminateSentBy(p.b));
            assertBothStopped(p, expected);
        }
    }

    @Test
    void readOutOfBounds() {
        readFails(RW, 4000, 200, RdmapError.BASE_OR_BOUNDS_VIOLATION);
    }

    @Test
    void readWithoutTheRemoteReadRight() {
        readFails(Access.LOCAL_WRITE | Access.REMOTE_WRITE, 0, 200, RdmapError.ACCESS_RIGHTS_VIOLATION);
    }

    @Test
    void sendWithNoReceivePosted() {
        try (StreamPair p = pair(12)) {
            p.a.postSend(w -> w.wrId(4).opcode(WrOpcode.SEND).signaled(true));
            p.pump();
            assertSame(WcStatus.SUCCESS, p.a.sendCq.take().status());
            // iWARP has no RNR retry: RFC 5041 §7.2 untagged "no buffer available", with the DDP header
            assertEquals(control(DdpError.NO_BUFFER_AVAILABLE, true, true, false) + "0000"
                    + "4143" + "00000000" + "00000000" + "00000001" + "00000000", terminateSentBy(p.b));
            assertBothStopped(p, DdpError.NO_BUFFER_AVAILABLE);
        }
    }

    @Test
    void sendLongerThanTheReceive() {
        try (StreamPair p = pair(13)) {
            Region src = p.a.register(100, Access.LOCAL_WRITE);
            Region dst = p.b.register(100, Access.LOCAL_WRITE);
            p.b.postRecv(r -> r.wrId(60).addSge(dst.stag(), 0, 50)).postRecv(r -> r.wrId(61).addSge(dst.stag(), 50, 50));
            p.a.postSend(w -> w.wrId(5).opcode(WrOpcode.SEND).addSge(src.stag(), 0, 100));
            p.pump();
            WorkCompletion first = p.b.recvCq.take();
            assertEquals(60, first.wrId());
            assertSame(WcStatus.LOC_LEN_ERR, first.status());
            assertSame(WcStatus.WR_FLUSH_ERR, p.b.recvCq.take().status());
            assertTrue(terminateSentBy(p.b).startsWith(control(DdpError.MESSAGE_TOO_LONG, true, true, false) + "0064"));
            assertBothStopped(p, DdpError.MESSAGE_TOO_LONG);
        }
    }

    @Test
    void aCorruptedFpduIsACrcErrorWithNoHeaders() {
        try (StreamPair p = pair(14)) {
            Region src = p.a.register(1000, Access.LOCAL_WRITE);
            Region dst = p.b.register(1000, RW);
            p.b.postRecv(r -> r.wrId(70));
            p.a.postSend(w -> w.wrId(6).opcode(WrOpcode.RDMA_WRITE).addSge(src.stag(), 0, 1000)
                    .remote(dst.iova(), dst.stag()));
            p.corruptNextByteFromA();
            p.pump();
            assertEquals(control(MpaError.CRC_ERROR, false, false, false), terminateSentBy(p.b));
            assertEquals(1, p.b.counters.get(p.b.counters.require(CounterNames.CRC_ERRORS)));
            assertSame(WcStatus.WR_FLUSH_ERR, p.b.recvCq.take().status());
            assertBothStopped(p, MpaError.CRC_ERROR);
        }
    }

    @Test
    void readsBeyondTheResponderIrd() {
        StreamParameters ird1 = new StreamParameters(true, false, false, 1442, 8, 1, true);
        try (StreamPair p = new StreamPair(StreamPair.defaults(), ird1, Seeds.random(15))) {
            Region sink = p.a.register(64, Access.LOCAL_WRITE);
            Region src = p.b.register(64, RW);
            for (int i = 0; i < 2; i++) {
                int k = i;
                p.a.postSend(w -> w.wrId(k).opcode(WrOpcode.RDMA_READ).signaled(true).addSge(sink.stag(), 0, 8)
                        .remote(src.iova(), src.stag()));
            }
            // both Read Requests leave before any response can come back
            p.a.stream.transmit(p.a.sink);
            p.pump();
            assertTrue(terminateSentBy(p.b).startsWith(control(RdmapError.CATASTROPHIC_STREAM, true, true, false)));
            Set<WcStatus> statuses = new HashSet<>();
            statuses.add(p.a.sendCq.take().status());
            statuses.add(p.a.sendCq.take().status());
            assertTrue(statuses.contains(WcStatus.REM_OP_ERR) || statuses.contains(WcStatus.WR_FLUSH_ERR), statuses.toString());
            assertBothStopped(p, RdmapError.CATASTROPHIC_STREAM);
        }
    }

    @Test
    void aLostConnectionCompletesEveryPostedRequestExactlyOnce() {
        for (int cut = 0; cut < 40; cut += 3) {
            try (StreamPair p = new StreamPair(StreamPair.defaults(), StreamPair.defaults(), Seeds.random(cut), true)) {
                Region a = p.a.register(1 << 16, RW);
                Region b = p.b.register(1 << 16, RW);
                Set<Long> posted = new HashSet<>();
                for (int i = 0; i < 30; i++) {
                    long id = i;
                    posted.add(id);
                    WrOpcode op = i % 3 == 0 ? WrOpcode.RDMA_READ : i % 3 == 1 ? WrOpcode.RDMA_WRITE : WrOpcode.SEND;
                    p.a.postSend(w -> w.wrId(id).opcode(op).addSge(a.stag(), 0, 2000).remote(b.iova(), b.stag()));
                    p.b.postRecv(r -> r.wrId(1000 + id).addSge(b.stag(), 0, 4000));
                }
                // move only part of the traffic, then the connection dies under both sides
                int steps = cut;
                for (int s = 0; s < steps; s++) {
                    p.a.stream.transmit(p.a.sink);
                    long n = Math.min(p.a.sink.pending(), 3000);
                    p.b.stream.receive(p.a.sink.buffer(), p.a.sink.start(), n);
                    p.a.sink.drained(n);
                    p.b.stream.transmit(p.b.sink);
                    p.a.stream.receive(p.b.sink.buffer(), p.b.sink.start(), p.b.sink.pending());
                    p.b.sink.drained(p.b.sink.pending());
                }
                p.a.stream.connectionLost();
                p.b.stream.connectionLost();
                Set<Long> completed = new HashSet<>();
                for (WorkCompletion wc : p.a.sendCq.completions) {
                    assertTrue(completed.add(wc.wrId()), "completed twice: " + wc);
                    assertTrue(wc.status() == WcStatus.SUCCESS || wc.status() == WcStatus.WR_FLUSH_ERR, wc.toString());
                }
                assertEquals(posted, completed, "cut " + cut);
                Set<Long> received = new HashSet<>();
                for (WorkCompletion wc : p.b.recvCq.completions) {
                    assertTrue(received.add(wc.wrId()), "completed twice: " + wc);
                }
                assertEquals(30, received.size());
            }
        }
    }
}
