package org.jwarp.engine.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.jwarp.engine.provider.JwarpConfig.Backoff;
import org.jwarp.engine.provider.JwarpConfig.IdleStrategyKind;
import org.jwarp.engine.provider.JwarpConfig.SocketIo;
import org.jwarp.engine.provider.JwarpConfig.ThreadingMode;
import org.jwarp.engine.rss.RssConfig;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.RdmaDevice;
import org.jwarp.verbs.spi.ProviderConfig;

class JwarpConfigTest {

    @Test
    void defaultsOnTwoCores() {
        JwarpConfig c = JwarpConfig.builder().availableProcessors(2).build();
        // a dedicated engine thread beside a polling application thread: two spinners per process,
        // and two such processes on 2 CPUs hand over only at scheduler ticks
        assertEquals(ThreadingMode.HYBRID, c.threadingMode());
        assertEquals(1, c.engineThreads());
        assertEquals(IdleStrategyKind.ADAPTIVE, c.idleStrategy());
        assertEquals(Backoff.DEFAULT, c.backoff());
        assertEquals(0, c.spinningThreads());
        assertTrue(c.cpuList().isEmpty());
        assertEquals(RssConfig.DEFAULT, c.rss());
        assertFalse(c.numa());
        assertEquals(SocketIo.AUTO, c.socketIo());
        assertEquals(8, c.readinessFrom());
        assertEquals(32 * 1024, c.rxDirectFrom());
        assertEquals(JwarpProvider.NAME, c.providerName());
    }

    @Test
    void fewerThanFourCoresDefaultToHybridMode() {
        for (int cores = 1; cores < JwarpConfig.DEDICATED_FROM_PROCESSORS; cores++) {
            JwarpConfig c = JwarpConfig.builder().availableProcessors(cores).build();
            assertEquals(ThreadingMode.HYBRID, c.threadingMode(), cores + " cores");
            assertEquals(0, c.spinningThreads());
            assertTrue(JwarpConfig.defaultThreadingReason(cores).contains("standby"), cores + " cores");
        }
    }

    @Test
    void fourCoresDefaultToOneDedicatedEngineThread() {
        JwarpConfig c = JwarpConfig.builder().availableProcessors(4).build();
        assertEquals(ThreadingMode.DEDICATED, c.threadingMode());
        assertEquals(1, c.engineThreads());
        assertEquals(IdleStrategyKind.ADAPTIVE, c.idleStrategy());
        assertEquals(0, c.spinningThreads());
    }

    @Test
    void hybridModeRunsOneDutyCycleAndPinsOnlyItsStandby() {
        assertThrows(IllegalArgumentException.class, () -> JwarpConfig.builder().availableProcessors(2)
                .threadingMode(ThreadingMode.HYBRID).engineThreads(2).build());
        assertEquals(List.of(1), JwarpConfig.builder().availableProcessors(2)
                .threadingMode(ThreadingMode.HYBRID).cpuList(List.of(1)).build().cpuList());
        assertThrows(IllegalArgumentException.class, () -> JwarpConfig.builder().availableProcessors(2)
                .threadingMode(ThreadingMode.HYBRID).cpuList(List.of(0, 1)).build());
        assertThrows(IllegalArgumentException.class, () -> JwarpConfig.builder().availableProcessors(2)
                .threadingMode(ThreadingMode.HYBRID).numa(true).build());
    }

    @Test
    void defaultsNeverSpinOnAnyCoreCount() {
        for (int cores = 1; cores <= 256; cores++) {
            JwarpConfig c = JwarpConfig.builder().availableProcessors(cores).build();
            assertEquals(0, c.spinningThreads(), cores + " cores");
        }
    }

    @Test
    void refusesMoreSpinnersThanCores() {
        JwarpConfigBuilder b = JwarpConfig.builder().availableProcessors(2)
                .threadingMode(ThreadingMode.DEDICATED).idleStrategy(IdleStrategyKind.SPIN);
        assertEquals(2, b.engineThreads(2).build().spinningThreads());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> b.engineThreads(3).build());
        assertTrue(e.getMessage().contains("3 busy-spinning engine threads on 2 processors"), e.getMessage());
        // The same thread count is fine when it does not spin.
        assertEquals(0, b.engineThreads(3).idleStrategy(IdleStrategyKind.PARK).build().spinningThreads());
        // INVOKER mode never starts a spinner.
        JwarpConfig inv = JwarpConfig.builder().availableProcessors(1).threadingMode(ThreadingMode.INVOKER)
                .idleStrategy(IdleStrategyKind.SPIN).build();
        assertEquals(0, inv.spinningThreads());
        assertThrows(IllegalArgumentException.class, () -> inv.toBuilder().threadingMode(ThreadingMode.DEDICATED)
                .availableProcessors(1).engineThreads(2).build());
    }

    @Test
    void runBeforeSleepIsZeroByDefaultAndBounded() {
        assertEquals(0, JwarpConfig.builder().availableProcessors(2).build().runBeforeSleepNanos());
        assertEquals(100_000, JwarpConfig.builder().availableProcessors(2)
                .runBeforeSleep(Duration.ofNanos(100_000)).build().runBeforeSleepNanos());
        assertThrows(IllegalArgumentException.class, () -> JwarpConfig.builder().availableProcessors(2)
                .runBeforeSleep(Duration.ofNanos(-1)).build());
        assertThrows(IllegalArgumentException.class, () -> JwarpConfig.builder().availableProcessors(2)
                .runBeforeSleep(Duration.ofMillis(11)).build());
    }

    @Test
    void validatesThreadsAndPinning() {
        assertThrows(IllegalArgumentException.class, () -> JwarpConfig.builder().availableProcessors(4)
                .threadingMode(ThreadingMode.INVOKER).engineThreads(2).build());
        assertThrows(IllegalArgumentException.class, () -> JwarpConfig.builder().availableProcessors(4)
                .threadingMode(ThreadingMode.INVOKER).cpuList(List.of(1)).build());
        assertThrows(IllegalArgumentException.class, () -> JwarpConfig.builder().availableProcessors(4)
                .engineThreads(JwarpConfig.MAX_ENGINE_THREADS + 1).build());
        assertThrows(IllegalArgumentException.class, () -> JwarpConfig.builder().availableProcessors(4)
                .engineThreads(-1).build());
        assertThrows(IllegalArgumentException.class, () -> JwarpConfig.builder().availableProcessors(4)
                .engineThreads(2).cpuList(List.of(1)).build());
        assertThrows(IllegalArgumentException.class, () -> JwarpConfig.builder().availableProcessors(4)
                .cpuList(List.of(1, 1)).build());
        assertThrows(IllegalArgumentException.class, () -> JwarpConfig.builder().availableProcessors(4)
                .cpuList(List.of(-1)).build());
        JwarpConfig pinned = JwarpConfig.builder().availableProcessors(4).engineThreads(2).cpuList(List.of(2, 3))
                .build();
        assertEquals(List.of(2, 3), pinned.cpuList());
        assertThrows(IllegalArgumentException.class, () -> JwarpConfig.builder().availableProcessors(0));
        assertThrows(IllegalArgumentException.class, () -> JwarpConfig.builder().socketIo(null).build());
    }

    @Test
    void validatesTheReceivePathThresholds() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> JwarpConfig.builder().readinessFrom(0).build());
        assertEquals("readinessFrom must be at least 1 connection: 0", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> JwarpConfig.builder().rxDirectFrom(0).build());
        assertEquals(1, JwarpConfig.builder().readinessFrom(1).build().readinessFrom());
        assertEquals(JwarpConfig.NEVER_DIRECT, JwarpConfig.builder().rxDirectFrom(JwarpConfig.NEVER_DIRECT).build()
                .rxDirectFrom());
    }

    @Test
    void copiesTheCpuListDefensively() {
        List<Integer> cpus = new java.util.ArrayList<>(List.of(0));
        JwarpConfig c = JwarpConfig.builder().availableProcessors(4).cpuList(cpus).build();
        cpus.add(1);
        assertEquals(List.of(0), c.cpuList());
        assertThrows(UnsupportedOperationException.class, () -> c.cpuList().add(5));
    }

    @Test
    void toBuilderRoundTrips() {
        JwarpConfig c = JwarpConfig.builder().availableProcessors(8).threadingMode(ThreadingMode.DEDICATED)
                .engineThreads(3).idleStrategy(IdleStrategyKind.PARK).backoff(new Backoff(1, 2, 3, 4))
                .cpuList(List.of(4, 5, 6)).rss(RssConfig.DEFAULT.withTableSize(64)).socketIo(SocketIo.NIO)
                .readinessFrom(3).rxDirectFrom(4096).build();
        assertEquals(c, c.toBuilder().availableProcessors(8).build());
    }

    @Test
    void backoffValidates() {
        assertThrows(IllegalArgumentException.class, () -> new Backoff(-1, 0, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> new Backoff(1, 1, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> new Backoff(1, 1, 10, 5));
    }

    @Test
    void socketIoLayersHaveTheirCommandLineNames() {
        assertEquals(SocketIo.URING_SQPOLL, SocketIo.parse(" Uring-SQPoll "));
        assertEquals("uring-sqpoll", SocketIo.URING_SQPOLL.option());
        assertEquals(SocketIo.URING_DIRECT, SocketIo.parse("uring-direct"));
        assertEquals("uring-direct", SocketIo.URING_DIRECT.option());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SocketIo.parse("epoll"));
        assertEquals("unknown socket I/O layer 'epoll': use auto, syscalls, uring, uring-sqpoll, uring-direct or nio",
                e.getMessage());
    }

    /** Another provider's settings, as a second provider (kernel verbs, say) would have them. */
    private record OtherConfig(String providerName) implements ProviderConfig {
    }

    @Test
    void aDeviceConfigurationCarriesItAndNamesTheProvider() {
        JwarpConfig j = JwarpConfig.builder().availableProcessors(2).threadingMode(ThreadingMode.INVOKER).build();
        DeviceConfig c = DeviceConfig.builder().provider(j).build();
        assertEquals(JwarpProvider.NAME, c.providerName());
        assertSame(j, JwarpConfig.of(c));
        assertEquals(JwarpConfig.defaults(), JwarpConfig.of(DeviceConfig.defaults()));
    }

    @Test
    void theProviderRejectsAnotherProvidersConfiguration() {
        DeviceConfig foreign = DeviceConfig.builder().provider(new OtherConfig("kverbs")).build();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new JwarpProvider().open(foreign));
        assertEquals("the jwarp provider takes a JwarpConfig, not a " + OtherConfig.class.getName()
                + " (provider 'kverbs')", e.getMessage());
    }

    @Test
    void anOpenDeviceReportsTheSettingsItRunsWith() {
        try (RdmaDevice plain = RdmaDevice.open(DeviceConfig.defaults())) {
            JwarpDevice d = (JwarpDevice) plain;
            assertEquals(JwarpConfig.defaults(), d.jwarpConfig());
            assertSame(d.jwarpConfig(), d.config().providerConfig());
        }
        JwarpConfig invoker = SuiteConfig.jwarp().threadingMode(ThreadingMode.INVOKER).build();
        try (RdmaDevice d = RdmaDevice.open(DeviceConfig.builder().provider(invoker).build())) {
            assertSame(invoker, ((JwarpDevice) d).jwarpConfig());
            assertTrue(d.needsInvoke());
        }
        JwarpConfig hybrid = SuiteConfig.jwarp().threadingMode(ThreadingMode.HYBRID).build();
        try (RdmaDevice d = RdmaDevice.open(DeviceConfig.builder().provider(hybrid).build())) {
            assertFalse(d.needsInvoke(), "a standby engine thread runs it when no caller does");
        }
    }
}
