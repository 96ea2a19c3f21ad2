package org.jwarp.engine.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.jwarp.engine.runtime.EngineWorker;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.CompletionQueue;
import org.jwarp.verbs.CounterNames;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.MemoryRegion;
import org.jwarp.verbs.PostStatus;
import org.jwarp.verbs.QpState;
import org.jwarp.verbs.RdmaDevice;
import org.jwarp.verbs.SendWr;
import org.jwarp.verbs.WcStatus;
import org.jwarp.verbs.WorkCompletion;
import org.jwarp.verbs.WrOpcode;

/**
 * Parked connections: an engine thread carrying {@link JwarpConfig#readinessFrom()}
 * connections or more visits only those with work. A quiet one is parked, and comes back for a
 * post, for bytes from its peer and for its end; no post is missed however it races the parking.
 */
class ParkingTest {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final int PAIRS = 12;   // over the default threshold of 8 connections per engine thread

    @Test
    void quietConnectionsAreParkedAndComeBackForAPostAndForThePeersBytes() throws Exception {
        try (ManyConnections m = new ManyConnections(LoopbackPair.dedicated())) {
            m.connect(PAIRS);
            Regions r = new Regions(m);
            awaitTrue(() -> visited(m.client) == 0 && visited(m.server) == 0, "every quiet connection parked");
            assertEquals(PAIRS, parkedNow(m.client), "jwarp stat's qps.parked");
            for (int i = 0; i < PAIRS; i += 5) {
                // a post on a parked connection leaves, and completes
                byte b = (byte) (0x40 + i);
                r.clientOut.segment().set(ValueLayout.JAVA_BYTE, i, b);
                assertEquals(PostStatus.OK, m.clientQps.get(i).postSend(r.write(r.clientOut, r.serverIn, i).wrId(i)));
                WorkCompletion wc = next(m.clientCq());
                assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString());
                assertEquals(i, wc.wrId());
                awaitByte(r.serverIn, i, b);
                // bytes from the peer on a parked connection are taken
                byte back = (byte) (0x80 + i);
                r.serverOut.segment().set(ValueLayout.JAVA_BYTE, i, back);
                assertEquals(PostStatus.OK, m.serverQps.get(i).postSend(r.write(r.serverOut, r.clientIn, i).wrId(i)));
                assertEquals(WcStatus.SUCCESS, next(m.serverCq()).status());
                awaitByte(r.clientIn, i, back);
            }
            awaitTrue(() -> visited(m.client) == 0 && visited(m.server) == 0, "parked again once quiet");
        }
    }

    /**
     * One WRITE at a time, each awaited, in runs on one connection after another: once a WRITE has
     * completed, its connection goes quiet and is parked about when the next post arrives, so the
     * posts race the parking. A post the engine missed would never complete.
     */
    @Test
    void noPostIsMissedHoweverItRacesTheParking() throws Exception {
        try (ManyConnections m = new ManyConnections(LoopbackPair.dedicated())) {
            m.connect(PAIRS);
            Regions r = new Regions(m);
            int run = 500;
            int posts = run * PAIRS;
            for (int k = 0; k < posts; k++) {
                int i = k / run;
                byte b = (byte) k;
                r.clientOut.segment().set(ValueLayout.JAVA_BYTE, i, b);
                assertEquals(PostStatus.OK, m.clientQps.get(i).postSend(r.write(r.clientOut, r.serverIn, i).wrId(k)));
                WorkCompletion wc = next(m.clientCq());
                assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString());
                assertEquals(k, wc.wrId(), "completions in post order");
            }
            for (int i = 0; i < PAIRS; i++) {
                awaitByte(r.serverIn, i, (byte) ((i + 1) * run - 1));
            }
        }
    }

    @Test
    void aParkedConnectionThatEndsIsReleasedAndBelowTheThresholdAllAreVisited() throws Exception {
        try (ManyConnections m = new ManyConnections(LoopbackPair.dedicated())) {
            m.connect(PAIRS);
            new Regions(m);
            awaitTrue(() -> visited(m.client) == 0 && visited(m.server) == 0, "every quiet connection parked");
            int closed = 5;
            for (int i = 0; i < closed; i++) {
                m.clientQps.get(i).close();     // a command to the engine: the parked connection ends
            }
            int left = PAIRS - closed;
            awaitTrue(() -> count(m.client) == left, "the closed QPs' connections released");
            for (int i = 0; i < closed; i++) {
                int at = i;
                // the peer's end arrives on a parked connection: readiness brings it back to end it
                awaitTrue(() -> m.serverQps.get(at).state() == QpState.ERROR, "server QP " + at + " sees the end");
            }
            // below the threshold every connection is visited again, each cycle
            awaitTrue(() -> visited(m.client) == left, "all " + left + " connections visited below the threshold");
            assertEquals(0, parkedNow(m.client), "none parked below the threshold");
        }
    }

    /**
     * Rebalancing moves parked connections to the other engine thread: each one serves its next
     * post there, and its peer's bytes, and parks again on its new thread.
     */
    @Test
    void aParkedConnectionMovedToAnotherEngineThreadServesItsNextPostThere() throws Exception {
        // every thread parks from its first connection
        DeviceConfig config = SuiteConfig.withJwarp(RssRebalanceTest.TWO_ENGINES, j -> j.readinessFrom(1));
        try (LoopbackPair.End client = new LoopbackPair.End(config);
             LoopbackPair.End server = new LoopbackPair.End(config)) {
            var listener = RssRebalanceTest.listen(server);
            int pairs = 4;
            JwarpQp[][] qps = new JwarpQp[pairs][];
            for (int i = 0; i < pairs; i++) {
                qps[i] = RssRebalanceTest.connect(client, server, listener);
            }
            int access = Access.LOCAL_WRITE | Access.REMOTE_WRITE;
            MemoryRegion clientMr = client.register(pairs, access);
            MemoryRegion serverMr = server.register(pairs, access);
            awaitTrue(() -> visited(client.device) == 0 && visited(server.device) == 0, "every quiet connection parked");
            int[] target = new int[pairs];
            for (int i = 0; i < pairs; i++) {
                target[i] = 1 - qps[i][0].worker().index();
            }
            for (int i = 0; i < pairs; i++) {
                // two QPs of one RSS entry move together: the second one's move finds it there
                ((JwarpDevice) client.device).moveEntry(qps[i][0].rssEntry(), target[i]);
            }
            for (int i = 0; i < pairs; i++) {
                JwarpQp c = qps[i][0];
                int to = target[i];
                awaitTrue(() -> c.worker().index() == to, "QP " + i + " moved to the other thread");
            }
            for (int i = 0; i < pairs; i++) {
                byte b = (byte) (0x10 + i);
                clientMr.segment().set(ValueLayout.JAVA_BYTE, i, b);
                assertEquals(PostStatus.OK, qps[i][0].postSend(new SendWr().opcode(WrOpcode.RDMA_WRITE).signaled(true)
                        .wrId(i).addSge(clientMr, i, 1).remote(serverMr.iova() + i, serverMr.rkey())));
                WorkCompletion wc = client.next();
                assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString());
                assertEquals(i, wc.wrId());
                awaitByte(serverMr, i, b);
                byte back = (byte) (0x20 + i);
                serverMr.segment().set(ValueLayout.JAVA_BYTE, i, back);
                // the server's WRITE lands in the client's region: read on the connection's new thread
                assertEquals(PostStatus.OK, qps[i][1].postSend(new SendWr().opcode(WrOpcode.RDMA_WRITE).signaled(true)
                        .wrId(i).addSge(serverMr, i, 1).remote(clientMr.iova() + i, clientMr.rkey())));
                assertEquals(WcStatus.SUCCESS, server.next().status());
                awaitByte(clientMr, i, back);
            }
            awaitTrue(() -> visited(client.device) == 0, "parked again on their new threads");
            listener.close();
        }
    }

    /** Connections the device's engine threads visit, each asked on its own thread. */
    private static int visited(RdmaDevice device) {
        JwarpDevice d = (JwarpDevice) device;
        int sum = 0;
        for (EngineWorker w : d.engines().workers()) {
            int[] n = {-1};
            d.runOnEngine(w, () -> n[0] = w.activeCount());
            sum += n[0];
        }
        return sum;
    }

    /** The engine threads' {@code qps.parked}, as {@code jwarp stat} shows it. */
    private static long parkedNow(RdmaDevice device) {
        return device.engineCounters().stream().mapToLong(c -> c.get(CounterNames.QPS_PARKED)).sum();
    }

    private static int count(RdmaDevice device) {
        try {
            return ((JwarpDevice) device).connectionCount();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    private static void awaitTrue(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, what + ": not within " + WAIT);
            Thread.onSpinWait();
        }
    }

    private static void awaitByte(MemoryRegion mr, int at, byte value) {
        awaitTrue(() -> mr.segment().get(ValueLayout.JAVA_BYTE, at) == value, "byte " + at + " placed");
    }

    private static WorkCompletion next(CompletionQueue cq) {
        WorkCompletion[] wcs = {new WorkCompletion()};
        awaitTrue(() -> cq.poll(wcs, 1) == 1, "a completion");
        return wcs[0];
    }

    /** A region on each side to WRITE from and one to WRITE into, one byte per connection. */
    private static final class Regions {
        final MemoryRegion clientOut;
        final MemoryRegion clientIn;
        final MemoryRegion serverOut;
        final MemoryRegion serverIn;

        Regions(ManyConnections m) {
            int access = Access.LOCAL_WRITE | Access.REMOTE_WRITE;
            clientOut = m.clientPd.registerMemory(Arena.ofAuto().allocate(PAIRS), access);
            clientIn = m.clientPd.registerMemory(Arena.ofAuto().allocate(PAIRS), access);
            serverOut = m.serverPd.registerMemory(Arena.ofAuto().allocate(PAIRS), access);
            serverIn = m.serverPd.registerMemory(Arena.ofAuto().allocate(PAIRS), access);
        }

        /** A signaled 1-byte WRITE of {@code from[at]} into {@code to[at]}. */
        SendWr write(MemoryRegion from, MemoryRegion to, int at) {
            return new SendWr().opcode(WrOpcode.RDMA_WRITE).signaled(true).addSge(from, at, 1)
                    .remote(to.iova() + at, to.rkey());
        }
    }
}
