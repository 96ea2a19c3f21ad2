package org.jwarp.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.jwarp.verbs.DeviceConfig.CrcPolicy;
import org.jwarp.verbs.DeviceConfig.IdleStrategyKind;
import org.jwarp.verbs.DeviceConfig.MarkerPolicy;
import org.jwarp.verbs.DeviceConfig.RtrKind;
import org.jwarp.verbs.DeviceConfig.ThreadingMode;
import org.junit.jupiter.api.Test;

class DeviceConfigTest {

    @Test
    void defaultsOnTwoCores() {
        DeviceConfig c = DeviceConfig.builder().availableProcessors(2).build();
        assertNull(c.providerName());
        // a dedicated engine thread beside a polling application thread: two spinners per process,
        // and two such processes on 2 CPUs hand over only at scheduler ticks
        assertEquals(ThreadingMode.HYBRID, c.threadingMode());
        assertEquals(1, c.engineThreads());
        assertEquals(IdleStrategyKind.ADAPTIVE, c.idleStrategy());
        assertEquals(0, c.spinningThreads());
        assertEquals(CrcPolicy.PREFERRED, c.crcPolicy());
        assertEquals(MarkerPolicy.NEVER_REQUEST, c.markerPolicy());
        assertEquals(2, c.mpaRevision());
        assertTrue(c.peerToPeer());
        assertEquals(EnumSet.of(RtrKind.WRITE, RtrKind.READ), c.rtrKinds());
        assertEquals(MpaTimeouts.DEFAULT, c.mpaTimeouts());
        assertEquals(DeviceLimits.DEFAULT, c.limits());
        assertTrue(c.rfc7306());
        assertTrue(c.cpuList().isEmpty());
    }

    @Test
    void fewerThanFourCoresDefaultToHybridMode() {
        for (int cores = 1; cores < DeviceConfig.DEDICATED_FROM_PROCESSORS; cores++) {
            DeviceConfig c = DeviceConfig.builder().availableProcessors(cores).build();
            assertEquals(ThreadingMode.HYBRID, c.threadingMode(), cores + " cores");
            assertEquals(0, c.spinningThreads());
            assertTrue(DeviceConfig.defaultThreadingReason(cores).contains("standby"), cores + " cores");
        }
    }

    @Test
    void fourCoresDefaultToOneDedicatedEngineThread() {
        DeviceConfig c = DeviceConfig.builder().availableProcessors(4).build();
        assertEquals(ThreadingMode.DEDICATED, c.threadingMode());
        assertEquals(1, c.engineThreads());
        assertEquals(IdleStrategyKind.ADAPTIVE, c.idleStrategy());
        assertEquals(0, c.spinningThreads());
    }

    @Test
    void hybridModeRunsOneDutyCycleAndPinsNothing() {
        assertThrows(IllegalArgumentException.class, () -> DeviceConfig.builder().availableProcessors(2)
                .threadingMode(ThreadingMode.HYBRID).engineThreads(2).build());
        assertThrows(IllegalArgumentException.class, () -> DeviceConfig.builder().availableProcessors(2)
                .threadingMode(ThreadingMode.HYBRID).cpuList(List.of(0)).build());
    }

    @Test
    void defaultsNeverSpinOnAnyCoreCount() {
        for (int cores = 1; cores <= 256; cores++) {
            DeviceConfig c = DeviceConfig.builder().availableProcessors(cores).build();
            assertEquals(0, c.spinningThreads(), cores + " cores");
            assertTrue(c.spinningThreads() <= cores);
        }
    }

    @Test
    void refusesMoreSpinnersThanCores() {
        DeviceConfig.Builder b = DeviceConfig.builder().availableProcessors(2)
                .threadingMode(ThreadingMode.DEDICATED).idleStrategy(IdleStrategyKind.SPIN);
        assertEquals(2, b.engineThreads(2).build().spinningThreads());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> b.engineThreads(3).build());
        assertTrue(e.getMessage().contains("3 busy-spinning engine threads on 2 processors"), e.getMessage());
        // The same thread count is fine when it does not spin.
        assertEquals(0, b.engineThreads(3).idleStrategy(IdleStrategyKind.PARK).build().spinningThreads());
        // INVOKER mode never starts a spinner.
        DeviceConfig inv = DeviceConfig.builder().availableProcessors(1).threadingMode(ThreadingMode.INVOKER)
                .idleStrategy(IdleStrategyKind.SPIN).build();
        assertEquals(0, inv.spinningThreads());
        assertThrows(IllegalArgumentException.class, () -> inv.toBuilder().threadingMode(ThreadingMode.DEDICATED)
                .availableProcessors(1).engineThreads(2).build());
    }

    @Test
    void validatesThreadsAndPinning() {
        assertThrows(IllegalArgumentException.class, () -> DeviceConfig.builder().availableProcessors(4)
                .threadingMode(ThreadingMode.INVOKER).engineThreads(2).build());
        assertThrows(IllegalArgumentException.class, () -> DeviceConfig.builder().availableProcessors(4)
                .threadingMode(ThreadingMode.INVOKER).cpuList(List.of(1)).build());
        assertThrows(IllegalArgumentException.class, () -> DeviceConfig.builder().availableProcessors(4)
                .engineThreads(DeviceConfig.MAX_ENGINE_THREADS + 1).build());
        assertThrows(IllegalArgumentException.class, () -> DeviceConfig.builder().availableProcessors(4)
                .engineThreads(-1).build());
        assertThrows(IllegalArgumentException.class, () -> DeviceConfig.builder().availableProcessors(4)
                .engineThreads(2).cpuList(List.of(1)).build());
        assertThrows(IllegalArgumentException.class, () -> DeviceConfig.builder().availableProcessors(4)
                .cpuList(List.of(1, 1)).build());
        assertThrows(IllegalArgumentException.class, () -> DeviceConfig.builder().availableProcessors(4)
                .cpuList(List.of(-1)).build());
        DeviceConfig pinned = DeviceConfig.builder().availableProcessors(4).engineThreads(2).cpuList(List.of(2, 3)).build();
        assertEquals(List.of(2, 3), pinned.cpuList());
        assertThrows(IllegalArgumentException.class, () -> DeviceConfig.builder().availableProcessors(0));
        assertThrows(IllegalArgumentException.class, () -> DeviceConfig.builder().providerName(" ").build());
    }

    @Test
    void validatesMpaSettings() {
        assertThrows(IllegalArgumentException.class, () -> DeviceConfig.builder().availableProcessors(2)
                .mpaRevision(3).build());
        DeviceConfig v1 = DeviceConfig.builder().availableProcessors(2).mpaRevision(1).build();
        assertFalse(v1.peerToPeer());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> v1.toBuilder()
                .availableProcessors(2).peerToPeer(true).build());
        assertTrue(e.getMessage().contains("RFC 6581"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> DeviceConfig.builder().availableProcessors(2)
                .rtrKinds(Set.of()).build());
        assertTrue(DeviceConfig.builder().availableProcessors(2).peerToPeer(false).rtrKinds(Set.of()).build()
                .rtrKinds().isEmpty());
        assertThrows(IllegalArgumentException.class, () -> DeviceConfig.builder().availableProcessors(2)
                .crcPolicy(null).build());
    }

    @Test
    void copiesCollectionsDefensively() {
        Set<RtrKind> kinds = EnumSet.of(RtrKind.READ);
        List<Integer> cpus = new java.util.ArrayList<>(List.of(0));
        DeviceConfig c = DeviceConfig.builder().availableProcessors(4).rtrKinds(kinds).cpuList(cpus).build();
        kinds.add(RtrKind.SEND);
        cpus.add(1);
        assertEquals(Set.of(RtrKind.READ), c.rtrKinds());
        assertEquals(List.of(0), c.cpuList());
        assertThrows(UnsupportedOperationException.class, () -> c.cpuList().add(5));
    }

    @Test
    void toBuilderRoundTrips() {
        DeviceConfig c = DeviceConfig.builder().availableProcessors(8).providerName("x").engineThreads(3)
                .idleStrategy(IdleStrategyKind.PARK).crcPolicy(CrcPolicy.REQUIRED).markerPolicy(MarkerPolicy.REQUEST)
                .rfc7306(false).limits(DeviceLimits.DEFAULT.withMaxQps(7)).build();
        assertEquals(c, c.toBuilder().availableProcessors(8).build());
    }

    @Test
    void limitsValidate() {
        DeviceLimits d = DeviceLimits.DEFAULT;
        assertEquals(128, d.maxOrd());
        assertThrows(IllegalArgumentException.class, () -> d.withMaxQps(0));
        assertThrows(IllegalArgumentException.class, () -> d.withMaxMrs(Stag.MAX_INDEX + 1));
        assertThrows(IllegalArgumentException.class, () -> d.withMaxMrSize(0));
        assertThrows(IllegalArgumentException.class, () -> d.withMaxSge(0x10000));
        assertThrows(IllegalArgumentException.class, () -> d.withMaxInline(-1));
        assertThrows(IllegalArgumentException.class, () -> d.withMaxOrd(DeviceLimits.ORD_IRD_NO_NEGOTIATION));
        assertThrows(IllegalArgumentException.class, () -> d.withMaxIrd(-1));
        assertEquals(0, d.withMaxOrd(0).maxOrd());
        assertEquals(0x3FFE, d.withMaxIrd(0x3FFE).maxIrd());
    }

    @Test
    void timeoutsAndBackoffValidate() {
        Duration s = Duration.ofSeconds(1);
        assertThrows(IllegalArgumentException.class, () -> new MpaTimeouts(Duration.ZERO, s, s, s));
        assertThrows(IllegalArgumentException.class, () -> new MpaTimeouts(s, s, null, s));
        assertThrows(IllegalArgumentException.class, () -> new MpaTimeouts(s, s, s, Duration.ofMillis(-1)));
        assertEquals(Duration.ofSeconds(10), MpaTimeouts.DEFAULT.awaitReply());
        assertEquals(Duration.ofSeconds(5), MpaTimeouts.DEFAULT.awaitRequest());
        assertThrows(IllegalArgumentException.class, () -> new DeviceConfig.Backoff(-1, 0, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> new DeviceConfig.Backoff(1, 1, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> new DeviceConfig.Backoff(1, 1, 10, 5));
    }
}
