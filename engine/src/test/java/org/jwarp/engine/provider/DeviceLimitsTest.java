package org.jwarp.engine.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.jwarp.verbs.CompletionQueue;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.DeviceLimits;
import org.jwarp.verbs.ProtectionDomain;
import org.jwarp.verbs.QpInitAttr;
import org.jwarp.verbs.QueuePair;
import org.jwarp.verbs.RdmaDevice;
import org.junit.jupiter.api.Test;

/** The device's limits hold: a QP beyond maxQps is refused, naming the limit. */
class DeviceLimitsTest {

    @Test
    void noMoreQueuePairsThanMaxQps() {
        DeviceConfig config = DeviceConfig.builder().provider(SuiteConfig.jwarp()
                .build()).limits(DeviceLimits.DEFAULT.withMaxQps(3)).build();
        try (RdmaDevice dev = RdmaDevice.open(config)) {
            ProtectionDomain pd = dev.allocPd();
            CompletionQueue cq = dev.createCq(16, null);
            QueuePair[] qps = new QueuePair[3];
            for (int i = 0; i < 3; i++) {
                qps[i] = dev.createQp(pd, QpInitAttr.builder(cq, cq).build());
            }
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> dev.createQp(pd, QpInitAttr.builder(cq, cq).build()));
            assertEquals("the device has 3 queue pairs, its limit (maxQps 3); close one or raise DeviceLimits.maxQps",
                    e.getMessage());
            qps[0].close();
            dev.createQp(pd, QpInitAttr.builder(cq, cq).build()).close();  // room again after a close
        }
    }
}
