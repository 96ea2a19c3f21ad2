package org.jwarp.engine.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jwarp.verbs.CompletionQueue;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.DeviceLimits;
import org.jwarp.verbs.PostStatus;
import org.jwarp.verbs.ProtectionDomain;
import org.jwarp.verbs.QpInitAttr;
import org.jwarp.verbs.QpState;
import org.jwarp.verbs.QueuePair;
import org.jwarp.verbs.RdmaDevice;
import org.jwarp.verbs.RecvWr;
import org.junit.jupiter.api.Test;

/**
 * Queue and CQ sizes are rounded up to what the device allocates (as OFED's ibv_create_cq reports
 * cqe and ibv_create_qp writes back ibv_qp_cap), and the reported sizes are what the queues hold.
 */
class QueueSizingTest {

    @Test
    void cqDepthIsRoundedUpAndReported() {
        try (RdmaDevice device = RdmaDevice.open(LoopbackPair.invoker())) {
            try (CompletionQueue cq = device.createCq(100, null)) {
                assertEquals(128, cq.depth());
            }
            try (CompletionQueue cq = device.createCq(1, null)) {
                assertTrue(cq.depth() >= 1);
            }
            try (CompletionQueue cq = device.createCq(64, null)) {
                assertEquals(64, cq.depth());
            }
        }
    }

    @Test
    void queueDepthsAreRoundedUpReportedAndHeld() {
        try (RdmaDevice device = RdmaDevice.open(LoopbackPair.invoker())) {
            ProtectionDomain pd = device.allocPd();
            CompletionQueue cq = device.createCq(256, null);
            QueuePair qp = device.createQp(pd, QpInitAttr.builder(cq, cq).maxSendWr(100).maxRecvWr(3).build());
            assertEquals(128, qp.initAttr().maxSendWr());
            assertEquals(4, qp.initAttr().maxRecvWr());
            qp.modify(QpState.INIT);
            RecvWr recv = new RecvWr(1).wrId(1);
            for (int i = 0; i < 4; i++) {
                assertEquals(PostStatus.OK, qp.postRecv(recv), "receive " + i);
            }
            assertEquals(PostStatus.QUEUE_FULL, PostStatus.code(qp.postRecv(recv)));
            qp.close();
            cq.close();
        }
    }

    @Test
    void sizesAboveTheDeviceLimitsAreRejectedNamingTheLimit() {
        DeviceLimits small = new DeviceLimits(16, 64, 1L << 20, 1000, 4, 64, 3000, 8, 8);
        DeviceConfig config = DeviceConfig.builder().provider(SuiteConfig.jwarp()
                .threadingMode(JwarpConfig.ThreadingMode.INVOKER).build()).limits(small).build();
        try (RdmaDevice device = RdmaDevice.open(config)) {
            // at the limit: allowed, rounded up past it (the limit bounds what may be asked)
            try (CompletionQueue cq = device.createCq(3000, null)) {
                assertEquals(4096, cq.depth());
            }
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> device.createCq(3001, null));
            assertEquals("CQ depth 3001 exceeds the device's maxCqDepth 3000", e.getMessage());
            ProtectionDomain pd = device.allocPd();
            CompletionQueue cq = device.createCq(16, null);
            e = assertThrows(IllegalArgumentException.class,
                    () -> device.createQp(pd, QpInitAttr.builder(cq, cq).maxSendWr(1001).build()));
            assertEquals("maxSendWr 1001 exceeds the device's maxQpWr 1000", e.getMessage());
            QueuePair qp = device.createQp(pd, QpInitAttr.builder(cq, cq).maxSendWr(1000).maxRecvWr(1000).build());
            assertEquals(1024, qp.initAttr().maxSendWr());
            qp.close();
            cq.close();
        }
    }
}
