package org.jwarp.engine.provider;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.MemoryRegion;
import org.jwarp.verbs.PostStatus;
import org.jwarp.verbs.RecvWr;
import org.jwarp.verbs.SendWr;
import org.jwarp.verbs.WcOpcode;
import org.jwarp.verbs.WcStatus;
import org.jwarp.verbs.WorkCompletion;
import org.jwarp.verbs.WrOpcode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Every operation between two devices over real loopback TCP, data verified byte for byte. */
class LoopbackTest {

    static final int RW = Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ;
    static LoopbackPair pair;

    @BeforeAll
    static void connect() throws InterruptedException {
        pair = new LoopbackPair(LoopbackPair.dedicated(), LoopbackPair.dedicated(), "hello".getBytes(),
                "welcome".getBytes());
    }

    @AfterAll
    static void close() {
        pair.close();
    }

    static void fill(MemorySegment m, int seed) {
        for (long i = 0; i < m.byteSize(); i++) {
            m.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 31 + seed + (i >>> 11)));
        }
    }

    static void assertSameBytes(MemorySegment a, long aOff, MemorySegment b, long bOff, long n) {
        assertEquals(-1, MemorySegment.mismatch(a, aOff, aOff + n, b, bOff, bOff + n), "first differing byte");
    }

    @Test
    void privateDataWentBothWays() {
        assertArrayEquals("welcome".getBytes(), pair.clientEstablished.peerPrivateData());
        assertArrayEquals("hello".getBytes(), pair.serverEstablished.peerPrivateData());
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 4095, 4096, 65536, 1 << 20, 16 << 20})
    void sendRecv(int size) {
        MemoryRegion src = pair.client.register(size, Access.LOCAL_WRITE);
        MemoryRegion dst = pair.server.register(size, Access.LOCAL_WRITE);
        fill(src.segment(), size);
        assertEquals(PostStatus.OK, pair.server.qp.postRecv(new RecvWr().wrId(1).addSge(dst, 0, size)));
        assertEquals(PostStatus.OK, pair.client.qp.postSend(new SendWr().wrId(2).opcode(WrOpcode.SEND).signaled(true)
                .addSge(src, 0, size)));
        WorkCompletion s = pair.client.next();
        assertSame(WcStatus.SUCCESS, s.status(), s.toString());
        WorkCompletion r = pair.server.next();
        assertSame(WcStatus.SUCCESS, r.status(), r.toString());
        assertSame(WcOpcode.RECV, r.opcode());
        assertEquals(size, r.byteLen());
        assertSameBytes(src.segment(), 0, dst.segment(), 0, size);
        src.deregister();
        dst.deregister();
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 4095, 4096, 65536, 1 << 20, 16 << 20})
    void writeThenRead(int size) {
        MemoryRegion local = pair.client.register(size + 7, Access.LOCAL_WRITE);
        MemoryRegion remote = pair.server.register(size + 7, RW);
        MemoryRegion back = pair.client.register(size + 7, Access.LOCAL_WRITE);
        fill(local.segment(), size + 1);
        assertEquals(PostStatus.OK, pair.client.qp.postSend(new SendWr().wrId(3).opcode(WrOpcode.RDMA_WRITE)
                .signaled(true).addSge(local, 7, size).remote(remote.iova() + 3, remote.rkey())),
                () -> pair.client.qp.toString());
        assertSame(WcStatus.SUCCESS, pair.client.next().status());
        // RFC 5040 §5.5: a Read after a Write on the same stream returns the written data
        assertEquals(PostStatus.OK, pair.client.qp.postSend(new SendWr().wrId(4).opcode(WrOpcode.RDMA_READ)
                .signaled(true).addSge(back, 1, size).remote(remote.iova() + 3, remote.rkey())));
        WorkCompletion rd = pair.client.next();
        assertSame(WcStatus.SUCCESS, rd.status(), rd.toString());
        assertSame(WcOpcode.RDMA_READ, rd.opcode());
        assertEquals(size, rd.byteLen());
        assertSameBytes(local.segment(), 7, remote.segment(), 3, size);
        assertSameBytes(local.segment(), 7, back.segment(), 1, size);
        local.deregister();
        remote.deregister();
        back.deregister();
    }

    @Test
    void writeWithImmediate() {
        MemoryRegion local = pair.client.register(4096, Access.LOCAL_WRITE);
        MemoryRegion remote = pair.server.register(4096, RW);
        fill(local.segment(), 9);
        assertEquals(PostStatus.OK, pair.server.qp.postRecv(new RecvWr().wrId(5)));
        pair.client.qp.postSend(new SendWr().wrId(6).opcode(WrOpcode.RDMA_WRITE_WITH_IMM).signaled(true)
                .addSge(local, 0, 4096).remote(remote.iova(), remote.rkey()).immData(0x1234_5678L));
        assertSame(WcStatus.SUCCESS, pair.client.next().status());
        WorkCompletion r = pair.server.next();
        assertSame(WcOpcode.RECV_RDMA_WITH_IMM, r.opcode());
        assertEquals(0x1234_5678L, r.immData());
        assertSameBytes(local.segment(), 0, remote.segment(), 0, 4096);
    }

    @Test
    void sendWithImmediateAndImmediateDataAloneOverTcp() {
        MemoryRegion local = pair.client.register(4096, Access.LOCAL_WRITE);
        MemoryRegion sink = pair.server.register(4096, Access.LOCAL_WRITE);
        fill(local.segment(), 11);
        assertEquals(PostStatus.OK, pair.server.qp.postRecv(new RecvWr().wrId(1).addSge(sink, 0, 4096)));
        assertEquals(PostStatus.OK, pair.server.qp.postRecv(new RecvWr().wrId(2)));
        assertEquals(PostStatus.OK, pair.server.qp.postRecv(new RecvWr().wrId(3)));
        pair.client.qp.postSend(new SendWr().wrId(6).opcode(WrOpcode.SEND_WITH_IMM).signaled(true)
                .addSge(local, 0, 3000).immData(77));
        pair.client.qp.postSend(new SendWr().wrId(7).opcode(WrOpcode.IMMEDIATE_DATA).signaled(true).immData(78));
        assertSame(WcOpcode.SEND, pair.client.next().opcode());
        assertSame(WcStatus.SUCCESS, pair.client.next().status());
        WorkCompletion data = pair.server.next();
        assertEquals(1, data.wrId());
        assertEquals(3000, data.byteLen());
        assertSameBytes(local.segment(), 0, sink.segment(), 0, 3000);
        WorkCompletion imm = pair.server.next();
        assertEquals(2, imm.wrId(), "Send with Immediate consumes a second receive for the immediate data");
        assertEquals(77, imm.immData());
        WorkCompletion alone = pair.server.next();
        assertEquals(3, alone.wrId());
        assertEquals(78, alone.immData());
        assertEquals(0, alone.byteLen());
        assertEquals(PostStatus.INVALID_WR, PostStatus.code(pair.client.qp.postSend(new SendWr().wrId(8)
                .opcode(WrOpcode.IMMEDIATE_DATA).addSge(local, 0, 8))), "Immediate Data carries no payload");
    }

    @Test
    void atomicsOverTcp() {
        MemoryRegion result = pair.client.register(16, Access.LOCAL_WRITE);
        MemoryRegion target = pair.server.register(8, Access.LOCAL_WRITE | Access.REMOTE_ATOMIC);
        target.segment().set(ValueLayout.JAVA_LONG, 0, 40);
        pair.client.qp.postSend(new SendWr().wrId(7).opcode(WrOpcode.ATOMIC_FETCH_AND_ADD).signaled(true)
                .addSge(result, 0, 8).remote(target.iova(), target.rkey()).fetchAdd(2));
        pair.client.qp.postSend(new SendWr().wrId(8).opcode(WrOpcode.ATOMIC_CMP_AND_SWP).signaled(true)
                .addSge(result, 8, 8).remote(target.iova(), target.rkey()).compareSwap(42, 1000));
        WorkCompletion add = pair.client.next();
        assertSame(WcStatus.SUCCESS, add.status(), add.toString());
        assertSame(WcOpcode.FETCH_ADD, add.opcode());
        WorkCompletion cas = pair.client.next();
        assertSame(WcOpcode.COMP_SWAP, cas.opcode());
        assertEquals(40, result.segment().get(ValueLayout.JAVA_LONG, 0));
        assertEquals(42, result.segment().get(ValueLayout.JAVA_LONG, 8));
        assertEquals(1000, target.segment().get(ValueLayout.JAVA_LONG, 0));
    }

    @Test
    void countersPerQpAndPerEngineThread() {
        MemoryRegion src = pair.client.register(100, Access.LOCAL_WRITE);
        MemoryRegion dst = pair.server.register(100, RW);
        long before = pair.client.qp.counters().get("fpdus.tx");
        pair.client.qp.postSend(new SendWr().wrId(9).opcode(WrOpcode.RDMA_WRITE).signaled(true).addSge(src, 0, 100)
                .remote(dst.iova(), dst.rkey()));
        assertSame(WcStatus.SUCCESS, pair.client.next().status());
        assertEquals(before + 1, pair.client.qp.counters().get("fpdus.tx"));
        var engine = pair.client.device.engineCounters().getFirst();
        assertTrue(engine.get("fpdus.tx") >= before + 1, engine.toString());
        assertTrue(engine.get("bytes.tx") >= 114, engine.toString());
        assertTrue(engine.get("doorbells") >= 1, engine.toString());
        assertEquals(0, engine.get("crc.errors"));
    }
}
