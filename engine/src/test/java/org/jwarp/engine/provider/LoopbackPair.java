package org.jwarp.engine.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import org.jwarp.verbs.AcceptParams;
import org.jwarp.verbs.CmEvent;
import org.jwarp.verbs.CmEventQueue;
import org.jwarp.verbs.CompletionChannel;
import org.jwarp.verbs.CompletionQueue;
import org.jwarp.verbs.ConnectParams;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.Listener;
import org.jwarp.verbs.MemoryRegion;
import org.jwarp.verbs.Moderation;
import org.jwarp.verbs.ProtectionDomain;
import org.jwarp.verbs.QpInitAttr;
import org.jwarp.verbs.QueuePair;
import org.jwarp.verbs.RdmaDevice;
import org.jwarp.verbs.WorkCompletion;

/**
 * Test harness: two jwarp devices in this JVM, connected over a real loopback TCP connection
 * through the connection manager (listen, connect, accept). Completions are awaited by polling
 * with a deadline — never by sleeping.
 */
final class LoopbackPair implements AutoCloseable {

    static final Duration WAIT = Duration.ofSeconds(20);

    /** One end: device, PD, CQs, QP. */
    static final class End implements AutoCloseable {
        final RdmaDevice device;
        final ProtectionDomain pd;
        final CompletionChannel channel;
        final CompletionQueue cq;
        final QueuePair qp;
        final CmEventQueue events = new CmEventQueue();
        final Arena arena = Arena.ofShared();
        final WorkCompletion[] wcs = {new WorkCompletion(), new WorkCompletion(), new WorkCompletion(),
                new WorkCompletion()};

        End(DeviceConfig config) {
            device = RdmaDevice.open(config);
            pd = device.allocPd();
            channel = device.createCompletionChannel(Moderation.NONE);
            cq = device.createCq(1024, channel);
            qp = device.createQp(pd, QpInitAttr.builder(cq, cq).maxSendWr(256).maxRecvWr(256).maxSendSge(4)
                    .maxRecvSge(4).maxInlineData(256).build());
        }

        MemoryRegion register(long size, int access) {
            MemorySegment m = arena.allocate(Math.max(1, size), 64);
            return pd.registerMemory(m, access);
        }

        /** Polls until one completion arrives (or fails at the deadline). */
        WorkCompletion next() {
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (true) {
                if (cq.poll(wcs, 1) == 1) {
                    WorkCompletion copy = new WorkCompletion().copyFrom(wcs[0]);
                    return copy;
                }
                if (System.nanoTime() - deadline > 0) {
                    throw new AssertionError("no completion within " + WAIT + " on " + qp);
                }
                Thread.onSpinWait();
            }
        }

        @Override
        public void close() {
            qp.close();
            device.close();
            arena.close();
        }
    }

    final End client;
    final End server;
    final Listener listener;
    final CmEvent.Established clientEstablished;
    final CmEvent.Established serverEstablished;
    final CmEvent.ConnectRequest connectRequest;

    LoopbackPair(DeviceConfig clientConfig, DeviceConfig serverConfig, byte[] clientPd, byte[] serverPd)
            throws InterruptedException {
        this(clientConfig, serverConfig, ConnectParams.of(clientPd), AcceptParams.of(serverPd));
    }

    LoopbackPair(DeviceConfig clientConfig, DeviceConfig serverConfig, ConnectParams connect, AcceptParams accept)
            throws InterruptedException {
        byte[] clientPd = connect.privateData();
        client = new End(clientConfig);
        server = new End(serverConfig);
        listener = server.device.connectionManager().listen(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 8, server.events);
        client.device.connectionManager().connect(listener.localAddress(), client.qp, connect, client.events);
        CmEvent.ConnectRequest req = expect(server, CmEvent.ConnectRequest.class);
        connectRequest = req;
        assertEquals(new String(clientPd), new String(req.request().privateData()));
        req.request().accept(server.qp, accept);
        clientEstablished = expect(client, CmEvent.Established.class);
        serverEstablished = expect(server, CmEvent.Established.class);
    }

    /**
     * Waits for an event on {@code end}, running both devices' duty cycles meanwhile: in invoker
     * mode nothing moves unless the application calls into the device.
     */
    <T extends CmEvent> T expect(End end, Class<T> type) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (true) {
            CmEvent e = end.events.poll();
            if (e != null) {
                if (!type.isInstance(e)) {
                    throw new AssertionError("expected " + type.getSimpleName() + ", got " + e);
                }
                return type.cast(e);
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("no " + type.getSimpleName() + " within " + WAIT);
            }
            int work = (client == null ? 0 : client.device.invoke()) + (server == null ? 0 : server.device.invoke());
            if (work == 0) {
                Thread.onSpinWait();
            }
        }
    }

    static DeviceConfig dedicated() {
        return DeviceConfig.builder().provider(SuiteConfig.jwarp()
                .threadingMode(JwarpConfig.ThreadingMode.DEDICATED).engineThreads(1)
                .idleStrategy(JwarpConfig.IdleStrategyKind.BACKOFF).build())
                .build();
    }

    static DeviceConfig invoker() {
        return DeviceConfig.builder().provider(SuiteConfig.jwarp()
                .threadingMode(JwarpConfig.ThreadingMode.INVOKER).build()).build();
    }

    @Override
    public void close() {
        listener.close();
        client.close();
        server.close();
    }
}
