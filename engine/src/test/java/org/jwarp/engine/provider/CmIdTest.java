package org.jwarp.engine.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;
import org.jwarp.verbs.AcceptParams;
import org.jwarp.verbs.CmEvent;
import org.jwarp.verbs.CmEventQueue;
import org.jwarp.verbs.CmId;
import org.jwarp.verbs.ConnectParams;
import org.jwarp.verbs.QpInitAttr;
import org.jwarp.verbs.QpState;

/**
 * rdma_cm's id apart from the queue pair, over TCP: resolve address and route, create the QP on the
 * id, connect; on the passive side a request's id with a handler of its own, which gets every event
 * of its connection while the listener's handler gets only requests.
 */
class CmIdTest {

    @Test
    void theRdmaCmSequenceOnBothSidesWithAcceptedEventsApartFromTheListeners() throws Exception {
        try (DevicePair d = new DevicePair(64)) {
            CmEventQueue requests = new CmEventQueue();
            CmId listening = CmId.create(d.server, requests);
            listening.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 8);
            assertSame(CmId.State.LISTENING, listening.state());
            assertTrue(listening.localAddress().getPort() > 0);

            CmEventQueue[] own = {new CmEventQueue(), new CmEventQueue()};
            CmEventQueue[] clientEvents = {new CmEventQueue(), new CmEventQueue()};
            CmId[] active = new CmId[2];
            CmId[] accepted = new CmId[2];
            for (int i = 0; i < 2; i++) {
                CmId id = CmId.create(d.client, clientEvents[i]);
                active[i] = id;
                id.resolveAddress(listening.localAddress());
                CmEvent.AddressResolved a = clientEvents[i].expect(CmEvent.AddressResolved.class, DevicePair.WAIT);
                assertSame(id, a.id());
                assertEquals(InetAddress.getLoopbackAddress(), a.local().getAddress(), "the route to 127.0.0.1 leaves from it");
                assertThrows(IllegalStateException.class, () -> id.connect(ConnectParams.of(new byte[0])),
                        "connect before the route");
                id.resolveRoute();
                assertSame(id, clientEvents[i].expect(CmEvent.RouteResolved.class, DevicePair.WAIT).id());
                assertThrows(IllegalStateException.class, () -> id.connect(ConnectParams.of(new byte[0])),
                        "connect before the QP");
                id.createQp(d.cpd, QpInitAttr.builder(d.ccq, d.ccq).build());
                id.connect(ConnectParams.of(new byte[] {(byte) i}));

                CmEvent.ConnectRequest r = DevicePair.expect(requests, CmEvent.ConnectRequest.class, d.server);
                assertEquals(i, r.request().privateData()[0]);
                CmId child = CmId.forRequest(d.server, r.request(), own[i]);
                accepted[i] = child;
                assertEquals(r.request().remoteAddress(), child.remoteAddress());
                child.createQp(d.spd, QpInitAttr.builder(d.scq, d.scq).build());
                child.accept(AcceptParams.of(new byte[0]));
                CmEvent.Established est = DevicePair.expect(own[i], CmEvent.Established.class, d.server);
                assertSame(child.qp(), est.qp());
                assertSame(CmId.State.CONNECTED, child.state());
                DevicePair.expect(clientEvents[i], CmEvent.Established.class, d.client);
                assertSame(CmId.State.CONNECTED, active[i].state());
            }
            assertEquals(0, requests.size(), "the listener's handler got the requests only");

            active[0].disconnect();
            CmEvent.Disconnected gone = DevicePair.expect(own[0], CmEvent.Disconnected.class, d.server);
            assertSame(accepted[0].qp(), gone.qp());
            assertNull(own[1].poll(), "the other accepted id hears nothing of it");
            assertEquals(0, requests.size());
            assertSame(QpState.RTS, accepted[1].qp().state());
            assertSame(CmId.State.LISTENING, listening.state());

            CmEventQueue moved = new CmEventQueue();
            accepted[1].migrate(moved);
            active[1].disconnect();
            assertNotNull(DevicePair.expect(moved, CmEvent.Disconnected.class, d.server), "rdma_migrate_id");
            assertEquals(0, own[1].size());

            for (CmId id : active) {
                id.close();
            }
            for (CmId id : accepted) {
                id.close();
            }
            listening.close();
            assertSame(CmId.State.CLOSED, listening.state());
        }
    }

    @Test
    void aRejectedRequestIdEndsAndMisuseIsRefused() throws Exception {
        try (DevicePair d = new DevicePair(64)) {
            CmEventQueue requests = new CmEventQueue();
            CmId listening = CmId.create(d.server, requests);
            listening.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 8);
            CmEventQueue events = new CmEventQueue();
            CmId id = CmId.create(d.client, events);
            assertThrows(IllegalStateException.class, () -> id.resolveRoute(), "route before address");
            assertThrows(IllegalStateException.class, () -> id.createQp(d.cpd, QpInitAttr.builder(d.ccq, d.ccq).build()));
            id.resolveAddress(listening.localAddress());
            events.expect(CmEvent.AddressResolved.class, DevicePair.WAIT);
            id.resolveRoute();
            events.expect(CmEvent.RouteResolved.class, DevicePair.WAIT);
            id.createQp(d.cpd, QpInitAttr.builder(d.ccq, d.ccq).build());
            assertThrows(IllegalStateException.class, () -> id.createQp(d.cpd, QpInitAttr.builder(d.ccq, d.ccq).build()),
                    "one QP per id");
            id.connect(ConnectParams.of(new byte[0]));
            CmEvent.ConnectRequest r = DevicePair.expect(requests, CmEvent.ConnectRequest.class, d.server);
            CmId child = CmId.forRequest(d.server, r.request(), new CmEventQueue());
            assertThrows(IllegalStateException.class, () -> child.accept(AcceptParams.of(new byte[0])),
                    "accept before the QP");
            child.reject("no".getBytes());
            CmEvent.Rejected rej = events.expect(CmEvent.Rejected.class, DevicePair.WAIT, d.client);
            assertEquals("no", new String(rej.peerPrivateData()));
            assertSame(CmId.State.DISCONNECTED, id.state());
            assertThrows(IllegalStateException.class, () -> child.reject(new byte[0]), "decided already");
            id.close();
            child.close();
            listening.close();
        }
    }
}
