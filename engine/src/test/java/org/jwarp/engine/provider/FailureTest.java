package org.jwarp.engine.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.HashSet;
import java.util.Set;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.CmEvent;
import org.jwarp.verbs.CmEventQueue;
import org.jwarp.verbs.ConnectParams;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.Listener;
import org.jwarp.verbs.MemoryRegion;
import org.jwarp.verbs.PostStatus;
import org.jwarp.verbs.QpInitAttr;
import org.jwarp.verbs.QpState;
import org.jwarp.verbs.QueuePair;
import org.jwarp.verbs.RecvWr;
import org.jwarp.verbs.SendWr;
import org.jwarp.verbs.WcStatus;
import org.jwarp.verbs.WorkCompletion;
import org.jwarp.verbs.WrOpcode;
import org.jwarp.wire.rdmap.DdpError;
import org.junit.jupiter.api.Test;

/** Failures over real TCP: a peer that vanishes mid-transfer, and one QP failing next to a healthy one. */
class FailureTest {

    @Test
    void aPeerThatGoesAwayMidTransferLosesNoRequest() throws Exception {
        LoopbackPair p = new LoopbackPair(LoopbackPair.dedicated(), LoopbackPair.dedicated(), new byte[0], new byte[0]);
        try {
            int n = 1 << 20;
            MemoryRegion src = p.client.register(n, Access.LOCAL_WRITE);
            MemoryRegion dst = p.server.register(n, Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ);
            Set<Long> posted = new HashSet<>();
            for (long id = 0; id < 100; id++) {
                WrOpcode op = id % 4 == 3 ? WrOpcode.RDMA_READ : WrOpcode.RDMA_WRITE;
                int rc = p.client.qp.postSend(new SendWr().wrId(id).opcode(op).signaled(true).addSge(src, 0, n)
                        .remote(dst.iova(), dst.rkey()));
                assertEquals(PostStatus.OK, rc);
                posted.add(id);
            }
            // the peer's device (its process, as far as TCP can tell) goes away mid-transfer
            p.server.device.close();
            Set<Long> completed = new HashSet<>();
            while (completed.size() < posted.size()) {
                WorkCompletion wc = p.client.next();
                assertTrue(completed.add(wc.wrId()), "completed twice: " + wc);
                assertTrue(wc.status() == WcStatus.SUCCESS || wc.status() == WcStatus.WR_FLUSH_ERR, wc.toString());
            }
            assertEquals(posted, completed);
            CmEvent.Disconnected d = p.expect(p.client, CmEvent.Disconnected.class);
            assertTrue(d.cause() == CmEvent.Disconnected.Cause.PEER_CLOSED
                    || d.cause() == CmEvent.Disconnected.Cause.CONNECTION_LOST, d.toString());
            assertSame(QpState.ERROR, p.client.qp.state());
            // posting after the failure still completes: with a flush
            p.client.qp.postSend(new SendWr().wrId(500).opcode(WrOpcode.SEND).signaled(true));
            WorkCompletion late = p.client.next();
            assertEquals(500, late.wrId());
            assertSame(WcStatus.WR_FLUSH_ERR, late.status());
        } finally {
            p.listener.close();
            p.client.close();
        }
    }

    @Test
    void oneQpFailingLeavesTheOthersOnItsEngineThreadRunning() throws Exception {
        DeviceConfig one = LoopbackPair.dedicated();
        try (LoopbackPair.End client = new LoopbackPair.End(one);
             LoopbackPair.End server = new LoopbackPair.End(one);
             Listener l = server.device.connectionManager().listen(
                     new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 4, server.events)) {
            QueuePair clientQp2 = client.device.createQp(client.pd, QpInitAttr.builder(client.cq, client.cq).build());
            QueuePair serverQp2 = server.device.createQp(server.pd, QpInitAttr.builder(server.cq, server.cq).build());
            CmEventQueue events2 = new CmEventQueue();
            client.device.connectionManager().connect(l.localAddress(), client.qp, ConnectParams.of(new byte[0]),
                    client.events);
            server.events.expect(CmEvent.ConnectRequest.class, LoopbackPair.WAIT).request().accept(server.qp, new byte[0]);
            client.events.expect(CmEvent.Established.class, LoopbackPair.WAIT);
            server.events.expect(CmEvent.Established.class, LoopbackPair.WAIT);
            client.device.connectionManager().connect(l.localAddress(), clientQp2, ConnectParams.of(new byte[0]), events2);
            server.events.expect(CmEvent.ConnectRequest.class, LoopbackPair.WAIT).request().accept(serverQp2, new byte[0]);
            events2.expect(CmEvent.Established.class, LoopbackPair.WAIT);
            server.events.expect(CmEvent.Established.class, LoopbackPair.WAIT);

            // QP 1 writes through an STag the server never registered: the server terminates it
            MemoryRegion src = client.register(64, Access.LOCAL_WRITE);
            client.qp.postSend(new SendWr().wrId(1).opcode(WrOpcode.RDMA_WRITE).addSge(src, 0, 64).remote(0, 0x00ABCD01));
            CmEvent.Disconnected d = client.events.expect(CmEvent.Disconnected.class, LoopbackPair.WAIT);
            assertSame(CmEvent.Disconnected.Cause.TERMINATE_RECEIVED, d.cause());
            assertEquals(DdpError.INVALID_STAG.controlBits(), d.terminate());
            assertSame(CmEvent.Disconnected.Cause.TERMINATE_SENT,
                    server.events.expect(CmEvent.Disconnected.class, LoopbackPair.WAIT).cause());

            // QP 2, on the same engine threads, carries on
            MemoryRegion dst = server.register(64, Access.LOCAL_WRITE);
            serverQp2.postRecv(new RecvWr().wrId(7).addSge(dst, 0, 64));
            assertEquals(PostStatus.OK, clientQp2.postSend(new SendWr().wrId(8).opcode(WrOpcode.SEND).signaled(true)
                    .addSge(src, 0, 64)));
            WorkCompletion s = client.next();
            assertEquals(8, s.wrId());
            assertSame(WcStatus.SUCCESS, s.status());
            WorkCompletion r = server.next();
            assertEquals(7, r.wrId());
            assertSame(WcStatus.SUCCESS, r.status());
            clientQp2.close();
            serverQp2.close();
        }
    }
}
