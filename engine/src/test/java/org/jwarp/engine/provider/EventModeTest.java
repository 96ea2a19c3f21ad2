package org.jwarp.engine.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jwarp.verbs.CmEvent;
import org.jwarp.verbs.CompletionQueue;
import org.jwarp.verbs.ConnectParams;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.Listener;
import org.jwarp.verbs.RecvWr;
import org.jwarp.verbs.SendFlags;
import org.jwarp.verbs.SendWr;
import org.jwarp.verbs.WrOpcode;
import org.junit.jupiter.api.Test;

/** Event notification ("interrupt emulation"): a blocked waiter wakes for the completions it armed for. */
class EventModeTest {

    @Test
    void aBlockedWaiterWakesForACompletion() throws Exception {
        try (LoopbackPair p = new LoopbackPair(LoopbackPair.dedicated(), LoopbackPair.dedicated(), new byte[0],
                new byte[0])) {
            p.server.qp.postRecv(new RecvWr().wrId(1));
            p.server.cq.requestNotify(false);
            CompletableFuture<CompletionQueue> woken = CompletableFuture.supplyAsync(() -> {
                try {
                    return p.server.channel.await(20, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            p.client.qp.postSend(new SendWr().wrId(2).opcode(WrOpcode.SEND));
            assertSame(p.server.cq, woken.get(30, TimeUnit.SECONDS));
            assertEquals(1, p.server.next().wrId());
        }
    }

    @Test
    void solicitedOnlyWakesOnlyForSolicitedEvents() throws Exception {
        try (LoopbackPair p = new LoopbackPair(LoopbackPair.dedicated(), LoopbackPair.dedicated(), new byte[0],
                new byte[0])) {
            p.server.qp.postRecv(new RecvWr().wrId(1));
            p.server.qp.postRecv(new RecvWr().wrId(2));
            p.server.cq.requestNotify(true);
            p.client.qp.postSend(new SendWr().wrId(3).opcode(WrOpcode.SEND));
            assertEquals(1, p.server.next().wrId()); // the completion is there ...
            assertNull(p.server.channel.tryAwait(), "... but an unsolicited Send raises no event");
            p.client.qp.postSend(new SendWr().wrId(4).opcode(WrOpcode.SEND).flags(SendFlags.SOLICITED));
            assertSame(p.server.cq, p.server.channel.await(20, TimeUnit.SECONDS));
            assertEquals(2, p.server.next().wrId());
        }
    }

    /**
     * In invoker mode the thread waiting on the channel is the engine: its parks must end when data
     * arrives, as an engine thread's do. The server's parks here are a minute long, longer than the
     * wait: a waiter that parked blind would only see the Send after its wait had timed out.
     */
    @Test
    void anInvokerModeWaiterIsTheEngineAndWakesForArrivingData() throws Exception {
        DeviceConfig longParks = DeviceConfig.builder().provider(SuiteConfig.jwarp()
                .threadingMode(JwarpConfig.ThreadingMode.INVOKER).idleStrategy(JwarpConfig.IdleStrategyKind.PARK)
                .backoff(new JwarpConfig.Backoff(0, 0, 60_000_000_000L, 60_000_000_000L)).build())
                .build();
        try (LoopbackPair p = new LoopbackPair(LoopbackPair.dedicated(), longParks, new byte[0], new byte[0])) {
            p.server.qp.postRecv(new RecvWr().wrId(1));
            p.server.cq.requestNotify(false);
            CompletableFuture<CompletionQueue> woken = CompletableFuture.supplyAsync(() -> {
                try {
                    return p.server.channel.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            p.client.qp.postSend(new SendWr().wrId(2).opcode(WrOpcode.SEND));
            assertSame(p.server.cq, woken.get(60, TimeUnit.SECONDS), "the wait ended with the completion's event");
            assertEquals(1, p.server.next().wrId());
        }
    }

    /**
     * Likewise a thread waiting for a CM event in invoker mode: its wait runs the engine, and a
     * connection handed over by the acceptor, or the client's data, ends a minute-long park.
     */
    @Test
    void anInvokerModeCmWaitRunsTheEngine() throws Exception {
        DeviceConfig longParks = DeviceConfig.builder().provider(SuiteConfig.jwarp()
                .threadingMode(JwarpConfig.ThreadingMode.INVOKER).idleStrategy(JwarpConfig.IdleStrategyKind.PARK)
                .backoff(new JwarpConfig.Backoff(0, 0, 60_000_000_000L, 60_000_000_000L)).build())
                .build();
        try (LoopbackPair.End client = new LoopbackPair.End(LoopbackPair.dedicated());
             LoopbackPair.End server = new LoopbackPair.End(longParks);
             Listener l = server.device.connectionManager().listen(
                     new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 4, server.events)) {
            CompletableFuture<CmEvent> request = CompletableFuture.supplyAsync(() -> poll(server));
            client.device.connectionManager().connect(l.localAddress(), client.qp, ConnectParams.of(new byte[0]),
                    client.events);
            CmEvent e = request.get(60, TimeUnit.SECONDS);
            // (the client's RTR is the responder's first FPDU: it makes the server's side established)
            CmEvent.ConnectRequest req = assertInstanceOf(CmEvent.ConnectRequest.class, e);
            req.request().accept(server.qp, new byte[0]);
            assertInstanceOf(CmEvent.Established.class, client.events.poll(LoopbackPair.WAIT));
            assertInstanceOf(CmEvent.Established.class, CompletableFuture.supplyAsync(() -> poll(server))
                    .get(60, TimeUnit.SECONDS));
        }
    }

    private static CmEvent poll(LoopbackPair.End end) {
        try {
            return end.events.poll(Duration.ofSeconds(30), end.device);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void invokerModeCarriesTrafficWithoutEngineThreads() throws Exception {
        try (LoopbackPair p = new LoopbackPair(LoopbackPair.invoker(), LoopbackPair.dedicated(), new byte[0],
                new byte[0])) {
            assertEquals(0, p.client.device.engineCounters().size() - 1, "invoker mode runs one duty cycle");
            ConnectionManagerTest.exchange(p);
        }
    }
}
