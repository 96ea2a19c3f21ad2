package org.jwarp.engine.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.CompletionQueue;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.MemoryRegion;
import org.jwarp.verbs.PostStatus;
import org.jwarp.verbs.QpInitAttr;
import org.jwarp.verbs.QpState;
import org.jwarp.verbs.RecvWr;
import org.jwarp.verbs.SendWr;
import org.jwarp.verbs.SharedReceiveQueue;
import org.jwarp.verbs.SrqInitAttr;
import org.jwarp.verbs.WcOpcode;
import org.jwarp.verbs.WcStatus;
import org.jwarp.verbs.WorkCompletion;
import org.jwarp.verbs.WrOpcode;

/**
 * Shared receive queues over TCP: connections on two engine threads consuming one queue, the
 * Terminate of a Send that finds it empty (that connection only), the limit event, and misuse.
 */
class SharedReceiveQueueTest {

    private static final int SLOT = 64;

    private static DevicePair twoEngines() {
        return new DevicePair(DeviceConfig.builder().provider(SuiteConfig.jwarp()
                .threadingMode(JwarpConfig.ThreadingMode.DEDICATED).engineThreads(2).build()).build(), 1024);
    }

    private static WorkCompletion next(CompletionQueue cq) {
        WorkCompletion[] wcs = {new WorkCompletion()};
        long deadline = System.nanoTime() + DevicePair.WAIT.toNanos();
        while (cq.poll(wcs, 1) == 0) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no completion within " + DevicePair.WAIT);
            }
            Thread.onSpinWait();
        }
        return wcs[0];
    }

    private static void post(SharedReceiveQueue srq, MemoryRegion mr, int from, int n) {
        for (int i = from; i < from + n; i++) {
            assertEquals(PostStatus.OK, srq.postRecv(new RecvWr(1).wrId(i).addSge(mr, (long) i * SLOT, SLOT)));
        }
    }

    private static void send(DevicePair d, DevicePair.Connected c, MemoryRegion src, int at, String text, long wrId) {
        byte[] b = text.getBytes(StandardCharsets.US_ASCII);
        MemorySegment.copy(b, 0, src.segment(), ValueLayout.JAVA_BYTE, at, b.length);
        assertEquals(PostStatus.OK, c.client().postSend(new SendWr(1).wrId(wrId).opcode(WrOpcode.SEND).signaled(true)
                .addSge(src, at, b.length)));
    }

    private static String text(MemoryRegion mr, long wrId, long length) {
        return new String(mr.segment().asSlice(wrId * SLOT, length).toArray(ValueLayout.JAVA_BYTE),
                StandardCharsets.US_ASCII);
    }

    @Test
    void connectionsOnTwoEngineThreadsConsumeOneQueueEachMessageOnce() throws Exception {
        try (DevicePair d = twoEngines()) {
            SharedReceiveQueue srq = d.server.createSrq(d.spd, new SrqInitAttr(64, 1, 0));
            MemoryRegion rx = d.serverRegion(64L * SLOT, Access.LOCAL_WRITE);
            MemoryRegion tx = d.clientRegion(4096, Access.LOCAL_WRITE);
            int conns = 4;
            int each = 10;
            post(srq, rx, 0, conns * each);
            List<DevicePair.Connected> cs = new ArrayList<>();
            for (int i = 0; i < conns; i++) {
                cs.add(d.connect(QpInitAttr.builder(d.scq, d.scq).srq(srq).build()));
            }
            Set<String> sent = new HashSet<>();
            for (int k = 0; k < each; k++) {
                for (int i = 0; i < conns; i++) {
                    String m = "conn " + i + " message " + k;
                    send(d, cs.get(i), tx, (i * each + k) * SLOT, m, k);
                    sent.add(m);
                }
            }
            Map<Integer, Long> lastWrIdOfQp = new HashMap<>();
            Set<String> got = new HashSet<>();
            for (int n = 0; n < conns * each; n++) {
                WorkCompletion wc = next(d.scq);
                assertSame(WcStatus.SUCCESS, wc.status(), wc.toString());
                assertSame(WcOpcode.RECV, wc.opcode());
                String m = text(rx, wc.wrId(), wc.byteLen());
                assertTrue(m.startsWith("conn " + cs.stream().map(c -> c.server().qpNum()).toList()
                        .indexOf(wc.qpNum()) + " "), "the completion names the QP the Send came on: " + m);
                Long last = lastWrIdOfQp.put(wc.qpNum(), wc.wrId());
                assertTrue(last == null || last < wc.wrId(), "one connection's messages take receives in order");
                got.add(m);
            }
            assertEquals(sent, got, "every message once, in its own receive");
            assertEquals(0, srq.size());
            for (int i = 0; i < conns * each; i++) {
                assertSame(WcStatus.SUCCESS, next(d.ccq).status());
            }
        }
    }

    @Test
    void aSendFindingTheQueueEmptyEndsOnlyItsConnection() throws Exception {
        try (DevicePair d = twoEngines()) {
            SharedReceiveQueue srq = d.server.createSrq(d.spd, new SrqInitAttr(8, 1, 0));
            MemoryRegion rx = d.serverRegion(8L * SLOT, Access.LOCAL_WRITE);
            MemoryRegion tx = d.clientRegion(4096, Access.LOCAL_WRITE);
            DevicePair.Connected a = d.connect(QpInitAttr.builder(d.scq, d.scq).srq(srq).build());
            DevicePair.Connected b = d.connect(QpInitAttr.builder(d.scq, d.scq).srq(srq).build());
            post(srq, rx, 0, 1);
            send(d, a, tx, 0, "takes the only one", 1);
            assertEquals(0, next(d.scq).wrId());
            send(d, b, tx, SLOT, "finds none", 2);
            // RFC 5041 §7.2: the server terminates b's stream; b's QPs end, a's does not
            long deadline = System.nanoTime() + DevicePair.WAIT.toNanos();
            while (b.server().state() != QpState.ERROR || b.client().state() != QpState.ERROR) {
                assertTrue(System.nanoTime() < deadline, "b's QPs did not reach ERROR: " + b.server().state() + ", "
                        + b.client().state());
                Thread.onSpinWait();
            }
            assertEquals(1, b.server().counters().get(org.jwarp.verbs.CounterNames.TERMINATES_TX));
            assertSame(QpState.RTS, a.server().state());
            post(srq, rx, 1, 1);
            send(d, a, tx, 2 * SLOT, "a goes on", 3);
            WorkCompletion wc;
            do {
                wc = next(d.scq);
            } while (wc.qpNum() != a.server().qpNum());
            assertSame(WcStatus.SUCCESS, wc.status());
            assertEquals("a goes on", text(rx, wc.wrId(), wc.byteLen()));
        }
    }

    @Test
    void theLimitEventFiresOnceWhenTheQueueRunsLow() throws Exception {
        try (DevicePair d = twoEngines()) {
            SharedReceiveQueue srq = d.server.createSrq(d.spd, new SrqInitAttr(8, 1, 4));
            assertEquals(4, srq.limit());
            MemoryRegion rx = d.serverRegion(8L * SLOT, Access.LOCAL_WRITE);
            MemoryRegion tx = d.clientRegion(4096, Access.LOCAL_WRITE);
            DevicePair.Connected a = d.connect(QpInitAttr.builder(d.scq, d.scq).srq(srq).build());
            post(srq, rx, 0, 8);
            for (int i = 0; i < 4; i++) {
                send(d, a, tx, i * SLOT, "m" + i, i);
                next(d.scq);
            }
            assertFalse(srq.awaitLimit(0, TimeUnit.MILLISECONDS), "4 left: not below the limit yet");
            send(d, a, tx, 4 * SLOT, "m4", 4);
            next(d.scq);
            assertTrue(srq.awaitLimit(10, TimeUnit.SECONDS), "3 left: the limit event");
            assertEquals(0, srq.limit(), "the limit disarms");
            assertEquals(1, srq.limitEvents());
            send(d, a, tx, 5 * SLOT, "m5", 5);
            next(d.scq);
            assertFalse(srq.awaitLimit(0, TimeUnit.MILLISECONDS), "one event per arming");
            srq.armLimit(3);
            send(d, a, tx, 6 * SLOT, "m6", 6);
            next(d.scq);
            assertTrue(srq.awaitLimit(10, TimeUnit.SECONDS), "re-armed: fires again");
            assertEquals(2, srq.limitEvents());
        }
    }

    @Test
    void misuseIsRefusedClearly() throws Exception {
        try (DevicePair d = twoEngines()) {
            SharedReceiveQueue srq = d.server.createSrq(d.spd, new SrqInitAttr(5, 2, 0));
            assertEquals(8, srq.maxWr(), "rounded up to a power of two");
            MemoryRegion rx = d.serverRegion(SLOT, Access.LOCAL_WRITE);
            assertEquals(PostStatus.TOO_MANY_SGE, PostStatus.code(srq.postRecv(new RecvWr(3).wrId(1)
                    .addSge(rx, 0, 8).addSge(rx, 8, 8).addSge(rx, 16, 8))));
            for (int i = 0; i < 8; i++) {
                assertEquals(PostStatus.OK, srq.postRecv(new RecvWr(1).wrId(i).addSge(rx, 0, 8)));
            }
            assertEquals(PostStatus.QUEUE_FULL, PostStatus.code(srq.postRecv(new RecvWr(1).wrId(9).addSge(rx, 0, 8))));
            var qp = d.server.createQp(d.spd, QpInitAttr.builder(d.scq, d.scq).srq(srq).build());
            assertEquals(PostStatus.INVALID_WR, PostStatus.code(qp.postRecv(new RecvWr(1).wrId(1).addSge(rx, 0, 8))),
                    "a QP on a shared queue takes no receives of its own");
            IllegalStateException busy = assertThrows(IllegalStateException.class, srq::close);
            assertTrue(busy.getMessage().contains("destroy them first"), busy.getMessage());
            assertThrows(IllegalArgumentException.class, () -> d.server.createQp(d.server.allocPd(),
                    QpInitAttr.builder(d.scq, d.scq).srq(srq).build()), "another protection domain");
            assertThrows(IllegalArgumentException.class, () -> d.server.createSrq(d.cpd, new SrqInitAttr(4, 1, 0)),
                    "another device's protection domain");
            assertThrows(IllegalArgumentException.class, () -> new SrqInitAttr(4, 1, 5));
            assertThrows(IllegalArgumentException.class, () -> srq.armLimit(9));
            qp.close();
            srq.close();
            assertEquals(PostStatus.QP_DESTROYED, PostStatus.code(srq.postRecv(new RecvWr(1).wrId(1).addSge(rx, 0, 8))));
        }
    }
}
