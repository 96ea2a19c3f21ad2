package org.jwarp.verbs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ConnectionValuesTest {

    @Test
    void privateDataLimits() {
        assertEquals(512, PrivateData.max(1));
        assertEquals(508, PrivateData.max(2));
        PrivateData.checkLength(508, 2);
        PrivateData.checkLength(512, 1);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PrivateData.checkLength(509, 2));
        assertTrue(e.getMessage().contains("at most 508"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> PrivateData.max(0));
        assertThrows(IllegalArgumentException.class, () -> PrivateData.copyOf(new byte[513]));
        assertEquals(0, PrivateData.copyOf(null).length);
    }

    @Test
    void connectParamsCopyAndValidate() {
        byte[] pd = {1, 2, 3};
        ConnectParams p = ConnectParams.of(pd);
        pd[0] = 9;
        assertArrayEquals(new byte[] {1, 2, 3}, p.privateData(), "copied on construction");
        p.privateData()[1] = 9;
        assertArrayEquals(new byte[] {1, 2, 3}, p.privateData(), "copied on access");
        assertEquals(3, p.privateDataLength());
        assertEquals(ConnectParams.DEFAULT_TIMEOUT, p.timeout());
        assertEquals(16, p.ord());
        assertEquals(Duration.ofSeconds(1), p.withTimeout(Duration.ofSeconds(1)).timeout());
        assertEquals(4, p.withDepths(4, 5).ord());
        assertThrows(IllegalArgumentException.class, () -> p.withTimeout(Duration.ZERO));
        assertThrows(IllegalArgumentException.class, () -> p.withDepths(0x3FFF, 1));
        assertThrows(IllegalArgumentException.class, () -> p.withDepths(1, -1));
        assertEquals(0, AcceptParams.of(null).privateDataLength());
        assertThrows(IllegalArgumentException.class, () -> new AcceptParams(null, -1, 0));
    }

    @Test
    void moderationValidates() {
        assertTrue(Moderation.NONE.isNone());
        assertEquals(new Moderation(16, 50), Moderation.of(16, 50));
        assertThrows(IllegalArgumentException.class, () -> Moderation.of(0, 10));
        assertThrows(IllegalArgumentException.class, () -> Moderation.of(1, -1));
        assertThrows(IllegalArgumentException.class, () -> Moderation.of(1, Moderation.MAX_PERIOD_MICROS + 1));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Moderation.of(8, 0));
        assertTrue(e.getMessage().contains("needs a period"), e.getMessage());
        assertEquals(1, Moderation.of(1, 100).count());
    }

    @Test
    void eventQueueHandsEventsOver() throws Exception {
        CmEventQueue q = new CmEventQueue();
        assertNull(q.poll());
        InetSocketAddress a = new InetSocketAddress("127.0.0.1", 7174);
        q.onCmEvent(new CmEvent.Unreachable(null, a, "connection refused"));
        q.onCmEvent(new CmEvent.Rejected(null, new byte[] {7}, "peer rejected"));
        assertEquals(2, q.size());
        CmEvent.Unreachable u = q.expect(CmEvent.Unreachable.class, Duration.ofMillis(1));
        assertSame(a, u.remote());
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> q.expect(CmEvent.Established.class, Duration.ofMillis(1)));
        assertTrue(e.getMessage().contains("expected Established but got Rejected"), e.getMessage());
        assertNull(q.expect(CmEvent.Established.class, Duration.ofMillis(1)), "timeout gives null");
        assertThrows(IllegalArgumentException.class, () -> q.onCmEvent(null));
    }

    @Test
    void eventsCopyPrivateData() {
        byte[] pd = {1};
        CmEvent.Rejected r = new CmEvent.Rejected(null, pd, "x");
        pd[0] = 2;
        assertArrayEquals(new byte[] {1}, r.peerPrivateData());
        assertNotSame(r.peerPrivateData(), r.peerPrivateData());
        assertNull(new CmEvent.ConnectRequest(null).qp());
    }

    @Test
    void qpInitAttrValidatesAndChecksLimits() {
        assertThrows(IllegalArgumentException.class, () -> QpInitAttr.builder(null, null).build());
        // Only the identity of the CQ matters to the record; a proxy stands in for a provider's CQ.
        CompletionQueue cq = (CompletionQueue) java.lang.reflect.Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {CompletionQueue.class}, (proxy, m, args) -> {
                    throw new UnsupportedOperationException(m.getName());
                });
        QpInitAttr a = QpInitAttr.builder(cq, cq).build();
        assertEquals(128, a.maxSendWr());
        assertEquals(64, a.maxInlineData());
        assertSame(a, a.checkAgainst(DeviceLimits.DEFAULT));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> a.checkAgainst(DeviceLimits.DEFAULT.withMaxInline(32)));
        assertTrue(e.getMessage().contains("maxInlineData 64 exceeds the device's maxInline 32"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> QpInitAttr.builder(cq, cq).maxSendWr(0).build());
        assertThrows(IllegalArgumentException.class, () -> QpInitAttr.builder(cq, cq).maxRecvSge(0).build());
        assertThrows(IllegalArgumentException.class, () -> QpInitAttr.builder(cq, cq).maxInlineData(-1).build());
        assertThrows(IllegalArgumentException.class,
                () -> QpInitAttr.builder(cq, cq).maxSendSge(17).build().checkAgainst(DeviceLimits.DEFAULT));
    }

    @Test
    void paramsCompareByContent() {
        assertEquals(ConnectParams.of(new byte[] {1, 2}), ConnectParams.of(new byte[] {1, 2}));
        assertEquals(ConnectParams.of(new byte[] {1, 2}).hashCode(), ConnectParams.of(new byte[] {1, 2}).hashCode());
        assertTrue(!ConnectParams.of(new byte[] {1}).equals(ConnectParams.of(new byte[] {2})));
        assertEquals(AcceptParams.of(new byte[] {3}), AcceptParams.of(new byte[] {3}));
    }
}
