package org.jwarp.engine.ring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicLong;

import org.jwarp.engine.idle.IdleStrategy;
import org.jwarp.engine.testing.AllocationMeter;
import org.jwarp.verbs.SendWr;
import org.junit.jupiter.api.Test;

class SpscSlotRingTest {

    private static final int ITEMS = 1_000_000;
    private static final int WARM_UP = 200_000;

    @Test
    void capacityMustBeAPowerOfTwo() {
        assertThrows(IllegalArgumentException.class, () -> new SpscSlotRing<>(0, Item::new));
        assertThrows(IllegalArgumentException.class, () -> new SpscSlotRing<>(3, Item::new));
        assertThrows(IllegalArgumentException.class, () -> new SpscSlotRing<>(-8, Item::new));
        assertThrows(IllegalArgumentException.class, () -> new SpscSlotRing<>(4, () -> null));
        assertEquals(1, new SpscSlotRing<>(1, Item::new).capacity());
    }

    @Test
    void emptyAndFullEdges() {
        SpscSlotRing<Item> ring = new SpscSlotRing<>(4, Item::new);
        assertNull(ring.peek(), "a new ring is empty");
        assertTrue(ring.isEmpty());
        assertThrows(IllegalStateException.class, ring::release, "release of an empty ring");
        assertThrows(IllegalStateException.class, ring::publish, "publish without a claim");
        for (int i = 0; i < 4; i++) {
            Item slot = ring.claim();
            assertNotNull(slot, "slot " + i);
            slot.seq = i;
            ring.publish();
        }
        assertEquals(4, ring.size());
        assertNull(ring.claim(), "a full ring has no free slot");
        assertEquals(0, ring.peek().seq);
        ring.release();
        Item again = ring.claim();
        assertNotNull(again, "releasing one slot frees one");
        assertSame(ring.claim(), again, "claiming twice before publishing is the same slot");
        again.seq = 4;
        ring.publish();
        for (int i = 1; i <= 4; i++) {
            assertEquals(i, ring.peek().seq);
            assertSame(ring.peek(), ring.peek(), "peek leaves the slot in place");
            ring.release();
        }
        assertNull(ring.peek());
        assertEquals(0, ring.size());
        assertThrows(IllegalStateException.class, ring::release);
    }

    @Test
    void unpublishedSlotIsInvisible() {
        SpscSlotRing<Item> ring = new SpscSlotRing<>(2, Item::new);
        ring.claim().seq = 7;
        assertNull(ring.peek(), "claimed but not published");
        assertEquals(0, ring.size());
        ring.publish();
        assertEquals(7, ring.peek().seq);
    }

    @Test
    void capacityOneAlternates() {
        SpscSlotRing<Item> ring = new SpscSlotRing<>(1, Item::new);
        for (int i = 0; i < 10; i++) {
            ring.claim().seq = i;
            ring.publish();
            assertNull(ring.claim());
            assertEquals(i, ring.peek().seq);
            ring.release();
        }
    }

    /** The SQ use: the application copies a prepared SendWr into the slot. */
    @Test
    void sendWorkRequestsAreCopiedIntoSlots() {
        SpscSlotRing<SendWr> sq = new SpscSlotRing<>(8, () -> new SendWr(2));
        SendWr wr = new SendWr(2);
        for (int i = 0; i < 8; i++) {
            wr.reset().wrId(100 + i);
            sq.claim().copyFrom(wr);
            sq.publish();
        }
        for (int i = 0; i < 8; i++) {
            assertEquals(100 + i, sq.peek().wrId());
            sq.release();
        }
    }

    /**
     * Two threads pass 1,000,000 items: the consumer sees 0, 1, 2, ... with nothing lost or
     * duplicated, and after warm-up neither thread allocates (docs/design.md rule 3).
     */
    @Test
    void twoThreadsPassAMillionItemsInOrderWithoutAllocating() throws Throwable {
        assertTrue(AllocationMeter.calibrate() >= 64, "the allocation meter sees a 64-byte array");
        SpscSlotRing<Item> ring = new SpscSlotRing<>(1024, Item::new);
        AtomicLong producerBytes = new AtomicLong(-1);
        AtomicLong consumerBytes = new AtomicLong(-1);
        AtomicLong received = new AtomicLong();
        ThreadHarness h = new ThreadHarness();
        h.start("spsc-producer", () -> {
            IdleStrategy idle = ThreadHarness.idle();
            long before = 0;
            for (int i = 0; i < ITEMS && !h.aborted(); ) {
                if (i == WARM_UP) {
                    before = AllocationMeter.allocatedBytes();
                }
                Item slot = ring.claim();
                if (slot == null) {
                    idle.idle(0);
                    continue;
                }
                slot.seq = i;
                ring.publish();
                idle.reset();
                i++;
            }
            producerBytes.set(AllocationMeter.allocatedBytes() - before);
        });
        h.start("spsc-consumer", () -> {
            IdleStrategy idle = ThreadHarness.idle();
            long before = 0;
            long expected = 0;
            while (expected < ITEMS && !h.aborted()) {
                if (expected == WARM_UP) {
                    before = AllocationMeter.allocatedBytes();
                }
                Item slot = ring.peek();
                if (slot == null) {
                    idle.idle(0);
                    continue;
                }
                if (slot.seq != expected) {
                    throw new AssertionError("expected item " + expected + ", got " + slot.seq);
                }
                ring.release();
                idle.reset();
                expected++;
            }
            consumerBytes.set(AllocationMeter.allocatedBytes() - before);
            received.set(expected);
        });
        h.join(20_000);
        assertEquals(ITEMS, received.get(), "every item arrived once");
        assertNull(ring.peek(), "nothing left over");
        int measured = ITEMS - WARM_UP;
        assertTrue(producerBytes.get() < 1024, "producer allocated " + producerBytes.get() + " bytes over " + measured
                + " items");
        assertTrue(consumerBytes.get() < 1024, "consumer allocated " + consumerBytes.get() + " bytes over " + measured
                + " items");
    }
}
