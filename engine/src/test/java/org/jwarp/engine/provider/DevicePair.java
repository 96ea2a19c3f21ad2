package org.jwarp.engine.provider;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.lang.foreign.Arena;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import org.jwarp.verbs.AcceptParams;
import org.jwarp.verbs.CmEvent;
import org.jwarp.verbs.CmEventQueue;
import org.jwarp.verbs.CompletionQueue;
import org.jwarp.verbs.ConnectParams;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.Listener;
import org.jwarp.verbs.MemoryRegion;
import org.jwarp.verbs.ProtectionDomain;
import org.jwarp.verbs.QpInitAttr;
import org.jwarp.verbs.QueuePair;
import org.jwarp.verbs.RdmaDevice;

/**
 * Test harness: a listening server device and a client device in this JVM, each with one PD and
 * one CQ, and connections made between them on demand (connect, accept, both Established) —
 * where {@link LoopbackPair}'s one connection per pair of devices is not enough: several
 * connections on one engine thread, a loop of connections, a relay in between.
 */
final class DevicePair implements AutoCloseable {

    static final Duration WAIT = Duration.ofSeconds(20);

    /** One connection: the client's QP, its event queue, and the server's QP. */
    record Connected(QueuePair client, CmEventQueue clientEvents, QueuePair server) {
    }

    final RdmaDevice server;
    final RdmaDevice client;
    final Arena arena = Arena.ofShared();
    final CmEventQueue serverEvents = new CmEventQueue();
    final Listener listener;
    final ProtectionDomain spd;
    final ProtectionDomain cpd;
    final CompletionQueue scq;
    final CompletionQueue ccq;

    /** Both devices with one dedicated engine thread each. */
    DevicePair(int cqDepth) {
        this(DeviceConfig.builder().provider(SuiteConfig.jwarp()
                .threadingMode(JwarpConfig.ThreadingMode.DEDICATED).engineThreads(1).build()).build(),
                cqDepth);
    }

    DevicePair(DeviceConfig config, int cqDepth) {
        server = RdmaDevice.open(config);
        client = RdmaDevice.open(config);
        listener = server.connectionManager().listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16,
                serverEvents);
        spd = server.allocPd();
        cpd = client.allocPd();
        scq = server.createCq(cqDepth, null);
        ccq = client.createCq(cqDepth, null);
    }

    /** A region of {@code size} bytes on the server. */
    MemoryRegion serverRegion(long size, int access) {
        return spd.registerMemory(arena.allocate(size, 64), access);
    }

    /** A region of {@code size} bytes on the client. */
    MemoryRegion clientRegion(long size, int access) {
        return cpd.registerMemory(arena.allocate(size, 64), access);
    }

    /** A connection to the listener. */
    Connected connect() throws InterruptedException {
        return connect(listener.localAddress());
    }

    /** A connection through {@code to} (the listener, or a relay in front of it). */
    Connected connect(InetSocketAddress to) throws InterruptedException {
        return connect(to, QpInitAttr.builder(scq, scq).build());
    }

    /** A connection to the listener whose server QP is made with {@code serverAttr} (e.g. on a shared receive queue). */
    Connected connect(QpInitAttr serverAttr) throws InterruptedException {
        return connect(listener.localAddress(), serverAttr);
    }

    private Connected connect(InetSocketAddress to, QpInitAttr serverAttr) throws InterruptedException {
        QueuePair cqp = client.createQp(cpd, QpInitAttr.builder(ccq, ccq).build());
        QueuePair sqp = server.createQp(spd, serverAttr);
        CmEventQueue events = new CmEventQueue();
        client.connectionManager().connect(to, cqp, ConnectParams.of(new byte[0]), events);
        expect(serverEvents, CmEvent.ConnectRequest.class, server).request().accept(sqp, AcceptParams.of(new byte[0]));
        expect(events, CmEvent.Established.class, client);
        expect(serverEvents, CmEvent.Established.class, server);
        return new Connected(cqp, events, sqp);
    }

    /** The next event on {@code q}, which must be of {@code type}, waiting on {@code dev}'s engine. */
    static <T extends CmEvent> T expect(CmEventQueue q, Class<T> type, RdmaDevice dev) throws InterruptedException {
        T e = q.expect(type, WAIT, dev);
        assertNotNull(e, "no " + type.getSimpleName() + " within " + WAIT);
        return e;
    }

    @Override
    public void close() {
        listener.close();
        try {
            client.close();
        } finally {
            try {
                server.close();
            } finally {
                arena.close();
            }
        }
    }
}
