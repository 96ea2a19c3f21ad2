package org.jwarp.stack;

import static org.jwarp.stack.StreamErrorsTest.control;
import static org.jwarp.stack.StreamErrorsTest.terminateSentBy;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;
import org.jwarp.stack.StagTable.Region;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.Stag;
import org.jwarp.verbs.WcOpcode;
import org.jwarp.verbs.WcStatus;
import org.jwarp.verbs.WorkCompletion;
import org.jwarp.verbs.WrOpcode;
import org.jwarp.wire.fpdu.Seeds;
import org.jwarp.wire.rdmap.DdpError;

/**
 * Fast registration by work request (IBV_WR_REG_MR-style): a region allocated for it is invalid
 * until REG_MR registers memory under the next key, the old key stops at each registration, and
 * LOCAL_INV makes it invalid again — the per-I/O advertisement of iSER and NVMe-oF.
 */
class FastRegistrationTest {

    private static WorkCompletion register(StreamPair p, int stag, int newStag, MemorySegment m, int access) {
        p.b.postSend(w -> w.wrId(70).opcode(WrOpcode.REG_MR).signaled(true).regMr(new StackMr(stag), newStag, m,
                m.address(), access));
        p.pump();
        return p.b.sendCq.take();
    }

    /** Just enough of a verbs region to name its STag in {@code regMr}. */
    private record StackMr(int stag) implements org.jwarp.verbs.MemoryRegion {
        public org.jwarp.verbs.ProtectionDomain pd() { return null; }
        public MemorySegment segment() { return MemorySegment.NULL; }
        public long length() { return 0; }
        public int access() { return 0; }
        public int lkey() { return stag; }
        public int rkey() { return stag; }
        public long iova() { return 0; }
        public boolean isValid() { return true; }
        public org.jwarp.verbs.MemoryRegion reregister(MemorySegment s, int a) { return this; }
        public void deregister() { }
    }

    private static void write(StreamPair p, Region src, int length, int stag, long to) {
        p.a.postSend(w -> w.wrId(1).opcode(WrOpcode.RDMA_WRITE).signaled(true).addSge(src.stag(), 0, length)
                .remote(to, stag));
        p.pump();
        assertSame(WcStatus.SUCCESS, p.a.sendCq.take().status());
    }

    @Test
    void registerUseRotateAndInvalidate() {
        try (StreamPair p = new StreamPair(StreamPair.defaults(), StreamPair.defaults(), Seeds.random(1))) {
            Region src = p.a.register(256, Access.LOCAL_WRITE);
            src.segment().fill((byte) 0x3c);
            Region fr = p.b.stags.allocFastReg(StreamPair.PD, 4096);
            assertEquals(0, fr.length(), "invalid until registered");
            MemorySegment io1 = p.arena.allocate(256);
            int k1 = Stag.withNextKey(fr.stag());
            WorkCompletion c = register(p, fr.stag(), k1, io1, Access.LOCAL_WRITE | Access.REMOTE_WRITE);
            assertSame(WcStatus.SUCCESS, c.status());
            assertSame(WcOpcode.REG_MR, c.opcode());
            write(p, src, 256, k1, io1.address());
            byte[] expected = new byte[256];
            java.util.Arrays.fill(expected, (byte) 0x3c);
            assertArrayEquals(expected, io1.toArray(ValueLayout.JAVA_BYTE));

            MemorySegment io2 = p.arena.allocate(128);
            int k2 = Stag.withNextKey(k1);
            assertSame(WcStatus.SUCCESS, register(p, k1, k2, io2, Access.LOCAL_WRITE | Access.REMOTE_WRITE).status());
            write(p, src, 64, k2, io2.address());
            assertEquals(0x3c, io2.get(ValueLayout.JAVA_BYTE, 63));

            p.b.postSend(w -> w.wrId(71).opcode(WrOpcode.LOCAL_INV).signaled(true).invalidateRkey(k2));
            p.pump();
            assertSame(WcStatus.SUCCESS, p.b.sendCq.take().status());
            write(p, src, 8, k2, io2.address());
            // RFC 5041 §7.2: after the invalidation the STag grants nothing (reported as invalid, as siw does)
            assertEquals(control(DdpError.INVALID_STAG, true, true, false) + "0008"
                    + String.format("c140%08x%016x", k2, io2.address()), terminateSentBy(p.b));
        }
    }

    @Test
    void theOldKeyIsRefusedAfterARegistration() {
        try (StreamPair p = new StreamPair(StreamPair.defaults(), StreamPair.defaults(), Seeds.random(2))) {
            Region src = p.a.register(64, Access.LOCAL_WRITE);
            Region fr = p.b.stags.allocFastReg(StreamPair.PD, 4096);
            MemorySegment io = p.arena.allocate(64);
            int k1 = Stag.withNextKey(fr.stag());
            register(p, fr.stag(), k1, io, Access.LOCAL_WRITE | Access.REMOTE_WRITE);
            int k2 = Stag.withNextKey(k1);
            register(p, k1, k2, io, Access.LOCAL_WRITE | Access.REMOTE_WRITE);
            write(p, src, 8, k1, io.address());
            assertEquals(control(DdpError.INVALID_STAG, true, true, false) + "0008"
                    + String.format("c140%08x%016x", k1, io.address()), terminateSentBy(p.b));
        }
    }

    @Test
    void aRegistrationTooLongOrUnderTheSameKeyFails() {
        try (StreamPair p = new StreamPair(StreamPair.defaults(), StreamPair.defaults(), Seeds.random(3))) {
            Region fr = p.b.stags.allocFastReg(StreamPair.PD, 100);
            assertSame(WcStatus.MW_BIND_ERR, register(p, fr.stag(), Stag.withNextKey(fr.stag()), p.arena.allocate(101),
                    Access.REMOTE_READ).status(), "longer than the region's maximum");
        }
        try (StreamPair p = new StreamPair(StreamPair.defaults(), StreamPair.defaults(), Seeds.random(4))) {
            Region fr = p.b.stags.allocFastReg(StreamPair.PD, 100);
            assertSame(WcStatus.MW_BIND_ERR, register(p, fr.stag(), fr.stag(), p.arena.allocate(10),
                    Access.REMOTE_READ).status(), "the same key");
        }
        try (StreamPair p = new StreamPair(StreamPair.defaults(), StreamPair.defaults(), Seeds.random(5))) {
            Region plain = p.b.register(64, Access.LOCAL_WRITE);
            assertSame(WcStatus.MW_BIND_ERR, register(p, plain.stag(), Stag.withNextKey(plain.stag()),
                    p.arena.allocate(10), Access.REMOTE_READ).status(), "an ordinary region is not fast-registered");
        }
    }
}
