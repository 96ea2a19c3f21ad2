package org.jwarp.stack;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import org.jwarp.wire.rdmap.AtomicRequestHeader;

/** The responder's RFC 7306 atomic operations on registered memory. */
final class Atomics {

    /** 64-bit access to registered memory in the host's order. */
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    private Atomics() {
    }

    /**
     * Carries out the atomic at the head of {@code irq} and returns the value found. Memory holds
     * the 64-bit value in the host's order, as OFED atomics do; where the region is native and
     * aligned the update is a compare-and-set, so atomics from other streams and the host's own CAS
     * see one order.
     */
    static long perform(InboundReadQueue irq) {
        MemorySegment seg = irq.headSource().segment();
        long off = irq.headSourceOffset();
        if (seg.isNative() && ((seg.address() + off) & 7) == 0) {
            while (true) {
                long original = (long) LONG.getVolatile(seg, off);
                if (LONG.compareAndSet(seg, off, original, result(irq, original))) {
                    return original;
                }
            }
        }
        long original = seg.get(ValueLayout.JAVA_LONG_UNALIGNED, off);
        seg.set(ValueLayout.JAVA_LONG_UNALIGNED, off, result(irq, original));
        return original;
    }

    /**
     * RFC 7306 §4.1: CmpSwap stores {@code (orig & ~swapMask) | (swap & swapMask)} when
     * {@code (orig ^ compare) & compareMask} is 0; FetchAdd adds in fields whose top bits the Add
     * Mask marks, no carry leaving a field (mask 0: a plain 64-bit add).
     */
    private static long result(InboundReadQueue irq, long original) {
        long d = irq.headData();
        long m = irq.headMask();
        if (irq.headAtomicOpcode() == AtomicRequestHeader.AOPCODE_COMPARE_SWAP) {
            return ((original ^ irq.headCompare()) & irq.headCompareMask()) == 0 ? (original & ~m) | (d & m) : original;
        }
        return ((original & ~m) + (d & ~m)) ^ ((original ^ d) & m);
    }
}
