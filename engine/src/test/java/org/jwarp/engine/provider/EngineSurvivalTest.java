package org.jwarp.engine.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.CmEvent;
import org.jwarp.verbs.CmEventQueue;
import org.jwarp.verbs.CompletionQueue;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.MemoryRegion;
import org.jwarp.verbs.PostStatus;
import org.jwarp.verbs.ProtectionDomain;
import org.jwarp.verbs.QpState;
import org.jwarp.verbs.QueuePair;
import org.jwarp.verbs.RdmaDevice;
import org.jwarp.verbs.SendWr;
import org.jwarp.verbs.WcStatus;
import org.jwarp.verbs.WorkCompletion;
import org.jwarp.verbs.WrOpcode;
import org.junit.jupiter.api.Test;

/**
 * An application that frees a region's memory while a peer still writes into it (as an rping
 * server that refused a client did) costs that connection, not the engine thread: the other
 * connection on the same engine thread keeps moving verified data. A failure that escapes a
 * connection's work anyway ends that connection (or, escaping the duty cycle, the engine thread's)
 * and is reported with its cause.
 */
class EngineSurvivalTest {

    static final Duration WAIT = Duration.ofSeconds(20);
    static final int SIZE = 64 * 1024;

    @Test
    void memoryFreedUnderARegionEndsOnlyThatConnection() throws Exception {
        try (DevicePair d = new DevicePair(1024); CapturedErr log = new CapturedErr()) {
            RdmaDevice client = d.client;
            RdmaDevice server = d.server;
            ProtectionDomain spd = d.spd;
            ProtectionDomain cpd = d.cpd;
            CompletionQueue ccq = d.ccq;
            CmEventQueue sevents = d.serverEvents;
            DevicePair.Connected[] pairs = {d.connect(), d.connect()};    // both on the one engine thread
            QueuePair[] sqp = {pairs[0].server(), pairs[1].server()};
            QueuePair[] cqp = {pairs[0].client(), pairs[1].client()};
            CmEventQueue[] cevents = {pairs[0].clientEvents(), pairs[1].clientEvents()};
            Arena keep = d.arena;
            Arena doomed = Arena.ofShared();
            MemoryRegion victim = spd.registerMemory(doomed.allocate(SIZE, 64), Access.LOCAL_WRITE | Access.REMOTE_WRITE);
            MemoryRegion healthy = spd.registerMemory(keep.allocate(SIZE, 64),
                    Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ);
            MemoryRegion back = cpd.registerMemory(keep.allocate(SIZE, 64), Access.LOCAL_WRITE);
            MemoryRegion source = cpd.registerMemory(keep.allocate(SIZE, 64), Access.LOCAL_WRITE);
            for (int i = 0; i < SIZE; i++) {
                source.segment().set(ValueLayout.JAVA_BYTE, i, (byte) (i * 7 + 1));
            }
            SendWr toVictim = new SendWr().opcode(WrOpcode.RDMA_WRITE).addSge(source, 0, SIZE)
                    .remote(victim.iova(), victim.rkey());
            // WRITEs into the victim until the arena closes under them; the engine must survive it
            int posted = 0;
            while (posted < 50) {
                if (cqp[0].postSend(toVictim.wrId(posted)) == PostStatus.OK) {
                    posted++;
                }
                if (posted == 10) {
                    closeWhileInUse(doomed); // the application frees the memory, region still registered
                }
                drain(ccq);
            }
            CmEvent ended = cevents[0].poll(WAIT, client);
            assertNotNull(ended, "the connection whose region memory went away must end");
            CmEvent serverSide = DevicePair.expect(sevents, CmEvent.Disconnected.class, server);
            assertSame(sqp[0], serverSide.qp(), "the server's victim connection ended, not the other");
            assertEquals(QpState.ERROR, sqp[0].state());
            // the other connection on the same engine thread carries on
            WorkCompletion wc = new WorkCompletion();
            while (drainOne(ccq, wc)) {
                // completions of the victim connection (success or flush)
            }
            assertEquals(PostStatus.OK, cqp[1].postSend(new SendWr().wrId(99).opcode(WrOpcode.RDMA_WRITE)
                    .signaled(true).addSge(source, 0, SIZE).remote(healthy.iova(), healthy.rkey())));
            long deadline = System.nanoTime() + WAIT.toNanos();
            boolean done = false;
            while (!done && System.nanoTime() < deadline) {
                if (drainOne(ccq, wc) && wc.wrId() == 99) {
                    assertSame(WcStatus.SUCCESS, wc.status(), wc.toString());
                    done = true;
                }
            }
            assertTrue(done, "the healthy connection's WRITE completed");
            // a WRITE's completion says it left; RFC 5040 §5.5: a READ after it returns what it placed
            assertEquals(PostStatus.OK, cqp[1].postSend(new SendWr().wrId(100).opcode(WrOpcode.RDMA_READ)
                    .signaled(true).addSge(back, 0, SIZE).remote(healthy.iova(), healthy.rkey())));
            done = false;
            while (!done && System.nanoTime() < deadline) {
                if (drainOne(ccq, wc) && wc.wrId() == 100) {
                    assertSame(WcStatus.SUCCESS, wc.status(), wc.toString());
                    done = true;
                }
            }
            assertTrue(done, "the healthy connection's READ completed");
            assertEquals(-1, back.segment().mismatch(source.segment()), "the WRITE's bytes arrived and came back");
            // freed memory is bad input, not an engine failure: a Terminate, no report of a bug
            // (FreedMemoryTest checks the Terminate and the completions in every direction)
            assertTrue(!log.text().contains("failed on the engine thread"), log.text());
        }
    }

    @Test
    void aRegionDeregisteredBeforeItsMemoryIsFreedEndsTheWritesWithATerminateNotAFailure() throws Exception {
        try (LoopbackPair p = oneEnginePair(); Arena keep = Arena.ofShared(); CapturedErr log = new CapturedErr()) {
            Arena doomed = Arena.ofShared();
            MemoryRegion victim = p.server.pd.registerMemory(doomed.allocate(SIZE, 64),
                    Access.LOCAL_WRITE | Access.REMOTE_WRITE);
            MemoryRegion source = p.client.pd.registerMemory(keep.allocate(SIZE, 64), Access.LOCAL_WRITE);
            SendWr w = new SendWr().opcode(WrOpcode.RDMA_WRITE).addSge(source, 0, SIZE)
                    .remote(victim.iova(), victim.rkey());
            int posted = 0;
            while (posted < 40) {
                if (p.client.qp.postSend(w.wrId(posted)) == PostStatus.OK) {
                    posted++;
                }
                if (posted == 10) {
                    victim.deregister();     // returns once the engine no longer touches the memory
                    doomed.close();
                }
                drain(p.client.cq);
            }
            CmEvent ended = p.client.events.poll(WAIT, p.client.device);
            // the peer's Terminate arrives just before its close: whichever the event names, it
            // carries the Terminate's error
            assertTrue(ended instanceof CmEvent.Disconnected d && d.terminate() != 0,
                    "the later WRITEs name an invalid STag and get a Terminate: " + ended);
            assertTrue(!log.text().contains("failed on the engine thread"), log.text());
        }
    }

    @Test
    void anEngineThreadThatDiesAnywayEndsItsConnectionsFlushesTheirWorkAndSaysSo() throws Exception {
        try (LoopbackPair p = oneEnginePair(); Arena keep = Arena.ofShared(); CapturedErr log = new CapturedErr()) {
            MemoryRegion inbox = p.client.pd.registerMemory(keep.allocate(4096, 64), Access.LOCAL_WRITE);
            for (int r = 0; r < 3; r++) {
                assertEquals(PostStatus.OK, p.client.qp.postRecv(new org.jwarp.verbs.RecvWr().wrId(70 + r)
                        .addSge(inbox, r * 1024L, 1024)));
            }
            // what the per-connection guard does not catch: an Error escaping the duty cycle itself
            ((JwarpQp) p.client.qp).worker().execute(() -> {
                throw new AssertionError("injected engine failure");
            });
            CmEvent ended = p.client.events.poll(WAIT, p.client.device);
            assertTrue(ended instanceof CmEvent.Disconnected, "the dead engine's connection ends: " + ended);
            java.util.Set<Long> flushed = new java.util.HashSet<>();
            long deadline = System.nanoTime() + WAIT.toNanos();
            WorkCompletion wc = new WorkCompletion();
            while (flushed.size() < 3 && System.nanoTime() < deadline) {
                if (drainOne(p.client.cq, wc)) {
                    assertSame(WcStatus.WR_FLUSH_ERR, wc.status(), wc.toString());
                    assertTrue(flushed.add(wc.wrId()), "flushed twice: " + wc);
                }
            }
            assertEquals(java.util.Set.of(70L, 71L, 72L), flushed, "every posted receive is flushed once");
            assertTrue(p.client.device.failure().isPresent(), "the device reports the fatal failure");
            assertTrue(p.client.device.failure().get().toString().contains("jwarp-engine-0"),
                    p.client.device.failure().get().toString());
            assertTrue(log.text().contains("injected engine failure"), log.text());
            // nothing new is taken that no engine would carry out: posts say so, connects and listens throw
            assertEquals(PostStatus.DEVICE_FATAL, PostStatus.code(p.client.qp.postRecv(
                    new org.jwarp.verbs.RecvWr().wrId(80).addSge(inbox, 0, 1024))));
            assertEquals(PostStatus.DEVICE_FATAL, PostStatus.code(p.client.qp.postSend(new org.jwarp.verbs.SendWr()
                    .wrId(81).opcode(org.jwarp.verbs.WrOpcode.SEND).addSge(inbox, 0, 8))));
            var fresh = p.client.device.createQp(p.client.pd, p.client.qp.initAttr());
            IllegalStateException refused = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                    () -> p.client.device.connectionManager().connect(p.listener.localAddress(), fresh,
                            org.jwarp.verbs.ConnectParams.of(new byte[0]), p.client.events));
            assertTrue(refused.getMessage().contains("the device failed"), refused.getMessage());
            // closing the device rethrows the engine's failure, once; the pair then closes the rest
            org.jwarp.engine.agent.AgentFailedException closing = org.junit.jupiter.api.Assertions.assertThrows(
                    org.jwarp.engine.agent.AgentFailedException.class, p.client.device::close);
            assertTrue(closing.toString().contains("jwarp-engine-0"), closing.toString());
        }
    }

    /** Two devices of one dedicated engine thread each, connected. */
    private static LoopbackPair oneEnginePair() throws InterruptedException {
        DeviceConfig oneEngine = DeviceConfig.builder().provider(SuiteConfig.jwarp()
                .threadingMode(JwarpConfig.ThreadingMode.DEDICATED).engineThreads(1).build()).build();
        return new LoopbackPair(oneEngine, oneEngine, new byte[0], new byte[0]);
    }

    /** Standard error, where the engine reports failures, captured until closed. */
    private static final class CapturedErr implements AutoCloseable {
        private final ByteArrayOutputStream log = new ByteArrayOutputStream();
        private final PrintStream saved = System.err;

        CapturedErr() {
            System.setErr(new PrintStream(log, true));
        }

        String text() {
            return log.toString();
        }

        @Override
        public void close() {
            System.setErr(saved);
        }
    }

    /**
     * Closes a shared arena that the engine may be reading into at this moment: such a close is
     * refused while an I/O call holds the memory, so it is tried again until the call let go.
     */
    private static void closeWhileInUse(Arena arena) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (true) {
            try {
                arena.close();
                return;
            } catch (IllegalStateException held) {
                assertTrue(System.nanoTime() < deadline, "the arena stayed in use: " + held);
                Thread.onSpinWait();
            }
        }
    }

    private static void drain(CompletionQueue cq) {
        WorkCompletion wc = new WorkCompletion();
        while (drainOne(cq, wc)) {
            // only freeing send-queue room
        }
    }

    private static boolean drainOne(CompletionQueue cq, WorkCompletion wc) {
        WorkCompletion[] one = {wc};
        return cq.poll(one) == 1;
    }

}
