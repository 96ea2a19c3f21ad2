package org.jwarp.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.ValueLayout;
import org.jwarp.stack.StagTable.Region;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.WcOpcode;
import org.jwarp.verbs.WcStatus;
import org.jwarp.verbs.WorkCompletion;
import org.jwarp.verbs.WrOpcode;
import org.jwarp.wire.fpdu.Seeds;
import org.jwarp.wire.rdmap.RdmapError;
import org.junit.jupiter.api.Test;

/** RFC 7306 atomics between two streams: results, memory, masks, ordering, errors. */
class StreamAtomicsTest {

    static final int ATOMIC = Access.LOCAL_WRITE | Access.REMOTE_ATOMIC | Access.REMOTE_READ | Access.REMOTE_WRITE;

    static StreamPair pair() {
        return new StreamPair(StreamPair.defaults(), StreamPair.defaults(), Seeds.random(77));
    }

    static long at(Region r, long off) {
        return r.segment().get(ValueLayout.JAVA_LONG, off);
    }

    @Test
    void fetchAddReturnsTheOriginalAndAdds() {
        try (StreamPair p = pair()) {
            Region result = p.a.register(16, Access.LOCAL_WRITE);
            Region target = p.b.register(64, ATOMIC);
            target.segment().set(ValueLayout.JAVA_LONG, 8, 100);
            p.a.postSend(w -> w.wrId(1).opcode(WrOpcode.ATOMIC_FETCH_AND_ADD).signaled(true).addSge(result.stag(), 8, 8)
                    .remote(target.iova() + 8, target.stag()).fetchAdd(5));
            p.pump();
            WorkCompletion wc = p.a.sendCq.take();
            assertSame(WcStatus.SUCCESS, wc.status(), wc.toString());
            assertSame(WcOpcode.FETCH_ADD, wc.opcode());
            assertEquals(8, wc.byteLen());
            assertEquals(100, at(result, 8));
            assertEquals(105, at(target, 8));
        }
    }

    @Test
    void compareSwapSwapsOnlyWhenEqual() {
        try (StreamPair p = pair()) {
            Region result = p.a.register(16, Access.LOCAL_WRITE);
            Region target = p.b.register(8, ATOMIC);
            target.segment().set(ValueLayout.JAVA_LONG, 0, 7);
            p.a.postSend(w -> w.wrId(1).opcode(WrOpcode.ATOMIC_CMP_AND_SWP).signaled(true).addSge(result.stag(), 0, 8)
                    .remote(target.iova(), target.stag()).compareSwap(7, 42));
            p.a.postSend(w -> w.wrId(2).opcode(WrOpcode.ATOMIC_CMP_AND_SWP).signaled(true).addSge(result.stag(), 8, 8)
                    .remote(target.iova(), target.stag()).compareSwap(7, 99));
            p.pump();
            assertSame(WcOpcode.COMP_SWAP, p.a.sendCq.take().opcode());
            assertSame(WcStatus.SUCCESS, p.a.sendCq.take().status());
            assertEquals(7, at(result, 0), "the first found 7 and swapped");
            assertEquals(42, at(result, 8), "the second found 42: no swap");
            assertEquals(42, at(target, 0));
        }
    }

    @Test
    void maskedFetchAddKeepsCarriesInsideFields() {
        try (StreamPair p = pair()) {
            Region result = p.a.register(8, Access.LOCAL_WRITE);
            Region target = p.b.register(8, ATOMIC);
            target.segment().set(ValueLayout.JAVA_LONG, 0, 0x00000001_FFFFFFFFL);
            // two 32-bit fields: the mask marks their top bits (RFC 7306 §4.1)
            p.a.postSend(w -> w.wrId(1).opcode(WrOpcode.ATOMIC_FETCH_AND_ADD).signaled(true).addSge(result.stag(), 0, 8)
                    .remote(target.iova(), target.stag()).fetchAdd(0x00000001_00000001L, 0x80000000_80000000L));
            p.pump();
            assertSame(WcStatus.SUCCESS, p.a.sendCq.take().status());
            assertEquals(0x00000002_00000000L, at(target, 0), "the low field wrapped without carrying");
        }
    }

    @Test
    void atomicsAndReadsCompleteInOrder() {
        try (StreamPair p = pair()) {
            Region local = p.a.register(64, Access.LOCAL_WRITE);
            Region target = p.b.register(64, ATOMIC);
            for (int i = 0; i < 6; i++) {
                int k = i;
                if (i % 2 == 0) {
                    p.a.postSend(w -> w.wrId(k).opcode(WrOpcode.ATOMIC_FETCH_AND_ADD).signaled(true)
                            .addSge(local.stag(), 8L * k, 8).remote(target.iova(), target.stag()).fetchAdd(1));
                } else {
                    p.a.postSend(w -> w.wrId(k).opcode(WrOpcode.RDMA_READ).signaled(true)
                            .addSge(local.stag(), 8L * k, 8).remote(target.iova(), target.stag()));
                }
            }
            p.pump();
            for (int i = 0; i < 6; i++) {
                assertEquals(i, p.a.sendCq.take().wrId());
            }
            // RFC 5040 §5.5 / RFC 7306: each sees the effect of the atomics before it
            for (int i = 0; i < 6; i++) {
                assertEquals(i % 2 == 0 ? i / 2 : (i + 1) / 2, at(local, 8L * i), "slot " + i);
            }
            assertEquals(3, at(target, 0));
        }
    }

    @Test
    void anUnalignedTargetIsNotChanged() {
        try (StreamPair p = pair()) {
            Region result = p.a.register(8, Access.LOCAL_WRITE);
            Region target = p.b.register(16, ATOMIC);
            p.a.postSend(w -> w.wrId(1).opcode(WrOpcode.ATOMIC_FETCH_AND_ADD).signaled(true).addSge(result.stag(), 0, 8)
                    .remote(target.iova() + 4, target.stag()).fetchAdd(1));
            p.pump();
            assertSame(RdmapError.CATASTROPHIC_STREAM, p.b.stream.terminateCause());
            assertSame(WcStatus.REM_OP_ERR, p.a.sendCq.take().status());
            assertEquals(0, at(target, 0));
            assertEquals(0, at(target, 8));
        }
    }

    @Test
    void withoutTheRemoteAtomicRightItIsAnAccessViolation() {
        try (StreamPair p = pair()) {
            Region result = p.a.register(8, Access.LOCAL_WRITE);
            Region target = p.b.register(8, Access.LOCAL_WRITE | Access.REMOTE_WRITE);
            p.a.postSend(w -> w.wrId(1).opcode(WrOpcode.ATOMIC_CMP_AND_SWP).signaled(true).addSge(result.stag(), 0, 8)
                    .remote(target.iova(), target.stag()).compareSwap(0, 1));
            p.pump();
            assertSame(RdmapError.ACCESS_RIGHTS_VIOLATION, p.b.stream.terminateCause());
            WorkCompletion wc = p.a.sendCq.take();
            assertSame(WcStatus.REM_ACCESS_ERR, wc.status());
            assertSame(WcOpcode.COMP_SWAP, wc.opcode());
            assertEquals(0, at(target, 0));
        }
    }

    @Test
    void withoutRfc7306TheRequestIsRefusedLocally() {
        StreamParameters plain = new StreamParameters(true, false, false, 1442, 8, 8, false);
        try (StreamPair p = new StreamPair(plain, plain, Seeds.random(78))) {
            Region result = p.a.register(8, Access.LOCAL_WRITE);
            p.a.postSend(w -> w.wrId(1).opcode(WrOpcode.ATOMIC_FETCH_AND_ADD).signaled(true).addSge(result.stag(), 0, 8)
                    .remote(0, 1).fetchAdd(1));
            p.pump();
            assertSame(WcStatus.LOC_QP_OP_ERR, p.a.sendCq.take().status());
            assertTrue(p.b.sentBytes().length == 0 || p.b.stream.terminateCause() == null);
        }
    }

    @Test
    void anOrdOfZeroRefusesReadsAndAtomicsLocally() {
        // RFC 6581 §9.1: the peer offered IRD 0, so the negotiated ORD is 0 and no Read Request may leave
        StreamParameters noOrd = new StreamParameters(true, false, false, 1442, 0, 8, true);
        try (StreamPair p = new StreamPair(noOrd, StreamPair.defaults(), Seeds.random(79))) {
            Region local = p.a.register(64, Access.LOCAL_WRITE);
            Region remote = p.b.register(64, Access.LOCAL_WRITE | Access.REMOTE_READ);
            p.a.postSend(w -> w.wrId(1).opcode(WrOpcode.RDMA_READ).signaled(true).addSge(local.stag(), 0, 64)
                    .remote(remote.iova(), remote.stag()));
            p.pump();
            WorkCompletion wc = p.a.sendCq.take();
            assertSame(WcStatus.LOC_QP_OP_ERR, wc.status());
            assertEquals(1, wc.wrId());
            assertSame(null, p.b.stream.terminateCause(), "the responder never saw a Read Request to refuse");
            assertTrue(p.b.stream.fpdusReceived() <= 1, "at most our Terminate reached the peer, no Read Request");
            assertEquals(0, p.b.sentBytes().length, "the peer sent no Read Response");
        }
    }
}
