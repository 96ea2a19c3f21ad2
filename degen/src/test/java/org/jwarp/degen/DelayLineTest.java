package org.jwarp.degen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.jwarp.degen.DirectionStats.Counter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The delay line driven by made-up times: no threads, no sleeping, no devices. */
class DelayLineTest {

    private static final long MS = 1_000_000L;
    private static final long US = 1_000L;

    private final Arena arena = Arena.ofConfined();

    @AfterEach
    void close() {
        arena.close();
    }

    private DelayLine line(LinkParams p, long seed) {
        return new DelayLine(new LinkModel(p, seed), new PacketQueue(arena.allocate(1 << 20), 4096, 9000),
                new DirectionStats("a2b"), 9000);
    }

    /** Offers a packet whose first byte is {@code tag}; returns the verdict. */
    private static int offer(DelayLine line, long at, int len, int tag) {
        long slot = line.reserve();
        assertTrue(slot >= 0, "queue unexpectedly full");
        line.queue().ring().set(ValueLayout.JAVA_BYTE, slot, (byte) tag);
        return line.offer(slot, len, at);
    }

    private record Departure(int tag, long due, int len) {
    }

    /** Releases everything due up to {@code now}, as the router would, in order. */
    private static List<Departure> drain(DelayLine line, long now) {
        List<Departure> out = new ArrayList<>();
        while (line.hasDue(now)) {
            PacketQueue q = line.queue();
            out.add(new Departure(q.ring().get(ValueLayout.JAVA_BYTE, q.headOffset()), q.headDue(), q.headLength()));
            line.departed(now);
        }
        return out;
    }

    @Test
    void aPacketLeavesExactlyDelayAfterItArrived() {
        DelayLine line = line(LinkParams.passThrough().withDelay(10 * MS), 1);
        offer(line, 5 * MS, 100, 1);
        assertTrue(drain(line, 15 * MS - 1).isEmpty(), "left before its due time");
        List<Departure> out = drain(line, 15 * MS);
        assertEquals(List.of(new Departure(1, 15 * MS, 100)), out);
    }

    @Test
    void aBurstIsShiftedByTheDelayNotCascaded() {
        DelayLine line = line(LinkParams.passThrough().withDelay(10 * MS), 1);
        for (int i = 0; i < 100; i++) {
            offer(line, 1 * MS + i * US, 1500, i); // 100 packets, 1 µs apart
        }
        List<Departure> out = drain(line, 1 * MS + 10 * MS + 99 * US);
        assertEquals(100, out.size(), "the whole burst is due within the burst's own span after the delay");
        for (int i = 0; i < 100; i++) {
            assertEquals(i, out.get(i).tag(), "order");
            assertEquals(11 * MS + i * US, out.get(i).due(), "packet " + i + " is due delay after its own arrival");
        }
    }

    @Test
    void packetsLeaveInArrivalOrder() {
        DelayLine line = line(LinkParams.passThrough().withDelay(2 * MS).withJitter(1 * MS, JitterDistribution.UNIFORM), 7);
        for (int i = 0; i < 1000; i++) {
            offer(line, i * 10 * US, 64, i & 0x7f);
        }
        List<Departure> out = drain(line, 1000 * MS);
        assertEquals(1000, out.size());
        long previous = Long.MIN_VALUE;
        for (int i = 0; i < out.size(); i++) {
            assertEquals((byte) (i & 0x7f), out.get(i).tag(), "packet " + i + " overtaken");
            assertTrue(out.get(i).due() >= previous, "due times never go backwards");
            previous = out.get(i).due();
        }
    }

    @Test
    void theRateLimitSpacesPacketsBySerialisationTime() {
        // 100 Mb/s, Ethernet overhead: a 1500-byte packet takes (1500 + 38) * 8 / 1e8 s = 123.04 µs.
        LinkParams p = LinkParams.passThrough().withDelay(1 * MS).withRate(100_000_000L);
        DelayLine line = line(p, 1);
        for (int i = 0; i < 50; i++) {
            offer(line, 0, 1500, i); // a burst arriving at once
        }
        List<Departure> out = drain(line, 100 * MS);
        assertEquals(50, out.size());
        for (int i = 0; i < 50; i++) {
            assertEquals(1 * MS + (i + 1) * 123_040L, out.get(i).due(), "packet " + i);
        }
    }

    @Test
    void aRateLimitedLinkCarriesItsRateOverALongRun() {
        long rate = 1_000_000_000L;
        DelayLine line = line(LinkParams.passThrough().withRate(rate).withOverhead(0).withQueueLimit(1L << 30), 1);
        // Offer 2 Gb/s of 1000-byte packets (one every 4 µs) for 5 ms; the link must carry 1 Gb/s.
        long lastDue = 0;
        int n = 0;
        for (long t = 0; t < 5 * MS; t += 4 * US) {
            offer(line, t, 1000, 0);
            n++;
            for (Departure d : drain(line, t)) {
                lastDue = d.due();
            }
        }
        for (Departure d : drain(line, Long.MAX_VALUE / 2)) {
            lastDue = d.due();
        }
        double carried = n * 1000 * 8 / (lastDue / 1e9);
        assertEquals(rate, carried, rate * 1e-6, "bits per second over the run");
    }

    @Test
    void aFullBottleneckQueueTailDrops() {
        // 10 Mb/s with a 15000-byte limit on bytes not yet serialised (the packet on the wire
        // included): of a burst of 20 × 1500 bytes, ten fit and ten are dropped.
        LinkParams p = LinkParams.passThrough().withRate(10_000_000L).withOverhead(0).withQueueLimit(15_000);
        DelayLine line = line(p, 1);
        int queued = 0;
        for (int i = 0; i < 20; i++) {
            if (offer(line, 0, 1500, i) == DelayLine.QUEUED) {
                queued++;
            }
        }
        assertEquals(10, queued);
        assertEquals(10, line.stats().get(Counter.DROP_QUEUE));
    }

    @Test
    void uniformJitterStaysWithinItsBounds() {
        jitterStaysWithin(JitterDistribution.UNIFORM, 1 * MS);
    }

    @Test
    void normalJitterStaysWithinThreeSigma() {
        jitterStaysWithin(JitterDistribution.NORMAL, 3 * MS);
    }

    private void jitterStaysWithin(JitterDistribution dist, long bound) {
        long delay = 5 * MS;
        // Packets 100 ms apart so that the no-reordering rule never holds one back.
        DelayLine line = line(LinkParams.passThrough().withDelay(delay).withJitter(1 * MS, dist), 42);
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (int i = 0; i < 10_000; i++) {
            long t = i * 100 * MS;
            offer(line, t, 100, 0);
            List<Departure> out = drain(line, t + delay + bound);
            assertEquals(1, out.size());
            long added = out.get(0).due() - t;
            min = Math.min(min, added);
            max = Math.max(max, added);
        }
        assertTrue(min >= delay - bound && max <= delay + bound, "added delay in [" + min + ", " + max + "]");
        assertTrue(min < delay - bound / 2 && max > delay + bound / 2, "jitter should use its range: [" + min + ", " + max + "]");
    }

    @Test
    void lossRateMatchesTheConfiguredProbability() {
        DelayLine line = line(LinkParams.passThrough().withLoss(0.1), 12345);
        int n = 100_000;
        for (int i = 0; i < n; i++) {
            offer(line, i, 100, 0);
            drain(line, i);
        }
        long lost = line.stats().get(Counter.DROP_LOSS);
        // Binomial(100000, 0.1): sd ≈ 95; 5 sd either side.
        assertTrue(Math.abs(lost - 10_000) < 475, "lost " + lost + " of " + n);
        assertEquals(n - lost, line.stats().get(Counter.TX_PACKETS));
    }

    @Test
    void lossIsReproducibleForASeed() {
        assertEquals(lossPattern(99), lossPattern(99));
        assertTrue(!lossPattern(99).equals(lossPattern(100)));
    }

    private List<Integer> lossPattern(long seed) {
        DelayLine line = line(LinkParams.passThrough().withLoss(0.3), seed);
        List<Integer> verdicts = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            verdicts.add(offer(line, i, 100, 0));
            drain(line, i);
        }
        return verdicts;
    }

    @Test
    void packetsAboveTheEgressMtuAreDroppedAndCounted() {
        DelayLine line = new DelayLine(new LinkModel(LinkParams.passThrough(), 1),
                new PacketQueue(arena.allocate(1 << 20), 64, 9000), new DirectionStats("a2b"), 1500);
        assertEquals(DelayLine.DROPPED_MTU, offer(line, 0, 9000, 0));
        assertEquals(DelayLine.QUEUED, offer(line, 0, 1500, 0));
        assertEquals(1, line.stats().get(Counter.DROP_MTU));
        assertEquals(2, line.stats().get(Counter.RX_PACKETS));
    }

    @Test
    void delayErrorIsRecordedAsLatenessBehindTheDueTime() {
        DelayLine line = line(LinkParams.passThrough().withDelay(1 * MS), 1);
        offer(line, 0, 100, 0);
        assertTrue(line.hasDue(1 * MS));
        line.departed(1 * MS + 7 * US);
        var h = line.stats().takeDelayErrors(null);
        assertEquals(1, h.getTotalCount());
        assertEquals(7 * US, h.getMaxValue(), 7 * US / 500.0);
    }

    @Test
    void theRingWrapsWithoutOverwritingQueuedPackets() {
        // A ring of 3 × maxPacket, filled and drained in a random pattern; every packet's tag must
        // survive until it leaves, whatever the wrap positions.
        DelayLine line = new DelayLine(new LinkModel(LinkParams.passThrough(), 1),
                new PacketQueue(arena.allocate(3 * 2000), 64, 2000), new DirectionStats("a2b"), 2000);
        SplittableRandom rnd = new SplittableRandom(3);
        int next = 0;
        int expected = 0;
        for (int step = 0; step < 20_000; step++) {
            if (rnd.nextBoolean()) {
                long slot = line.reserve();
                if (slot >= 0) {
                    int len = 1 + rnd.nextInt(2000);
                    line.queue().ring().set(ValueLayout.JAVA_BYTE, slot, (byte) next);
                    line.queue().ring().set(ValueLayout.JAVA_BYTE, slot + len - 1, (byte) next);
                    line.offer(slot, len, step);
                    next++;
                }
            } else if (line.hasDue(step)) {
                PacketQueue q = line.queue();
                assertEquals((byte) expected, q.ring().get(ValueLayout.JAVA_BYTE, q.headOffset()));
                assertEquals((byte) expected, q.ring().get(ValueLayout.JAVA_BYTE, q.headOffset() + q.headLength() - 1));
                line.departed(step);
                expected++;
            }
        }
        assertTrue(expected > 5000, "the pattern should move many packets through the ring, moved " + expected);
    }
}
