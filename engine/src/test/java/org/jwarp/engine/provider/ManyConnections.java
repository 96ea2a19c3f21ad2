package org.jwarp.engine.provider;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jwarp.verbs.AcceptParams;
import org.jwarp.verbs.CmEvent;
import org.jwarp.verbs.CmEventQueue;
import org.jwarp.verbs.CompletionQueue;
import org.jwarp.verbs.ConnectParams;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.Listener;
import org.jwarp.verbs.ProtectionDomain;
import org.jwarp.verbs.QpInitAttr;
import org.jwarp.verbs.QueuePair;
import org.jwarp.verbs.RdmaDevice;

/**
 * Test harness: two devices in this JVM and as many connected QP pairs between them as a test asks
 * for, over real loopback TCP, one after another (connect, accept, both Established).
 */
final class ManyConnections implements AutoCloseable {

    static final Duration WAIT = Duration.ofSeconds(30);

    final RdmaDevice client;
    final RdmaDevice server;
    final ProtectionDomain clientPd;
    final ProtectionDomain serverPd;
    final List<QueuePair> clientQps = new ArrayList<>();
    final List<QueuePair> serverQps = new ArrayList<>();
    private final CompletionQueue clientCq;
    private final CompletionQueue serverCq;
    private final CmEventQueue clientEvents = new CmEventQueue();
    private final CmEventQueue serverEvents = new CmEventQueue();
    private final Listener listener;

    ManyConnections(DeviceConfig config) {
        client = RdmaDevice.open(config);
        server = RdmaDevice.open(config);
        clientPd = client.allocPd();
        serverPd = server.allocPd();
        clientCq = client.createCq(1024, null);
        serverCq = server.createCq(1024, null);
        listener = server.connectionManager().listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64,
                serverEvents);
    }

    CompletionQueue serverCq() {
        return serverCq;
    }

    CompletionQueue clientCq() {
        return clientCq;
    }

    /** Connects {@code pairs} more QP pairs, each established on both sides before the next. */
    void connect(int pairs) throws InterruptedException {
        for (int i = 0; i < pairs; i++) {
            QueuePair c = client.createQp(clientPd, QpInitAttr.builder(clientCq, clientCq).build());
            QueuePair s = server.createQp(serverPd, QpInitAttr.builder(serverCq, serverCq).build());
            clientQps.add(c);
            serverQps.add(s);
            client.connectionManager().connect(listener.localAddress(), c, ConnectParams.of(new byte[0]), clientEvents);
            CmEvent req = serverEvents.poll(WAIT);
            assertInstanceOf(CmEvent.ConnectRequest.class, req, "pair " + i);
            ((CmEvent.ConnectRequest) req).request().accept(s, AcceptParams.of(new byte[0]));
            assertInstanceOf(CmEvent.Established.class, serverEvents.poll(WAIT), "pair " + i);
            assertInstanceOf(CmEvent.Established.class, clientEvents.poll(WAIT), "pair " + i);
        }
    }

    @Override
    public void close() {
        for (QueuePair qp : clientQps) {
            qp.close();
        }
        listener.close();
        client.close();
        server.close();
    }
}
