package org.jwarp.engine.provider;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jwarp.verbs.AcceptParams;
import org.jwarp.verbs.CmEvent;
import org.jwarp.verbs.CmEventQueue;
import org.jwarp.verbs.CompletionQueue;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.DeviceLimits;
import org.jwarp.verbs.ConnectParams;
import org.jwarp.verbs.Listener;
import org.jwarp.verbs.ProtectionDomain;
import org.jwarp.verbs.QpInitAttr;
import org.jwarp.verbs.QueuePair;
import org.jwarp.verbs.RdmaDevice;
import org.junit.jupiter.api.Test;

/**
 * Memory per connected idle QP (issue 13: at most 64 KiB): many QP pairs connected over loopback in
 * one process, the Java heap and the JVM's direct and native-segment memory measured before and
 * after. Staging buffers belong to the engine threads, so an idle connection holds none. The
 * kernel's socket buffers are not counted (they are the same for any TCP program).
 * {@code -Djwarp.test.idleQps=N} sets the number of pairs (default 300).
 */
class IdleQpMemoryTest {

    static final long LIMIT_PER_QP = 64 * 1024;
    static final Duration WAIT = Duration.ofSeconds(30);

    @Test
    void anIdleConnectedQpHoldsAtMost64KiB() throws Exception {
        int pairs = Integer.getInteger("jwarp.test.idleQps", 300);
        DeviceConfig config = LoopbackPair.dedicated().toBuilder()
                .limits(DeviceLimits.DEFAULT.withMaxQps(Math.max(DeviceLimits.DEFAULT.maxQps(), pairs + 8))).build();
        try (RdmaDevice client = RdmaDevice.open(config);
             RdmaDevice server = RdmaDevice.open(config)) {
            ProtectionDomain cpd = client.allocPd();
            ProtectionDomain spd = server.allocPd();
            CompletionQueue ccq = client.createCq(1024, null);
            CompletionQueue scq = server.createCq(1024, null);
            CmEventQueue cEvents = new CmEventQueue();
            CmEventQueue sEvents = new CmEventQueue();
            Listener listener = server.connectionManager().listen(
                    new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64, sEvents);
            List<QueuePair> qps = new ArrayList<>();
            connect(client, server, cpd, spd, ccq, scq, cEvents, sEvents, listener, qps, 4); // warm-up
            long before = used();
            connect(client, server, cpd, spd, ccq, scq, cEvents, sEvents, listener, qps, pairs);
            long after = used();
            long perQp = (after - before) / (2L * pairs);
            System.out.printf("%d connected idle QP pairs: %d B of heap and direct memory per QP (%s layer)%n",
                    pairs, perQp, client.socketIoLayer());
            assertTrue(perQp <= LIMIT_PER_QP, perQp + " B per idle QP, over " + LIMIT_PER_QP);
            for (QueuePair qp : qps) {
                qp.close();
            }
            listener.close();
        }
    }

    private static void connect(RdmaDevice client, RdmaDevice server, ProtectionDomain cpd, ProtectionDomain spd,
                                CompletionQueue ccq, CompletionQueue scq, CmEventQueue cEvents,
                                CmEventQueue sEvents, Listener listener, List<QueuePair> qps, int pairs)
            throws InterruptedException {
        for (int i = 0; i < pairs; i++) {
            QueuePair c = client.createQp(cpd, QpInitAttr.builder(ccq, ccq).build());
            QueuePair s = server.createQp(spd, QpInitAttr.builder(scq, scq).build());
            qps.add(c);
            qps.add(s);
            client.connectionManager().connect(listener.localAddress(), c, ConnectParams.of(new byte[0]), cEvents);
            CmEvent req = sEvents.poll(WAIT);
            assertInstanceOf(CmEvent.ConnectRequest.class, req, "pair " + i);
            ((CmEvent.ConnectRequest) req).request().accept(s, AcceptParams.of(new byte[0]));
            assertInstanceOf(CmEvent.Established.class, sEvents.poll(WAIT), "pair " + i);
            assertInstanceOf(CmEvent.Established.class, cEvents.poll(WAIT), "pair " + i);
        }
    }

    /** Heap after a full collection, plus direct buffers and native segments (both reserve direct memory). */
    static long used() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(50);
        }
        long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        long direct = 0;
        for (BufferPoolMXBean b : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            if (b.getName().equals("direct")) {
                direct = b.getMemoryUsed();
            }
        }
        return heap + direct;
    }
}
