package org.jwarp.bench.transport.jwarp;

import java.util.List;
import org.jwarp.engine.provider.JwarpConfig;
import org.jwarp.engine.provider.JwarpConfigBuilder;
import org.jwarp.engine.rss.RssConfig;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.Moderation;

/**
 * How one side's jwarp device is opened: local choices, not sent to the peer.
 *
 * @param device             the device settings (MPA choices, and in its provider configuration the
 *                           engine's: threading, idle strategy), as the command's device options gave them
 * @param engineCpus         CPUs to pin the engine threads to (empty: not pinned)
 * @param allowOversubscribe more busy-spinning engine threads than processors, because the user asked
 * @param yieldWhenIdle      a busy-polling application thread yields its CPU on each idle turn instead
 *                           of spinning: when the run has more busy threads than CPUs (or pins two to
 *                           one CPU), a spinner would otherwise hold the CPU the thread it waits for
 *                           needs, for a scheduler tick (~4 ms) per hand-off. Also used by the
 *                           sockets busy-poll transport.
 */
public record JwarpOptions(DeviceConfig device, List<Integer> engineCpus, boolean allowOversubscribe,
                           boolean yieldWhenIdle, Moderation moderation) {

    public JwarpOptions {
        if (device == null || moderation == null) {
            throw new IllegalArgumentException("device settings and moderation must not be null");
        }
        engineCpus = List.copyOf(engineCpus);
    }

    /** Options whose completion events are not moderated ({@link Moderation#NONE}). */
    public JwarpOptions(DeviceConfig device, List<Integer> engineCpus, boolean allowOversubscribe,
                        boolean yieldWhenIdle) {
        this(device, engineCpus, allowOversubscribe, yieldWhenIdle, Moderation.NONE);
    }

    /** The device defaults of this machine. */
    public static JwarpOptions defaults() {
        return new JwarpOptions(DeviceConfig.defaults(), List.of(), false, false);
    }

    public JwarpOptions withEngineCpus(List<Integer> cpus) {
        return new JwarpOptions(device, cpus, allowOversubscribe, yieldWhenIdle, moderation);
    }

    public JwarpOptions withYieldWhenIdle(boolean yield) {
        return new JwarpOptions(device, engineCpus, allowOversubscribe, yield, moderation);
    }

    /**
     * {@return whether the device is jwarp's engine; else another provider (ibverbs: the kernel's
     * RDMA stack) opens it, which has no engine threads and takes none of the engine's settings}
     */
    public boolean engine() {
        String name = device.providerName();
        return name == null || name.equals(org.jwarp.verbs.spi.RdmaProviders.DEFAULT_PROVIDER_NAME);
    }

    /** {@return the engine's settings: the device's provider configuration, or the engine's defaults} */
    public JwarpConfig jwarp() {
        return engine() ? JwarpConfig.of(device) : JwarpConfig.defaults();
    }

    /**
     * {@return who runs the engine; another provider's device progresses by itself, as dedicated
     * engine threads do}
     */
    public JwarpConfig.ThreadingMode threading() {
        return engine() ? jwarp().threadingMode() : JwarpConfig.ThreadingMode.DEDICATED;
    }

    /** {@return the engine threads per device (none for another provider)} */
    public int engineThreads() {
        return engine() ? jwarp().engineThreads() : 0;
    }

    public JwarpConfig.IdleStrategyKind idle() {
        return jwarp().idleStrategy();
    }

    public int threadCount() {
        return threading() == JwarpConfig.ThreadingMode.DEDICATED ? engineThreads() : 0;
    }

    /** The device configuration, with the engine threads pinned where asked. */
    public DeviceConfig toConfig() {
        if (!engine()) {
            return device;
        }
        JwarpConfigBuilder j = jwarp().toBuilder();
        if (threading() == JwarpConfig.ThreadingMode.DEDICATED && !engineCpus.isEmpty()) {
            j.cpuList(engineCpus.subList(0, Math.min(engineCpus.size(), engineThreads())));
        } else if (threading() == JwarpConfig.ThreadingMode.HYBRID && !engineCpus.isEmpty()) {
            j.cpuList(engineCpus.subList(0, 1));   // the standby engine thread
        }
        if (allowOversubscribe) {
            // the user asked for it (and was warned): lift the spinner rule
            j.availableProcessors(Math.max(Runtime.getRuntime().availableProcessors(), engineThreads()));
        }
        return device.toBuilder().provider(j.build()).build();
    }

    /** One line for the header. */
    public String describe() {
        if (!engine()) {
            return "none: provider " + device.providerName() + " (" + (device.providerConfig() == null ? "its default device"
                    : device.providerConfig()) + "); the kernel's RDMA stack runs the connections";
        }
        String idle = ", idle " + idle().name().toLowerCase(java.util.Locale.ROOT);
        return switch (threading()) {
            case INVOKER -> "invoker (the application thread runs the engine)" + idle;
            case HYBRID -> "hybrid (the polling application thread runs the engine; a standby engine thread, asleep"
                    + " in its selector, takes over when it stops)" + idle;
            case DEDICATED -> "dedicated, " + engineThreads() + " engine thread" + (engineThreads() == 1 ? "" : "s")
                    + " per device" + idle + (jwarp().numa() ? ", placed over the NUMA nodes" : "")
                    + (engineThreads() > 1 ? ", " + describeRss() : "");
        };
    }

    /** How connections are spread over several engine threads. */
    private String describeRss() {
        RssConfig r = jwarp().rss();
        if (r.steering() != RssConfig.Steering.RSS) {
            return "steering " + (r.steering() == RssConfig.Steering.ONE ? "all on engine thread 0"
                    : "round robin");
        }
        return "RSS table " + r.tableSize() + (r.key().isEmpty() ? "" : ", own key") + ", rebalance "
                + r.rebalance().name().toLowerCase(java.util.Locale.ROOT)
                + (r.rebalance() == RssConfig.Rebalance.OFF ? ""
                : " every " + r.period().toMillis() + " ms" + (r.rebalance() == RssConfig.Rebalance.THRESHOLD
                ? " above " + r.threshold() + "x the average" : ""));
    }
}
