package org.jwarp.engine.provider;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.ValueLayout;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.jwarp.engine.rss.IndirectionTable;
import org.jwarp.engine.rss.Toeplitz;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.MemoryRegion;
import org.jwarp.verbs.PostStatus;
import org.jwarp.verbs.QueuePair;
import org.jwarp.verbs.RecvWr;
import org.jwarp.verbs.SendWr;
import org.jwarp.verbs.WcStatus;
import org.jwarp.verbs.WorkCompletion;
import org.jwarp.verbs.WrOpcode;

/**
 * Receive-Side Scaling steers every connection, in both roles, to the engine thread that the
 * Toeplitz hash of its 4-tuple (as that side receives it) names in the indirection table, and the
 * QP lives there from the first byte; data moves on every connection.
 */
class RssSteeringTest {

    @Test
    void bothSidesOfEveryConnectionLandOnTheEngineThreadTheirHashNames() throws Exception {
        int connections = 16;
        Toeplitz toeplitz = new Toeplitz();
        IndirectionTable table = new IndirectionTable(IndirectionTable.DEFAULT_SIZE, 2);
        try (LoopbackPair.End client = new LoopbackPair.End(RssRebalanceTest.TWO_ENGINES);
             LoopbackPair.End server = new LoopbackPair.End(RssRebalanceTest.TWO_ENGINES)) {
            var listener = RssRebalanceTest.listen(server);
            List<QueuePair> clientQps = new ArrayList<>();
            List<QueuePair> serverQps = new ArrayList<>();
            Set<Integer> clientEngines = new HashSet<>();
            Set<Integer> serverEngines = new HashSet<>();
            for (int i = 0; i < connections; i++) {
                JwarpQp[] pair = RssRebalanceTest.connect(client, server, listener);
                QueuePair cqp = pair[0];
                QueuePair sqp = pair[1];
                clientQps.add(cqp);
                serverQps.add(sqp);
                // each side hashes the 4-tuple as it receives packets: source is the peer
                InetSocketAddress clientLocal = cqp.connectionAttr().orElseThrow().localAddress();
                InetSocketAddress serverLocal = sqp.connectionAttr().orElseThrow().localAddress();
                int clientExpected = table.engineFor(toeplitz.hash(serverLocal, clientLocal, true));
                int serverExpected = table.engineFor(toeplitz.hash(clientLocal, serverLocal, true));
                assertEquals(clientExpected, ((JwarpQp) cqp).worker().index(), "client QP " + i + " " + clientLocal);
                assertEquals(serverExpected, ((JwarpQp) sqp).worker().index(), "server QP " + i + " " + serverLocal);
                clientEngines.add(clientExpected);
                serverEngines.add(serverExpected);
            }
            assertEquals(Set.of(0, 1), clientEngines, "16 ephemeral ports spread over both engine threads (client)");
            assertEquals(Set.of(0, 1), serverEngines, "16 ephemeral ports spread over both engine threads (server)");
            // every connection moves verified data: a SEND of 64 bytes with the connection's number
            MemoryRegion out = client.register(64L * connections, Access.LOCAL_WRITE);
            MemoryRegion in = server.register(64L * connections, Access.LOCAL_WRITE);
            for (int i = 0; i < connections; i++) {
                assertEquals(PostStatus.OK, serverQps.get(i).postRecv(new RecvWr().wrId(i).addSge(in, 64L * i, 64)));
                for (int b = 0; b < 64; b++) {
                    out.segment().set(ValueLayout.JAVA_BYTE, 64L * i + b, (byte) (i * 7 + b));
                }
                assertEquals(PostStatus.OK, clientQps.get(i).postSend(new SendWr().wrId(100 + i).opcode(WrOpcode.SEND)
                        .signaled(true).addSge(out, 64L * i, 64)));
            }
            Set<Long> received = new HashSet<>();
            for (int n = 0; n < connections; n++) {
                WorkCompletion wc = server.next();
                assertSame(WcStatus.SUCCESS, wc.status(), wc.toString());
                assertTrue(received.add(wc.wrId()));
                assertEquals(64, wc.byteLen());
            }
            for (int i = 0; i < connections; i++) {
                assertArrayEquals(out.segment().asSlice(64L * i, 64).toArray(ValueLayout.JAVA_BYTE),
                        in.segment().asSlice(64L * i, 64).toArray(ValueLayout.JAVA_BYTE), "connection " + i);
            }
            for (QueuePair q : clientQps) {
                q.close();
            }
            for (QueuePair q : serverQps) {
                q.close();
            }
            listener.close();
        }
    }
}
