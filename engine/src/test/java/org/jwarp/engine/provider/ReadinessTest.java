package org.jwarp.engine.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.jwarp.engine.runtime.EngineScheduler;
import org.jwarp.engine.runtime.Schedule;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.CompletionQueue;
import org.jwarp.verbs.CounterNames;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.MemoryRegion;
import org.jwarp.verbs.PostStatus;
import org.jwarp.verbs.ProtectionDomain;
import org.jwarp.verbs.QueuePair;
import org.jwarp.verbs.SendWr;
import org.jwarp.verbs.WcStatus;
import org.jwarp.verbs.WorkCompletion;
import org.jwarp.verbs.WrOpcode;

/**
 * Reads that follow readiness on real sockets and a real engine: from
 * {@link JwarpConfig#readinessFrom()} connections on, an engine thread asks the kernel which sockets
 * have bytes and reads only those — an idle connection costs no system call while the others work —
 * and the data path stays byte-exact. The read-in-turn rules themselves are
 * {@link org.jwarp.engine.runtime.EngineScheduler}'s, walked cycle by cycle on a fake clock by
 * {@code EngineSchedulerTest}.
 */
class ReadinessTest {

    static final Duration WAIT = Duration.ofSeconds(20);

    @Test
    void anIdleConnectionIsNotReadWhileAnotherWorks() throws Exception {
        int pairs = 12; // over the default threshold of 8 connections per engine thread
        try (ManyConnections m = new ManyConnections(LoopbackPair.dedicated())) {
            m.connect(pairs);
            ProtectionDomain cpd = m.clientPd;
            ProtectionDomain spd = m.serverPd;
            List<QueuePair> clientQps = m.clientQps;
            List<QueuePair> serverQps = m.serverQps;
            CompletionQueue ccq = m.clientCq();
            MemoryRegion src = cpd.registerMemory(java.lang.foreign.Arena.ofAuto().allocate(200_000), Access.LOCAL_WRITE);
            MemoryRegion back = cpd.registerMemory(java.lang.foreign.Arena.ofAuto().allocate(200_000), Access.LOCAL_WRITE);
            MemoryRegion dst = spd.registerMemory(java.lang.foreign.Arena.ofAuto().allocate(200_000),
                    Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ);
            byte[] pattern = new byte[200_000];
            new Random(7).nextBytes(pattern);
            src.segment().copyFrom(MemorySegment.ofArray(pattern));
            QueuePair active = clientQps.getFirst();
            long[] before = serverReads(serverQps);
            for (int round = 0; round < 50; round++) {
                assertEquals(PostStatus.OK, active.postSend(new SendWr().wrId(round).opcode(WrOpcode.RDMA_WRITE)
                        .signaled(false).addSge(src, 0, 200_000).remote(dst.iova(), dst.rkey())));
                assertEquals(PostStatus.OK, active.postSend(new SendWr().wrId(1000 + round).opcode(WrOpcode.RDMA_READ)
                        .signaled(true).addSge(back, 0, 200_000).remote(dst.iova(), dst.rkey())));
                WorkCompletion wc = next(ccq);
                assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString());
            }
            assertEquals(-1, dst.segment().mismatch(src.segment()), "every WRITE placed every byte");
            assertEquals(-1, back.segment().mismatch(src.segment()), "every READ brought every byte back");
            long[] after = serverReads(serverQps);
            assertTrue(after[0] - before[0] > 0, "the active connection was read");
            long cycles = after[0] - before[0];
            for (int i = 1; i < pairs; i++) {
                // an idle connection has one FPDU coming at most: the initiator's one-time nudge
                // (StreamDriver.SILENT_PEER_NUDGE_NANOS) — read once, where polling every socket
                // would have read it on every one of the active connection's cycles
                assertTrue(after[i] - before[i] <= 2, "idle connection " + i + " was read " + (after[i] - before[i])
                        + " times while the active one was read " + cycles + " times");
            }
            assertTrue(cycles > 20, "the active connection was read in many cycles: " + cycles);
        }
    }

    /**
     * A lone connection that only sends is read in turn in the duty cycles between its posts as
     * well (an application polling for completions runs them), not only in those that send; bytes
     * its peer then sends are still taken within {@link EngineScheduler#QUIET_READ_EVERY} cycles.
     */
    @Test
    void aLoneSenderIsReadInTurnInTheCyclesBetweenItsPostsToo() throws Exception {
        try (ManyConnections m = new ManyConnections(HybridModeTest.hybrid())) {
            Regions r = new Regions(m, 1);
            QueuePair sender = m.clientQps.get(0);
            int posts = 400;
            int idleCycles = 3;
            long before = sender.counters().get(CounterNames.SOCKET_READS);
            for (int i = 0; i < posts; i++) {
                assertEquals(PostStatus.OK, sender.postSend(r.write()));     // one duty cycle that sends
                for (int k = 0; k < idleCycles; k++) {
                    m.client.invoke();                                      // and some with nothing to send
                }
            }
            long reads = sender.counters().get(CounterNames.SOCKET_READS) - before;
            long turns = posts * (1 + idleCycles) / EngineScheduler.QUIET_READ_EVERY;
            // a read in every cycle between the posts would be posts * idleCycles (1,200) and more;
            // the upper bound leaves room for a stall of the machine longer than QUIET_AFTER_NANOS,
            // after which a few cycles read as for a connection silent both ways
            assertTrue(reads >= turns - 2 && reads <= 2 * turns, "the sending connection was read " + reads
                    + " times in " + posts * (1 + idleCycles) + " cycles, expected about " + turns);
            r.sendNote(0, (byte) 42);
            int cycles = awaitByte(m, r.inbox, 0, (byte) 42);
            assertTrue(cycles <= EngineScheduler.QUIET_READ_EVERY + 1, "placed after " + cycles + " cycles");
        }
    }

    /**
     * Connected pairs (two unless said) and their regions, each client connection having heard from its peer
     * once (so that no silent-peer nudge, {@link StreamDriver#SILENT_PEER_NUDGE_NANOS}, makes it
     * talk in the measured window), then more than {@link Schedule#QUIET_AFTER_NANOS} of
     * silence both ways.
     */
    private static final class Regions {
        final ManyConnections m;
        final MemoryRegion src;
        final MemoryRegion dst;
        final MemoryRegion inbox;
        final MemoryRegion note;

        Regions(ManyConnections m) throws InterruptedException {
            this(m, 2);
        }

        Regions(ManyConnections m, int pairs) throws InterruptedException {
            this.m = m;
            m.connect(pairs);
            src = m.clientPd.registerMemory(java.lang.foreign.Arena.ofAuto().allocate(64), Access.LOCAL_WRITE);
            dst = m.serverPd.registerMemory(java.lang.foreign.Arena.ofAuto().allocate(64),
                    Access.LOCAL_WRITE | Access.REMOTE_WRITE);
            inbox = m.clientPd.registerMemory(java.lang.foreign.Arena.ofAuto().allocate(64),
                    Access.LOCAL_WRITE | Access.REMOTE_WRITE);
            note = m.serverPd.registerMemory(java.lang.foreign.Arena.ofAuto().allocate(64), Access.LOCAL_WRITE);
            for (int i = 0; i < pairs; i++) {
                assertEquals(PostStatus.OK, m.serverQps.get(i).postSend(noteTo(i, (byte) (i + 1))));
                awaitByte(m, inbox, i, (byte) (i + 1));
            }
            long quietFrom = System.nanoTime() + 5 * Schedule.QUIET_AFTER_NANOS;
            while (System.nanoTime() - quietFrom < 0) {
                m.client.invoke();
            }
        }

        /** An 8-byte WRITE from the client into the server's region. */
        SendWr write() {
            return new SendWr().opcode(WrOpcode.RDMA_WRITE).signaled(false).addSge(src, 0, 8)
                    .remote(dst.iova(), dst.rkey());
        }

        /**
         * The server WRITEs {@code value} into the client's inbox at {@code at} and waits until it
         * has left (its completion): from then on, how soon it is placed is the client's doing.
         */
        void sendNote(int at, byte value) {
            assertEquals(PostStatus.OK, m.serverQps.get(at).postSend(noteTo(at, value).wrId(at).signaled(true)));
            WorkCompletion wc = next(m.serverCq());
            assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString());
        }

        /** A 1-byte WRITE of {@code value} from the server into the client's inbox at {@code at}. */
        SendWr noteTo(int at, byte value) {
            note.segment().set(java.lang.foreign.ValueLayout.JAVA_BYTE, at, value);
            return new SendWr().opcode(WrOpcode.RDMA_WRITE).signaled(false).addSge(note, at, 1)
                    .remote(inbox.iova() + at, inbox.rkey());
        }
    }

    /** Runs the client's duty cycle until {@code inbox[at] == value}; returns the cycles it took. */
    private static int awaitByte(ManyConnections m, MemoryRegion inbox, int at, byte value) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        int cycles = 0;
        while (inbox.segment().get(java.lang.foreign.ValueLayout.JAVA_BYTE, at) != value) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("byte " + at + " not placed after " + cycles + " cycles");
            }
            m.client.invoke();
            cycles++;
        }
        return cycles;
    }

    private static long[] serverReads(List<QueuePair> qps) {
        long[] r = new long[qps.size()];
        for (int i = 0; i < r.length; i++) {
            r[i] = qps.get(i).counters().get(CounterNames.SOCKET_READS);
        }
        return r;
    }

    private static WorkCompletion next(CompletionQueue cq) {
        WorkCompletion[] wcs = {new WorkCompletion()};
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (cq.poll(wcs, 1) == 0) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no completion within " + WAIT);
            }
            Thread.onSpinWait();
        }
        return wcs[0];
    }

    @Test
    void readsFollowingReadinessStayByteExact() throws Exception {
        DeviceConfig config = SuiteConfig.withJwarp(LoopbackPair.dedicated(), j -> j.readinessFrom(1));
        try (LoopbackPair p = new LoopbackPair(config, config, new byte[0], new byte[0])) {
            MemoryRegion src = p.client.register(300_000, Access.LOCAL_WRITE);
            MemoryRegion back = p.client.register(300_000, Access.LOCAL_WRITE);
            MemoryRegion dst = p.server.register(300_000, Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ);
            byte[] pattern = new byte[300_000];
            new Random(11).nextBytes(pattern);
            src.segment().copyFrom(MemorySegment.ofArray(pattern));
            for (int size : new int[] {1, 64, 4096, 65_536, 300_000}) {
                dst.segment().fill((byte) 0);
                back.segment().fill((byte) 0);
                assertEquals(PostStatus.OK, p.client.qp.postSend(new SendWr().wrId(1).opcode(WrOpcode.RDMA_WRITE)
                        .signaled(true).addSge(src, 0, size).remote(dst.iova(), dst.rkey())));
                assertEquals(WcStatus.SUCCESS, p.client.next().status());
                assertEquals(PostStatus.OK, p.client.qp.postSend(new SendWr().wrId(2).opcode(WrOpcode.RDMA_READ)
                        .signaled(true).addSge(back, 0, size).remote(dst.iova(), dst.rkey())));
                assertEquals(WcStatus.SUCCESS, p.client.next().status());
                assertEquals(-1, back.segment().asSlice(0, size).mismatch(src.segment().asSlice(0, size)),
                        size + " B read back");
                assertEquals(-1, dst.segment().asSlice(0, size).mismatch(src.segment().asSlice(0, size)),
                        size + " B placed");
            }
        }
    }
}
