package org.jwarp.bench.transport.jwarp;

import java.util.List;
import org.jwarp.verbs.DeviceConfig;

/**
 * How one side's jwarp device is opened: local choices, not sent to the peer.
 *
 * @param threading          who runs the engine
 * @param engineThreads      engine threads in dedicated mode
 * @param idle               what an idle engine thread does
 * @param crc                MPA CRC on (we ask for it) or off (we do not; it is on if the peer asks)
 * @param markers            MPA markers: ask the peer to send them
 * @param engineCpus         CPUs to pin the engine threads to (empty: not pinned)
 * @param allowOversubscribe more busy-spinning engine threads than processors, because the user asked
 * @param yieldWhenIdle      a busy-polling application thread yields its CPU on each idle turn instead
 *                           of spinning: when the run has more busy threads than CPUs (or pins two to
 *                           one CPU), a spinner would otherwise hold the CPU the thread it waits for
 *                           needs, for a scheduler tick (~4 ms) per hand-off. Also used by the
 *                           sockets busy-poll transport.
 */
public record JwarpOptions(DeviceConfig.ThreadingMode threading, int engineThreads,
                           DeviceConfig.IdleStrategyKind idle, boolean crc, boolean markers, List<Integer> engineCpus,
                           boolean allowOversubscribe, boolean yieldWhenIdle) {

    public JwarpOptions {
        engineCpus = List.copyOf(engineCpus);
    }

    /** The device defaults of this machine. */
    public static JwarpOptions defaults() {
        DeviceConfig d = DeviceConfig.defaults();
        return new JwarpOptions(d.threadingMode(), d.engineThreads(), d.idleStrategy(), true, false, List.of(), false,
                false);
    }

    public JwarpOptions withEngineCpus(List<Integer> cpus) {
        return new JwarpOptions(threading, engineThreads, idle, crc, markers, cpus, allowOversubscribe, yieldWhenIdle);
    }

    public JwarpOptions withYieldWhenIdle(boolean yield) {
        return new JwarpOptions(threading, engineThreads, idle, crc, markers, engineCpus, allowOversubscribe, yield);
    }

    public int threadCount() {
        return threading == DeviceConfig.ThreadingMode.DEDICATED ? engineThreads : 0;
    }

    /** The device configuration. */
    public DeviceConfig toConfig() {
        DeviceConfig.Builder b = DeviceConfig.builder()
                .threadingMode(threading)
                .engineThreads(threading == DeviceConfig.ThreadingMode.DEDICATED ? engineThreads : 1)
                .idleStrategy(idle)
                .crcPolicy(crc ? DeviceConfig.CrcPolicy.PREFERRED : DeviceConfig.CrcPolicy.OFF)
                .markerPolicy(markers ? DeviceConfig.MarkerPolicy.REQUEST : DeviceConfig.MarkerPolicy.NEVER_REQUEST);
        if (threading == DeviceConfig.ThreadingMode.DEDICATED && !engineCpus.isEmpty()) {
            b.cpuList(engineCpus.subList(0, Math.min(engineCpus.size(), engineThreads)));
        }
        if (allowOversubscribe) {
            // the user asked for it (and was warned): lift the spinner rule
            b.availableProcessors(Math.max(Runtime.getRuntime().availableProcessors(), engineThreads));
        }
        return b.build();
    }

    /** One line for the header. */
    public String describe() {
        if (threading == DeviceConfig.ThreadingMode.INVOKER) {
            return "invoker (the application thread runs the engine), idle " + idle.name().toLowerCase();
        }
        if (threading == DeviceConfig.ThreadingMode.HYBRID) {
            return "hybrid (the polling application thread runs the engine; a standby engine thread, asleep in its"
                    + " selector, takes over when it stops)";
        }
        return "dedicated, " + engineThreads + " engine thread" + (engineThreads == 1 ? "" : "s") + " per device, idle "
                + idle.name().toLowerCase();
    }
}
