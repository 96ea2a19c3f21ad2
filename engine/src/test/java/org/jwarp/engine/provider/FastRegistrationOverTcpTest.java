package org.jwarp.engine.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.MemoryRegion;
import org.jwarp.verbs.PostStatus;
import org.jwarp.verbs.SendWr;
import org.jwarp.verbs.Stag;
import org.jwarp.verbs.WcOpcode;
import org.jwarp.verbs.WcStatus;
import org.jwarp.verbs.WrOpcode;

/**
 * Per-I/O buffer advertisement over TCP, as iSER does it: the server fast-registers an I/O buffer
 * under a new key, the client READs it through that key, the server invalidates it and registers
 * the next I/O's buffer under the next key.
 */
class FastRegistrationOverTcpTest {

    @Test
    void eachIoGetsItsOwnKey() throws Exception {
        try (LoopbackPair pair = new LoopbackPair(LoopbackPair.dedicated(), LoopbackPair.dedicated(), new byte[0],
                new byte[0])) {
            MemoryRegion fr = pair.server.pd.allocFastRegMr(1 << 20);
            assertFalse(fr.isValid(), "nothing registered yet");
            assertThrows(UnsupportedOperationException.class, () -> fr.reregister(MemorySegment.NULL, 0));
            MemoryRegion sink = pair.client.register(4096, Access.LOCAL_WRITE);
            int previous = fr.rkey();
            for (int io = 0; io < 3; io++) {
                MemorySegment buffer = pair.server.arena.allocate(4096, 64);
                for (int i = 0; i < 4096; i++) {
                    buffer.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 7 + io));
                }
                int key = Stag.withNextKey(fr.lkey());
                assertEquals(PostStatus.OK, pair.server.qp.postSend(new SendWr().wrId(10 + io).opcode(WrOpcode.REG_MR)
                        .signaled(true).regMr(fr, key, buffer, buffer.address(), Access.LOCAL_WRITE | Access.REMOTE_READ)));
                assertSame(WcOpcode.REG_MR, pair.server.next().opcode());
                assertEquals(key, fr.rkey());
                assertNotEquals(previous, key);
                assertTrue(fr.isValid());
                assertEquals(4096, fr.length());

                pair.client.qp.postSend(new SendWr().wrId(20 + io).opcode(WrOpcode.RDMA_READ).signaled(true)
                        .addSge(sink, 0, 4096).remote(buffer.address(), key));
                assertSame(WcStatus.SUCCESS, pair.client.next().status());
                for (int i = 0; i < 4096; i++) {
                    assertEquals((byte) (i * 7 + io), sink.segment().get(ValueLayout.JAVA_BYTE, i), "I/O " + io);
                }
                assertEquals(PostStatus.OK, pair.server.qp.postSend(new SendWr().wrId(30 + io).opcode(WrOpcode.LOCAL_INV)
                        .signaled(true).invalidateRkey(key)));
                assertSame(WcStatus.SUCCESS, pair.server.next().status());
                assertFalse(fr.isValid());
                previous = key;
            }
            assertEquals(PostStatus.INVALID_WR, PostStatus.code(pair.server.qp.postSend(new SendWr().wrId(40)
                    .opcode(WrOpcode.REG_MR).regMr(fr, Stag.withNextKey(fr.lkey()), MemorySegment.ofArray(new byte[8]), 0,
                            Access.REMOTE_READ))), "heap memory cannot be fast-registered");
            fr.deregister();
        }
    }
}
