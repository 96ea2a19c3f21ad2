package org.jwarp.engine.ring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

import org.jwarp.engine.idle.IdleStrategy;
import org.jwarp.engine.testing.AllocationMeter;
import org.jwarp.verbs.WcStatus;
import org.jwarp.verbs.WorkCompletion;
import org.junit.jupiter.api.Test;

class MpscSlotRingTest {

    private static final int PRODUCERS = 2;
    private static final int PER_PRODUCER = 500_000;
    private static final int WARM_UP = 100_000;

    @Test
    void capacityMustBeAPowerOfTwoOfAtLeastTwo() {
        assertThrows(IllegalArgumentException.class, () -> new MpscSlotRing<>(1, Item::new));
        assertThrows(IllegalArgumentException.class, () -> new MpscSlotRing<>(6, Item::new));
        assertThrows(IllegalArgumentException.class, () -> new MpscSlotRing<>(8, () -> null));
        assertEquals(2, new MpscSlotRing<>(2, Item::new).capacity());
    }

    @Test
    void emptyAndFullEdges() {
        MpscSlotRing<Item> ring = new MpscSlotRing<>(4, Item::new);
        assertNull(ring.peek());
        assertThrows(IllegalStateException.class, ring::release);
        for (int i = 0; i < 4; i++) {
            long c = ring.claim();
            assertEquals(i, c);
            ring.slot(c).seq = i;
            ring.publish(c);
        }
        assertEquals(-1, ring.claim(), "full");
        assertEquals(4, ring.size());
        assertEquals(0, ring.peek().seq);
        ring.release();
        long c = ring.claim();
        assertEquals(4, c, "one release frees one position");
        ring.slot(c).seq = 4;
        ring.publish(c);
        for (int i = 1; i <= 4; i++) {
            assertSame(ring.peek(), ring.peek());
            assertEquals(i, ring.peek().seq);
            ring.release();
        }
        assertNull(ring.peek());
        assertTrue(ring.isEmpty());
    }

    /** Slots are seen in claim order: a later claim published first waits for the earlier one. */
    @Test
    void outOfOrderPublishIsSeenInClaimOrder() {
        MpscSlotRing<Item> ring = new MpscSlotRing<>(4, Item::new);
        long a = ring.claim();
        long b = ring.claim();
        ring.slot(b).seq = 2;
        ring.publish(b);
        assertNull(ring.peek(), "the head (claim a) is not published yet");
        assertEquals(2, ring.size(), "both claims count");
        ring.slot(a).seq = 1;
        ring.publish(a);
        assertEquals(1, ring.peek().seq);
        ring.release();
        assertEquals(2, ring.peek().seq);
        ring.release();
        assertNull(ring.peek());
    }

    /** The CQ use: an engine thread copies a completion into the slot. */
    @Test
    void workCompletionsAreCopiedIntoSlots() {
        MpscSlotRing<WorkCompletion> cq = new MpscSlotRing<>(4, WorkCompletion::new);
        WorkCompletion wc = new WorkCompletion();
        long c = cq.claim();
        cq.slot(c).copyFrom(wc.reset().wrId(42).status(WcStatus.SUCCESS));
        cq.publish(c);
        assertEquals(42, cq.peek().wrId());
    }

    /**
     * Two producer threads pass 500,000 items each to one consumer: per producer, the consumer
     * sees 0, 1, 2, ... (order kept, nothing lost or duplicated), and after warm-up no thread
     * allocates (docs/design.md rule 3).
     */
    @Test
    void twoProducersPassAMillionItemsInOrderWithoutAllocating() throws Throwable {
        assertTrue(AllocationMeter.calibrate() >= 64, "the allocation meter sees a 64-byte array");
        MpscSlotRing<Item> ring = new MpscSlotRing<>(1024, Item::new);
        AtomicLongArray producerBytes = new AtomicLongArray(PRODUCERS);
        AtomicLong consumerBytes = new AtomicLong(-1);
        long[] next = new long[PRODUCERS];
        ThreadHarness h = new ThreadHarness();
        for (int p = 0; p < PRODUCERS; p++) {
            int id = p;
            h.start("mpsc-producer-" + p, () -> {
                IdleStrategy idle = ThreadHarness.idle();
                long before = 0;
                for (int i = 0; i < PER_PRODUCER && !h.aborted(); ) {
                    if (i == WARM_UP) {
                        before = AllocationMeter.allocatedBytes();
                    }
                    long c = ring.claim();
                    if (c < 0) {
                        idle.idle(0);
                        continue;
                    }
                    Item slot = ring.slot(c);
                    slot.producer = id;
                    slot.seq = i;
                    ring.publish(c);
                    idle.reset();
                    i++;
                }
                producerBytes.set(id, AllocationMeter.allocatedBytes() - before);
            });
        }
        h.start("mpsc-consumer", () -> {
            IdleStrategy idle = ThreadHarness.idle();
            long before = 0;
            long total = 0;
            while (total < (long) PRODUCERS * PER_PRODUCER && !h.aborted()) {
                if (total == WARM_UP * PRODUCERS) {
                    before = AllocationMeter.allocatedBytes();
                }
                Item slot = ring.peek();
                if (slot == null) {
                    idle.idle(0);
                    continue;
                }
                int p = slot.producer;
                if (slot.seq != next[p]) {
                    throw new AssertionError("producer " + p + ": expected item " + next[p] + ", got " + slot.seq);
                }
                next[p]++;
                ring.release();
                idle.reset();
                total++;
            }
            consumerBytes.set(AllocationMeter.allocatedBytes() - before);
        });
        h.join(20_000);
        for (int p = 0; p < PRODUCERS; p++) {
            assertEquals(PER_PRODUCER, next[p], "every item of producer " + p + " arrived once");
            assertTrue(producerBytes.get(p) < 1024, "producer " + p + " allocated " + producerBytes.get(p) + " bytes");
        }
        assertNull(ring.peek(), "nothing left over");
        assertTrue(consumerBytes.get() < 1024, "consumer allocated " + consumerBytes.get() + " bytes");
    }
}
