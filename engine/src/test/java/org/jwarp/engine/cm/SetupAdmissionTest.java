package org.jwarp.engine.cm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.jwarp.engine.testing.FakeNanoClock;

/**
 * The admission rules of a listener, step by step on a fake clock: silent connections are bounded
 * on their own and give way oldest first, time out quickly only under pressure, and never count
 * against the backlog, which holds only requests awaiting the application's decision.
 */
class SetupAdmissionTest {

    private final FakeNanoClock clock = new FakeNanoClock(1_000);

    /** A setup as the admission sees it; remembers why it was evicted. */
    private final class Setup implements SetupAdmission.Candidate {
        final String name;
        final long since = clock.nanoTime();
        String evicted;

        Setup(String name) {
            this.name = name;
        }

        @Override
        public long stageSince() {
            return since;
        }

        @Override
        public void evict(String reason) {
            evicted = reason;
        }

        @Override
        public String toString() {
            return name;
        }
    }

    private SetupAdmission<Setup> admission(int backlog, int maxSilent) {
        return new SetupAdmission<>(backlog, maxSilent, maxSilent, 2, TimeUnit.SECONDS.toNanos(1), clock);
    }

    @Test
    void silentConnectionsBeyondTheBoundGiveWayOldestFirst() {
        SetupAdmission<Setup> a = admission(2, 4);
        List<Setup> silent = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            Setup s = new Setup("silent-" + i);
            a.makeRoom();
            a.enterUnidentified(s);
            silent.add(s);
        }
        assertEquals(4, a.unidentified());
        assertEquals(0, a.deciding(), "silent connections do not count against the backlog");
        assertEquals(1, a.makeRoom(), "a fifth connection makes room by dropping one");
        assertTrue(silent.get(0).evicted.startsWith("dropped: 4 connections had not sent a complete MPA Request"),
                silent.get(0).evicted);
        for (int i = 1; i < 4; i++) {
            assertNull(silent.get(i).evicted, "only the oldest goes");
        }
        assertEquals(3, a.unidentified());
    }

    @Test
    void underPressureOnlyThoseOlderThanThePressureTimeoutAreDropped() {
        SetupAdmission<Setup> a = admission(2, 8);
        Setup old1 = new Setup("old-1");
        Setup old2 = new Setup("old-2");
        a.enterUnidentified(old1);
        a.enterUnidentified(old2);
        clock.advance(900, TimeUnit.MILLISECONDS);
        List<Setup> young = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Setup s = new Setup("young-" + i);
            a.enterUnidentified(s);
            young.add(s);
        }
        assertEquals(0, a.makeRoom(), "5 of 8 is pressure, but nobody is past 1 s yet");
        clock.advance(200, TimeUnit.MILLISECONDS);
        assertEquals(2, a.makeRoom(), "the two older than 1 s go");
        assertTrue(old1.evicted.startsWith("timed out after 1000 ms: more than 4 connections"), old1.evicted);
        assertTrue(old2.evicted != null);
        young.forEach(s -> assertNull(s.evicted, s + " is younger than the pressure timeout"));
        assertEquals(3, a.unidentified());
    }

    @Test
    void withoutPressureNothingIsDroppedHoweverOld() {
        SetupAdmission<Setup> a = admission(2, 8);
        Setup s = new Setup("lone");
        a.enterUnidentified(s);
        clock.advance(1, TimeUnit.HOURS);
        assertEquals(0, a.makeRoom(), "below half the bound the MPA timeouts are the rule");
        assertNull(s.evicted);
    }

    @Test
    void onlyRequestsAwaitingTheApplicationCountAgainstTheBacklog() {
        SetupAdmission<Setup> a = admission(2, 8);
        Setup first = new Setup("first");
        Setup second = new Setup("second");
        Setup third = new Setup("third");
        for (Setup s : List.of(first, second, third)) {
            a.enterUnidentified(s);
        }
        assertTrue(a.requestComplete(first));
        assertTrue(a.requestComplete(second));
        assertFalse(a.requestComplete(third), "a third undecided request finds the backlog of 2 full");
        assertEquals(1, a.unidentified(), "it waits in the first stage, with its bound and pressure timeout");
        a.decided();
        assertTrue(a.requestComplete(third), "a decision gives a place back");
        assertEquals(0, a.unidentified());
        assertEquals(2, a.deciding());
    }

    @Test
    void repliedConnectionsAreBoundedTheSameWayAndLeaveWhenEstablished() {
        SetupAdmission<Setup> a = admission(4, 2);
        Setup r1 = new Setup("replied-1");
        Setup r2 = new Setup("replied-2");
        a.enterReplied(r1);
        a.enterReplied(r2);
        assertEquals(1, a.makeRoom());
        assertTrue(r1.evicted.contains("had not sent their RTR after our MPA Reply"), r1.evicted);
        a.left(r2);                                  // its RTR arrived
        assertEquals(0, a.replied());
        a.left(r2);                                  // leaving twice changes nothing
        assertEquals(0, a.replied());
        assertNull(r2.evicted);
    }
}
