package org.jwarp.engine.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The engine thread's scheduling rules, cycle by cycle, on made-up connections, a made-up
 * readiness check and a clock that moves only when the test says: which connections a duty cycle
 * reads, when one is parked and what brings it back, and whether a timer keeps the engine awake.
 * No sockets, no threads, no sleeps.
 */
class EngineSchedulerTest {

    private static final long MS = 1_000_000L;

    /** A connection as the scheduler sees it; the test sets what it has to do. */
    static final class Fake implements EngineScheduler.Scheduled {
        final String name;
        final Schedule schedule = new Schedule();
        boolean idle = true;
        boolean posted;
        boolean qpParked;

        Fake(String name) {
            this.name = name;
        }

        @Override
        public Schedule schedule() {
            return schedule;
        }

        @Override
        public boolean idle() {
            return idle;
        }

        @Override
        public boolean hasPosted() {
            return posted;
        }

        @Override
        public void parkedChanged(boolean parked) {
            qpParked = parked;
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /** The readiness check: the connections the test says have bytes this cycle. */
    static final class FakeReadiness implements EngineScheduler.Readiness<Fake> {
        final List<Fake> ready = new ArrayList<>();
        int checks;

        @Override
        public void selectNow(Consumer<Fake> readable) {
            checks++;
            ready.forEach(readable);
            ready.clear();
        }
    }

    private final FakeReadiness readiness = new FakeReadiness();
    private final EngineScheduler<Fake> scheduler = new EngineScheduler<>(4, readiness);
    private final List<Fake> all = new ArrayList<>();
    private long now = 1_000 * MS;

    private Fake connect(String name) {
        Fake f = new Fake(name);
        all.add(f);
        scheduler.add(f);
        return f;
    }

    /** One duty cycle: every visited connection transmits {@code sent} (by name) and does {@code done} work. */
    private boolean cycle(boolean woke, List<Fake> senders, List<Fake> busy) {
        List<Fake> active = scheduler.active();
        for (Fake f : active) {
            scheduler.transmitted(f, senders.contains(f) ? 1 : 0, false, now);
        }
        boolean selective = scheduler.chooseReads(now, woke, all);
        int kept = 0;
        for (int i = 0; i < active.size(); i++) {
            Fake f = active.get(i);
            int done = busy.contains(f) ? 1 : 0;
            if (done > 0 && f.schedule.readable()) {
                f.schedule.heard(now);
            }
            if (scheduler.stays(f, done, selective)) {
                active.set(kept++, f);
            }
        }
        scheduler.truncate(kept);
        now += 1_000;                                   // a microsecond per cycle
        return selective;
    }

    private boolean cycle() {
        return cycle(false, List.of(), List.of());
    }

    @Test
    void belowTheThresholdAPeerThatTalksIsReadEveryCycleAndAQuietNeighbourInTurn() {
        Fake talker = connect("talker");
        Fake quiet = connect("quiet");
        now += 10 * MS;                                 // both silent for long
        cycle(true, List.of(), List.of(talker));        // after a sleep both are read: the talker has bytes
        int talkerReads = 0;
        int quietReads = 0;
        for (int i = 0; i < 80; i++) {
            assertFalse(cycle(false, List.of(), List.of(talker)), "two connections: no readiness check");
            talkerReads += talker.schedule.readable() ? 1 : 0;
            quietReads += quiet.schedule.readable() ? 1 : 0;
        }
        assertEquals(80, talkerReads, "a connection the peer talks on is read every cycle");
        assertEquals(80 / EngineScheduler.QUIET_READ_EVERY, quietReads, "a quiet neighbour every 8th cycle");
        assertEquals(0, readiness.checks);
    }

    @Test
    void aLoneQuietConnectionIsReadEveryCycleAndEveryConnectionAfterASleep() {
        Fake lone = connect("lone");
        now += 10 * MS;
        cycle();
        assertTrue(lone.schedule.readable(), "nothing else needs the cycle");
        Fake other = connect("other");
        cycle();
        cycle();
        assertFalse(lone.schedule.readable() && other.schedule.readable(), "two quiet ones are read in turn");
        cycle(true, List.of(), List.of());
        assertTrue(lone.schedule.readable() && other.schedule.readable(), "after a sleep every connection is read");
    }

    @Test
    void aSenderIsReadInTurnWhileItSendsAndForAMillisecondAfter() {
        Fake sender = connect("sender");
        connect("neighbour");
        int reads = 0;
        for (int i = 0; i < 16; i++) {
            cycle(false, List.of(sender), List.of());
            reads += sender.schedule.readable() ? 1 : 0;
        }
        assertEquals(2, reads, "a sender's reads would come back empty: every 8th cycle");
        now += Schedule.QUIET_AFTER_NANOS / 2;
        cycle();
        cycle();
        assertFalse(sender.schedule.readable(), "half a millisecond after its last send: still in turn");
    }

    @Test
    void thePostersOwnCycleReadsItsConnectionOnlyInTurn() {
        Fake c = connect("pinged");
        connect("other");
        cycle(true, List.of(), List.of(c));             // the peer talks: read every cycle
        cycle(false, List.of(), List.of(c));
        assertTrue(c.schedule.readable());
        c.schedule.sentAhead();                         // the poster sent just before its cycle
        cycle(false, List.of(), List.of());
        assertFalse(c.schedule.readable(), "the answer cannot be there yet");
        cycle(false, List.of(), List.of());
        assertTrue(c.schedule.readable(), "the poster's next poll reads it again");
    }

    @Test
    void fromTheThresholdReadsFollowReadinessAndQuietConnectionsAreParked() {
        List<Fake> fs = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            fs.add(connect("c" + i));
        }
        readiness.ready.add(fs.get(2));
        assertTrue(cycle(false, List.of(), List.of(fs.get(2))), "four connections: reads follow readiness");
        assertEquals(1, readiness.checks, "one readiness check per cycle");
        assertEquals(1, scheduler.active().size(), "three did nothing and are parked");
        assertEquals(3, scheduler.parkedCount());
        assertTrue(fs.get(0).qpParked, "the QP's posters see it parked");
        // the one that had bytes is quiet in the next cycle (one message says nothing of the next): parked too
        cycle();
        assertEquals(0, scheduler.active().size());
        assertEquals(4, scheduler.parkedCount());
        readiness.ready.add(fs.get(1));
        scheduler.chooseReads(now, false, all);
        assertEquals(List.of(fs.get(1)), scheduler.active(), "readable bytes bring a parked connection back");
        assertTrue(fs.get(1).schedule.readable());
        assertFalse(fs.get(1).qpParked);
    }

    @Test
    void aboveTheThresholdAPeerThatTalksIsReadEveryCycleAndReadinessIsCheckedInTurn() {
        List<Fake> fs = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            fs.add(connect("c" + i));
        }
        Fake talker = fs.get(0);
        readiness.ready.add(talker);
        cycle(false, List.of(), List.of(talker));
        assertEquals(List.of(talker), scheduler.active(), "the others did nothing and are parked");
        readiness.ready.add(talker);
        cycle(false, List.of(), List.of(talker));      // a second message within the millisecond: its peer keeps talking
        int checks = readiness.checks;
        int reads = 0;
        for (int i = 0; i < 8 * EngineScheduler.QUIET_READ_EVERY; i++) {
            assertTrue(cycle(false, List.of(), List.of(talker)), "reads still follow readiness for the others");
            reads += talker.schedule.readable() ? 1 : 0;
        }
        assertEquals(8 * EngineScheduler.QUIET_READ_EVERY, reads, "the talking peer's socket is read every cycle");
        assertEquals(8, readiness.checks - checks, "the readiness check every 8th cycle");
        Fake neighbour = fs.get(3);
        readiness.ready.add(neighbour);
        int waited = 1;
        cycle(false, List.of(), List.of(talker, neighbour));
        while (!neighbour.schedule.readable() && waited < 2 * EngineScheduler.QUIET_READ_EVERY) {
            cycle(false, List.of(), List.of(talker, neighbour));
            waited++;
        }
        assertTrue(neighbour.schedule.readable(), "a parked neighbour's bytes are read");
        assertTrue(waited <= EngineScheduler.QUIET_READ_EVERY, "within 8 cycles: " + waited);
        int before = readiness.checks;
        cycle(true, List.of(), List.of(talker));
        assertEquals(before + 1, readiness.checks, "after a sleep the check runs at once");
    }

    @Test
    void aboveTheThresholdOneMessageAloneDoesNotMakeAPeerTalking() {
        List<Fake> fs = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            fs.add(connect("c" + i));
        }
        readiness.ready.add(fs.get(4));
        cycle(false, List.of(), List.of(fs.get(4)));    // a nudge, say
        int checks = readiness.checks;
        for (int i = 0; i < 3; i++) {
            cycle();
        }
        assertEquals(checks + 3, readiness.checks, "nobody keeps talking: the check runs every cycle");
        assertEquals(0, scheduler.active().size(), "and every connection is parked");
    }

    @Test
    void aboveTheThresholdASetupAndItsFirstFpduAreNotAPeerThatTalks() {
        List<Fake> fs = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            fs.add(connect("c" + i));
        }
        Fake fresh = fs.get(2);
        fresh.schedule.started(now);                    // its MPA Request was just read
        readiness.ready.add(fresh);
        cycle(false, List.of(), List.of(fresh));        // and the RTR follows at once
        int checks = readiness.checks;
        for (int i = 0; i < 3; i++) {
            cycle();
        }
        assertEquals(checks + 3, readiness.checks, "nobody keeps talking: the check runs every cycle");
        assertFalse(fresh.schedule.readable(), "the new connection is not read every cycle for nothing");
        readiness.ready.add(fresh);
        cycle(false, List.of(), List.of(fresh));        // its first message
        readiness.ready.add(fresh);
        cycle(false, List.of(), List.of(fresh));        // and the next: now the peer talks
        cycle();
        assertTrue(fresh.schedule.readable(), "two messages after the RTR: read every cycle");
    }

    @Test
    void manyTalkingPeersAreLeftToReadiness() {
        List<Fake> fs = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            fs.add(connect("c" + i));
        }
        readiness.ready.addAll(fs);
        cycle(false, List.of(), fs);
        readiness.ready.addAll(fs);
        cycle(false, List.of(), fs);                    // all six heard twice: more than the threshold of 4 talk
        int checks = readiness.checks;
        readiness.ready.add(fs.get(1));
        cycle(false, List.of(), List.of(fs.get(1)));
        assertEquals(checks + 1, readiness.checks, "a readiness check in every cycle");
        for (Fake f : fs) {
            assertEquals(f == fs.get(1), f.schedule.readable(), f + ": read only if the check found bytes");
        }
        assertEquals(List.of(fs.get(1)), scheduler.active(), "the rest did nothing and are parked");
    }

    @Test
    void aPostThatRacesTheParkingKeepsTheConnectionVisited() {
        List<Fake> fs = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            fs.add(connect("c" + i));
        }
        fs.get(3).posted = true;                        // posted between its cycle and the park
        cycle();
        assertEquals(List.of(fs.get(3)), scheduler.active(), "the scheduler saw the post after writing parked");
        assertFalse(fs.get(3).qpParked);
        scheduler.unpark(fs.get(0));                    // a post that saw it parked puts it back
        assertTrue(scheduler.active().contains(fs.get(0)));
        assertEquals(2, scheduler.parkedCount());
    }

    @Test
    void aConnectionWithSomethingToDoIsNeverParked() {
        for (int i = 0; i < 4; i++) {
            connect("c" + i).idle = false;              // a timer runs (setup, RTR wait, bytes waiting for room)
        }
        cycle();
        assertEquals(4, scheduler.active().size());
        assertTrue(scheduler.timersRunning(), "a sleeping engine must wake for their timers");
    }

    @Test
    void belowTheThresholdAgainEveryParkedConnectionIsVisited() {
        List<Fake> fs = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            fs.add(connect("c" + i));
        }
        cycle();
        assertEquals(4, scheduler.parkedCount());
        all.remove(fs.get(0));
        scheduler.remove(fs.get(0));                    // one leaves: three are below the threshold of 4
        assertEquals(3, scheduler.parkedCount());
        assertFalse(cycle(), "below the threshold: no readiness check");
        assertEquals(3, scheduler.active().size(), "every connection is visited again");
        assertEquals(0, scheduler.parkedCount());
        assertFalse(scheduler.timersRunning());
    }
}
