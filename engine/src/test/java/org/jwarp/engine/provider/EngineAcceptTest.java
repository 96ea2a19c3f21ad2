package org.jwarp.engine.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jwarp.verbs.CmEvent;
import org.jwarp.verbs.ConnectParams;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.Listener;
import org.jwarp.verbs.WorkCompletion;
import org.junit.jupiter.api.Test;

/**
 * Listeners accept in the engine's duty cycle, on their sockets' readiness: no thread of their
 * own, connections accepted whether the engine sleeps or another thread keeps its cycles running,
 * and a closed listener's port free when close returns.
 */
class EngineAcceptTest {

    static final Duration WAIT = LoopbackPair.WAIT;
    static final InetAddress LO = InetAddress.getLoopbackAddress();
    /** The modes with threads of their own to run the cycles (one test thread drives both ends). */
    static final JwarpConfig.ThreadingMode[] MODES = {JwarpConfig.ThreadingMode.DEDICATED,
        JwarpConfig.ThreadingMode.HYBRID};

    static DeviceConfig config(JwarpConfig.ThreadingMode mode, JwarpConfig.IdleStrategyKind idle) {
        return DeviceConfig.builder().provider(SuiteConfig.jwarp().threadingMode(mode).engineThreads(1)
                .idleStrategy(idle).build()).build();
    }

    /** Connects a fresh QP of {@code client} to {@code to}; the server accepts it; both are established. */
    static void connectOnce(LoopbackPair.End client, LoopbackPair.End server, InetSocketAddress to) throws Exception {
        var qp = client.device.createQp(client.pd, org.jwarp.verbs.QpInitAttr.builder(client.cq, client.cq).build());
        var serverQp = server.device.createQp(server.pd,
                org.jwarp.verbs.QpInitAttr.builder(server.cq, server.cq).build());
        client.device.connectionManager().connect(to, qp, ConnectParams.of(new byte[8]), client.events);
        server.events.expect(CmEvent.ConnectRequest.class, WAIT).request().accept(serverQp, new byte[8]);
        client.events.expect(CmEvent.Established.class, WAIT);
        server.events.expect(CmEvent.Established.class, WAIT);
    }

    @Test
    void noThreadOfItsOwnAccepts() throws Exception {
        for (JwarpConfig.ThreadingMode mode : MODES) {
            try (LoopbackPair.End client = new LoopbackPair.End(config(mode, JwarpConfig.IdleStrategyKind.ADAPTIVE));
                 LoopbackPair.End server = new LoopbackPair.End(config(mode, JwarpConfig.IdleStrategyKind.ADAPTIVE));
                 Listener l = server.device.connectionManager().listen(new InetSocketAddress(LO, 0), 4,
                         server.events)) {
                for (int i = 0; i < 3; i++) {
                    connectOnce(client, server, l.localAddress());
                }
                boolean acceptor = Thread.getAllStackTraces().keySet().stream()
                        .anyMatch(t -> t.getName().startsWith("jwarp-listener"));
                assertFalse(acceptor, mode + ": a thread of the listener's own");
            }
        }
    }

    /** An engine that never sleeps (spinning, or a thread polling in hybrid mode) still sees its listener. */
    @Test
    void aBusyEngineStillAccepts() throws Exception {
        try (LoopbackPair.End client = new LoopbackPair.End(config(JwarpConfig.ThreadingMode.DEDICATED,
                JwarpConfig.IdleStrategyKind.BACKOFF));
             LoopbackPair.End server = new LoopbackPair.End(config(JwarpConfig.ThreadingMode.DEDICATED,
                     JwarpConfig.IdleStrategyKind.SPIN));
             Listener l = server.device.connectionManager().listen(new InetSocketAddress(LO, 0), 4, server.events)) {
            for (int i = 0; i < 5; i++) {
                connectOnce(client, server, l.localAddress());
            }
        }
        try (LoopbackPair.End client = new LoopbackPair.End(config(JwarpConfig.ThreadingMode.DEDICATED,
                JwarpConfig.IdleStrategyKind.BACKOFF));
             LoopbackPair.End server = new LoopbackPair.End(config(JwarpConfig.ThreadingMode.HYBRID,
                     JwarpConfig.IdleStrategyKind.ADAPTIVE));
             Listener l = server.device.connectionManager().listen(new InetSocketAddress(LO, 0), 4, server.events)) {
            AtomicBoolean stop = new AtomicBoolean();
            WorkCompletion[] wcs = {new WorkCompletion()};
            Thread poller = Thread.ofPlatform().start(() -> {
                while (!stop.get()) {
                    server.cq.poll(wcs, 1);             // each poll runs an engine cycle: the engine never sleeps
                }
            });
            try {
                for (int i = 0; i < 5; i++) {
                    connectOnce(client, server, l.localAddress());
                }
            } finally {
                stop.set(true);
                poller.join();
            }
        }
    }

    @Test
    void aClosedListenersPortIsFreeWhenCloseReturns() throws Exception {
        for (JwarpConfig.ThreadingMode mode : MODES) {
            try (LoopbackPair.End client = new LoopbackPair.End(config(mode, JwarpConfig.IdleStrategyKind.ADAPTIVE));
                 LoopbackPair.End server = new LoopbackPair.End(config(mode, JwarpConfig.IdleStrategyKind.ADAPTIVE))) {
                Listener first = server.device.connectionManager().listen(new InetSocketAddress(LO, 0), 4,
                        server.events);
                InetSocketAddress at = first.localAddress();
                connectOnce(client, server, at);
                first.close();
                for (int round = 0; round < 3; round++) {
                    try (Listener again = server.device.connectionManager().listen(at, 4, server.events)) {
                        assertEquals(at, again.localAddress());
                        connectOnce(client, server, at);
                    }
                }
            }
        }
    }

    @Test
    void closingTheDeviceClosesItsListeners() throws Exception {
        InetSocketAddress at;
        try (LoopbackPair.End server = new LoopbackPair.End(config(JwarpConfig.ThreadingMode.HYBRID,
                JwarpConfig.IdleStrategyKind.ADAPTIVE))) {
            Listener l = server.device.connectionManager().listen(new InetSocketAddress(LO, 0), 4, server.events);
            at = l.localAddress();
        }
        try (java.nio.channels.ServerSocketChannel s = java.nio.channels.ServerSocketChannel.open()) {
            s.bind(at);
            assertTrue(s.isOpen(), "the port was free once the device closed");
        }
    }
}
