package org.jwarp.engine.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
import org.jwarp.engine.counters.EngineCounters;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.MemoryRegion;
import org.jwarp.verbs.PostStatus;
import org.jwarp.verbs.RdmaDevice;
import org.jwarp.verbs.SendWr;
import org.jwarp.verbs.WcStatus;
import org.jwarp.verbs.WorkCompletion;
import org.jwarp.verbs.WrOpcode;
import org.junit.jupiter.api.Test;

/**
 * An idle dedicated engine thread (the default adaptive idle strategy) sleeps in its selector
 * until a post, a socket or a timer wakes it, instead of waking every {@code maxParkNanos} (1 ms):
 * with nothing to do, a device costs no wake-ups. A connection whose setup timers have ended
 * counts as nothing to do, and a post on it still leaves at once.
 */
class IdleEngineTest {

    /** Parks in one window that only a woken-every-millisecond engine exceeds (it makes about 300). */
    private static final long FEW_PARKS = 15;
    private static final long WINDOW_MILLIS = 300;
    private static final long SETTLE_NANOS = 10_000_000_000L;

    @Test
    void anIdleEngineSleepsUntilSomethingWakesIt() throws Exception {
        DeviceConfig config = DeviceConfig.builder().provider(SuiteConfig.jwarp()
                .threadingMode(JwarpConfig.ThreadingMode.DEDICATED).engineThreads(1).build()).build();
        assertEquals(JwarpConfig.IdleStrategyKind.ADAPTIVE, JwarpConfig.of(config).idleStrategy(),
                "the default this is about");
        try (RdmaDevice lone = RdmaDevice.open(config)) {
            assertTrue(settlesToFewParks(lone), "a device without connections kept waking");
        }
        try (LoopbackPair p = new LoopbackPair(config, config, new byte[0], new byte[0]);
             Arena arena = Arena.ofShared()) {
            // the initiator watches for a silent responder (StreamDriver.SILENT_PEER_NUDGE_NANOS)
            // until it has heard from it: a WRITE each way ends every timer
            MemoryRegion clientMr = p.client.pd.registerMemory(arena.allocate(64), Access.LOCAL_WRITE | Access.REMOTE_WRITE);
            MemoryRegion serverMr = p.server.pd.registerMemory(arena.allocate(64), Access.LOCAL_WRITE | Access.REMOTE_WRITE);
            write(p.client, clientMr, serverMr, (byte) 1);
            write(p.server, serverMr, clientMr, (byte) 2);
            assertTrue(settlesToFewParks(p.client.device), "the client's engine kept waking with a quiet connection");
            assertTrue(settlesToFewParks(p.server.device), "the server's engine kept waking with a quiet connection");
            // asleep, the engine still sends a post at once and places what arrives
            write(p.client, clientMr, serverMr, (byte) 3);
            assertEquals(3, serverMr.segment().get(ValueLayout.JAVA_BYTE, 0));
        }
    }

    /** WRITEs {@code value} from {@code from} into {@code to}, awaits its completion and its arrival. */
    private static void write(LoopbackPair.End end, MemoryRegion from, MemoryRegion to, byte value) {
        from.segment().set(ValueLayout.JAVA_BYTE, 0, value);
        assertEquals(PostStatus.OK, end.qp.postSend(new SendWr().wrId(value).opcode(WrOpcode.RDMA_WRITE).signaled(true)
                .addSge(from, 0, 1).remote(to.iova(), to.rkey())));
        WorkCompletion wc = end.next();
        assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString());
        long deadline = System.nanoTime() + LoopbackPair.WAIT.toNanos();
        while (to.segment().get(ValueLayout.JAVA_BYTE, 0) != value) {
            assertTrue(System.nanoTime() - deadline < 0, "the WRITE did not arrive");
            Thread.onSpinWait();
        }
    }

    /** Whether, within the settle time, one window passes with few parks of the device's engine. */
    private static boolean settlesToFewParks(RdmaDevice device) throws InterruptedException {
        long deadline = System.nanoTime() + SETTLE_NANOS;
        while (System.nanoTime() - deadline < 0) {
            long before = parks(device);
            Thread.sleep(WINDOW_MILLIS);
            if (parks(device) - before <= FEW_PARKS) {
                return true;
            }
        }
        return false;
    }

    private static long parks(RdmaDevice device) {
        return device.engineCounters().getFirst().get(EngineCounters.IDLE_PARKS);
    }
}
