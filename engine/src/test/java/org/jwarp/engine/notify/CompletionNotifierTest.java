package org.jwarp.engine.notify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;

import org.jwarp.engine.testing.AllocationMeter;
import org.jwarp.engine.testing.FakeNanoClock;
import org.jwarp.verbs.Moderation;
import org.junit.jupiter.api.Test;

/** Arming, solicited-only filtering and moderation, single-threaded with a fake clock. */
class CompletionNotifierTest {

    private final FakeNanoClock clock = new FakeNanoClock(-5_000_000_000L);  // any origin: only differences count

    private CompletionNotifier<String> notifier(Moderation m) {
        return new CompletionNotifier<>(m, clock, 8);
    }

    @Test
    void unarmedCqRaisesNothing() {
        CompletionNotifier<String> n = notifier(Moderation.NONE);
        CqArming<String> cq = n.register("cq1");
        for (int i = 0; i < 10; i++) {
            assertFalse(cq.onCompletion(i % 2 == 0));
        }
        assertEquals(0, n.poll());
        assertNull(n.tryAwait());
        assertEquals(0, n.events());
        assertEquals(0, n.doorbell().rung(), "nobody was signalled");
    }

    @Test
    void armingIsOneShot() {
        CompletionNotifier<String> n = notifier(Moderation.NONE);
        CqArming<String> cq = n.register("cq1");
        cq.requestNotify(false);
        assertTrue(cq.isArmed());
        assertTrue(cq.onCompletion(false), "the next completion raises the event");
        assertFalse(cq.isArmed(), "and disarms");
        assertFalse(cq.onCompletion(false), "no second event without re-arming");
        assertEquals("cq1", n.tryAwait());
        assertNull(n.tryAwait(), "one event");
        cq.requestNotify(false);
        assertTrue(cq.onCompletion(false), "re-armed");
        assertEquals("cq1", n.tryAwait());
        assertEquals(2, n.events());
    }

    @Test
    void solicitedOnlyIgnoresUnsolicitedCompletions() {
        CompletionNotifier<String> n = notifier(Moderation.NONE);
        CqArming<String> cq = n.register("cq1");
        cq.requestNotify(true);
        assertTrue(cq.isSolicitedOnly());
        assertFalse(cq.onCompletion(false));
        assertFalse(cq.onCompletion(false));
        assertNull(n.tryAwait());
        assertTrue(cq.isArmed(), "still armed after unsolicited completions");
        assertTrue(cq.onCompletion(true), "a solicited (or error) completion raises it");
        assertEquals("cq1", n.tryAwait());
    }

    @Test
    void armingForAllWidensASolicitedArming() {
        CompletionNotifier<String> n = notifier(Moderation.NONE);
        CqArming<String> cq = n.register("cq1");
        cq.requestNotify(true);
        cq.requestNotify(false);
        assertFalse(cq.isSolicitedOnly());
        assertTrue(cq.onCompletion(false));
        cq.requestNotify(false);
        cq.requestNotify(true);
        assertFalse(cq.isSolicitedOnly(), "solicited-only does not narrow an all-completions arming");
    }

    @Test
    void moderationByCount() {
        CompletionNotifier<String> n = notifier(Moderation.of(3, 100));
        CqArming<String> cq = n.register("cq1");
        assertFalse(cq.onCompletion(false), "before arming: does not count");
        cq.requestNotify(false);
        assertEquals(0, cq.pendingCount());
        assertFalse(cq.onCompletion(false));
        assertFalse(cq.onCompletion(false));
        assertNull(n.tryAwait());
        assertEquals(2, cq.pendingCount());
        assertTrue(cq.onCompletion(false), "the third matching completion raises the event");
        assertEquals("cq1", n.tryAwait());
        assertEquals(0, cq.pendingCount(), "the count restarts");
        clock.advance(1, TimeUnit.SECONDS);
        assertEquals(0, n.poll(), "a disarmed CQ has no timer");
    }

    @Test
    void moderationByCountCountsOnlyMatchingCompletions() {
        CompletionNotifier<String> n = notifier(Moderation.of(2, 100));
        CqArming<String> cq = n.register("cq1");
        cq.requestNotify(true);
        assertFalse(cq.onCompletion(false));
        assertFalse(cq.onCompletion(false));
        assertEquals(0, cq.pendingCount(), "unsolicited completions do not count for a solicited arming");
        assertFalse(cq.onCompletion(true));
        assertTrue(cq.onCompletion(true));
    }

    @Test
    void moderationByTimeFromTheFirstMatchingCompletion() {
        CompletionNotifier<String> n = notifier(Moderation.of(10, 100));
        CqArming<String> cq = n.register("cq1");
        cq.requestNotify(false);
        clock.advance(1, TimeUnit.MILLISECONDS);          // time before the first completion does not count
        assertEquals(0, n.poll());
        assertEquals(Long.MAX_VALUE, n.nanosToNextDeadline());
        assertFalse(cq.onCompletion(false));              // the period starts here
        clock.advance(40, TimeUnit.MICROSECONDS);
        assertFalse(cq.onCompletion(false));              // later completions do not restart it
        assertEquals(60_000, n.nanosToNextDeadline());
        clock.advance(59_999, TimeUnit.NANOSECONDS);
        assertEquals(0, n.poll(), "1 ns before the period ends");
        assertNull(n.tryAwait());
        clock.advance(1, TimeUnit.NANOSECONDS);
        assertEquals(0, n.nanosToNextDeadline());
        assertEquals(1, n.poll(), "the period ends: the event is raised with 2 of 10 completions");
        assertEquals("cq1", n.tryAwait());
        assertEquals(0, n.poll(), "once");
        assertFalse(cq.isArmed());
        cq.requestNotify(false);
        clock.advance(1, TimeUnit.SECONDS);
        assertEquals(0, n.poll(), "after re-arming, the period waits for a new first completion");
        cq.onCompletion(false);
        clock.advance(100, TimeUnit.MICROSECONDS);
        assertEquals(1, n.poll());
    }

    @Test
    void countAndTimerRaceForOneEvent() {
        CompletionNotifier<String> n = notifier(Moderation.of(2, 100));
        CqArming<String> cq = n.register("cq1");
        cq.requestNotify(false);
        cq.onCompletion(false);
        clock.advance(100, TimeUnit.MICROSECONDS);
        assertEquals(1, n.poll(), "the timer fires first");
        assertFalse(cq.onCompletion(false), "the completion that would have reached the count finds it disarmed");
        assertEquals("cq1", n.tryAwait());
        assertNull(n.tryAwait());
        assertEquals(1, n.events());
    }

    @Test
    void eventsAreDeliveredOldestFirst() {
        CompletionNotifier<String> n = notifier(Moderation.NONE);
        CqArming<String> a = n.register("a");
        CqArming<String> b = n.register("b");
        CqArming<String> c = n.register("c");
        a.requestNotify(false);
        b.requestNotify(false);
        c.requestNotify(false);
        c.onCompletion(false);
        a.onCompletion(false);
        b.onCompletion(false);
        assertEquals("c", n.tryAwait());
        assertEquals("a", n.tryAwait());
        assertEquals("b", n.tryAwait());
        assertNull(n.tryAwait());
    }

    @Test
    void aCqFiringAgainBeforeItsEventIsTakenIsQueuedOnce() {
        CompletionNotifier<String> n = notifier(Moderation.NONE);
        CqArming<String> cq = n.register("cq1");
        cq.requestNotify(false);
        cq.onCompletion(false);
        cq.requestNotify(false);                           // re-armed without awaiting
        assertTrue(cq.onCompletion(false));
        assertEquals(2, n.events());
        assertEquals("cq1", n.tryAwait());
        assertNull(n.tryAwait(), "coalesced: the waiter polls the CQ anyway");
    }

    @Test
    void unregisteredCqIsSilentAndItsQueuedEventDropped() {
        CompletionNotifier<String> n = notifier(Moderation.NONE);
        CqArming<String> gone = n.register("gone");
        CqArming<String> kept = n.register("kept");
        gone.requestNotify(false);
        kept.requestNotify(false);
        gone.onCompletion(false);
        kept.onCompletion(false);
        assertTrue(n.unregister(gone));
        assertFalse(n.unregister(gone));
        assertEquals(1, n.registered());
        assertEquals("kept", n.tryAwait(), "the destroyed CQ's event is skipped");
        assertFalse(gone.onCompletion(true));
        assertThrows(IllegalStateException.class, () -> gone.requestNotify(false));
    }

    @Test
    void registrationLimitsAndClose() {
        CompletionNotifier<String> n = new CompletionNotifier<>(Moderation.NONE, clock, 2);
        CqArming<String> a = n.register("a");
        CqArming<String> b = n.register("b");
        assertThrows(IllegalStateException.class, () -> n.register("c"), "maxCqs");
        assertThrows(IllegalStateException.class, n::close, "CQs still attached (EBUSY)");
        n.unregister(a);
        n.unregister(b);
        n.close();
        assertTrue(n.isClosed());
        assertThrows(IllegalStateException.class, () -> n.await(0, TimeUnit.SECONDS));
        assertThrows(IllegalStateException.class, () -> n.register("d"));
        assertThrows(IllegalArgumentException.class, () -> new CompletionNotifier<>(Moderation.NONE, clock, 0));
        assertThrows(IllegalArgumentException.class, () -> new CompletionNotifier<>(null, clock, 1));
    }

    /** Destroyed CQs' undelivered events cannot overflow the event queue: attaching more is refused. */
    @Test
    void undeliveredEventsOfDestroyedCqsBoundTheQueue() {
        CompletionNotifier<String> n = new CompletionNotifier<>(Moderation.NONE, clock, 1);
        int attached = 0;
        IllegalStateException refused = null;
        for (int i = 0; i < 64 && refused == null; i++) {
            try {
                CqArming<String> cq = n.register("cq" + i);
                attached++;
                cq.requestNotify(false);
                cq.onCompletion(false);
                n.unregister(cq);
            } catch (IllegalStateException e) {
                refused = e;
            }
        }
        assertTrue(refused != null && refused.getMessage().contains("undelivered"), "refused after " + attached);
        assertNull(n.tryAwait(), "all queued events belonged to destroyed CQs");
        n.register("fresh");                              // drained: room again
    }

    @Test
    void awaitWithZeroTimeoutDoesNotBlock() throws InterruptedException {
        CompletionNotifier<String> n = notifier(Moderation.NONE);
        assertNull(n.await(0, TimeUnit.MILLISECONDS));
        CqArming<String> cq = n.register("cq1");
        cq.requestNotify(false);
        cq.onCompletion(false);
        assertEquals("cq1", n.await(0, TimeUnit.MILLISECONDS));
    }

    /** docs/design.md rule 3: arming, counting, timers and taking events allocate nothing. */
    @Test
    void dataPathAllocatesNothing() {
        assertTrue(AllocationMeter.calibrate() >= 64);
        CompletionNotifier<String> n = notifier(Moderation.of(4, 50));
        CqArming<String> a = n.register("a");
        CqArming<String> b = n.register("b");
        long sink = 0;
        for (int round = 0; round < 2; round++) {
            long before = AllocationMeter.allocatedBytes();
            for (int i = 0; i < 100_000; i++) {
                a.requestNotify((i & 1) == 0);
                b.requestNotify(false);
                a.onCompletion(true);
                b.onCompletion(false);
                clock.advance(20, TimeUnit.MICROSECONDS);
                sink += n.poll();
                String q;
                while ((q = n.tryAwait()) != null) {
                    sink += q.length();
                }
            }
            long allocated = AllocationMeter.allocatedBytes() - before;
            if (round == 1) {
                assertTrue(allocated < 1024, "allocated " + allocated + " bytes over 100k rounds");
            }
        }
        assertTrue(sink > 0);
    }
}
