package org.jwarp.bench.experiment;

import org.jwarp.engine.provider.JwarpConfig;
import org.jwarp.verbs.DeviceConfig;

/**
 * The device seed 000's experiments run on: an engine thread of its own that sleeps in its
 * selector when idle, as the paper's RNIC works beside a busy host CPU. A spinning engine would take
 * the CPU a busy application leaves on a small machine, and an engine run by the application's own
 * polling (hybrid, invoker) would stop whenever the application computes.
 */
public final class OffloadNic {

    private OffloadNic() {
    }

    public static DeviceConfig config() {
        return DeviceConfig.builder().provider(JwarpConfig.builder()
                .threadingMode(JwarpConfig.ThreadingMode.DEDICATED).idleStrategy(JwarpConfig.IdleStrategyKind.PARK)
                .build()).build();
    }
}
