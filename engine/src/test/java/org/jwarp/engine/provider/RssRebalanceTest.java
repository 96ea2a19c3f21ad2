package org.jwarp.engine.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.jwarp.engine.rss.Rebalancer;
import org.jwarp.engine.rss.RssConfig;
import org.jwarp.verbs.AcceptParams;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.CmEvent;
import org.jwarp.verbs.ConnectParams;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.MemoryRegion;
import org.jwarp.verbs.PostStatus;
import org.jwarp.verbs.QueuePair;
import org.jwarp.verbs.RdmaDevice;
import org.jwarp.verbs.RecvWr;
import org.jwarp.verbs.SendWr;
import org.jwarp.verbs.WcOpcode;
import org.jwarp.verbs.WcStatus;
import org.jwarp.verbs.WorkCompletion;
import org.jwarp.verbs.WrOpcode;

/**
 * Rebalancing moves connections between engine threads under traffic (seed 004: rewrite a table
 * entry, move its connections): every SEND and every receive completes exactly once, in order per
 * QP, with the bytes that were sent, while both sides' entries flip between the two engine
 * threads again and again.
 */
class RssRebalanceTest {

    static final int CONNECTIONS = 8;
    static final int ROUNDS = 30;
    /** Messages in flight per QP and round (within the queue depths). */
    static final int BATCH = 16;
    static final int SIZE = 256;
    /** Devices of two dedicated engine threads, steered by RSS. */
    static final DeviceConfig TWO_ENGINES = DeviceConfig.builder().provider(SuiteConfig.jwarp()
            .threadingMode(JwarpConfig.ThreadingMode.DEDICATED).engineThreads(2).build()).build();

    @Test
    void connectionsMoveBetweenEngineThreadsUnderTrafficAndNothingIsLostRepeatedOrReordered() throws Exception {
        try (LoopbackPair.End client = new LoopbackPair.End(TWO_ENGINES);
             LoopbackPair.End server = new LoopbackPair.End(TWO_ENGINES)) {
            var listener = listen(server);
            List<JwarpQp> cqps = new ArrayList<>();
            List<JwarpQp> sqps = new ArrayList<>();
            for (int i = 0; i < CONNECTIONS; i++) {
                JwarpQp[] pair = connect(client, server, listener);
                cqps.add(pair[0]);
                sqps.add(pair[1]);
                assertTrue(pair[0].rssEntry() >= 0 && pair[1].rssEntry() >= 0, "steered by RSS");
            }
            MemoryRegion out = client.register((long) CONNECTIONS * BATCH * SIZE, Access.LOCAL_WRITE);
            MemoryRegion in = server.register((long) CONNECTIONS * BATCH * SIZE, Access.LOCAL_WRITE);
            Map<Integer, Integer> qpIndex = new HashMap<>();
            for (int i = 0; i < CONNECTIONS; i++) {
                qpIndex.put(cqps.get(i).qpNum(), i);
                qpIndex.put(sqps.get(i).qpNum(), i);
            }
            long[] nextSendDone = new long[CONNECTIONS];
            long[] nextRecvDone = new long[CONNECTIONS];
            int moves = 0;
            for (int round = 0; round < ROUNDS; round++) {
                for (int i = 0; i < CONNECTIONS; i++) {
                    for (int b = 0; b < BATCH; b++) {
                        long seq = (long) round * BATCH + b;
                        long slot = ((long) i * BATCH + b) * SIZE;
                        assertEquals(PostStatus.OK, sqps.get(i).postRecv(new RecvWr().wrId(seq).addSge(in, slot, SIZE)));
                        for (int k = 0; k < SIZE; k += 8) {
                            out.segment().set(ValueLayout.JAVA_LONG_UNALIGNED, slot + k, seq * 1_000_003L + i * 31L + k);
                        }
                        assertEquals(PostStatus.OK, cqps.get(i).postSend(new SendWr().wrId(seq).opcode(WrOpcode.SEND)
                                .signaled(true).addSge(out, slot, SIZE)));
                    }
                }
                // with the round's messages in flight: every entry of both sides flips engine thread
                for (JwarpQp q : cqps) {
                    moves += ((JwarpDevice) client.device).moveEntry(q.rssEntry(), 1 - q.worker().index());
                }
                for (JwarpQp q : sqps) {
                    moves += ((JwarpDevice) server.device).moveEntry(q.rssEntry(), 1 - q.worker().index());
                }
                int expected = 2 * CONNECTIONS * BATCH;
                for (int n = 0; n < expected; n++) {
                    WorkCompletion wc = n % 2 == 0 ? nextOf(client, server) : nextOf(server, client);
                    assertSame(WcStatus.SUCCESS, wc.status(), wc.toString());
                    int i = qpIndex.get(wc.qpNum());
                    if (wc.opcode() == WcOpcode.SEND) {
                        assertEquals(nextSendDone[i]++, wc.wrId(), "SENDs of QP " + i + " complete once, in order");
                    } else {
                        assertSame(WcOpcode.RECV, wc.opcode());
                        long seq = nextRecvDone[i]++;
                        assertEquals(seq, wc.wrId(), "receives of QP " + i + " complete once, in order");
                        assertEquals(SIZE, wc.byteLen());
                        long slot = ((long) i * BATCH + seq % BATCH) * SIZE;
                        for (int k = 0; k < SIZE; k += 8) {
                            assertEquals(seq * 1_000_003L + i * 31L + k,
                                    in.segment().get(ValueLayout.JAVA_LONG_UNALIGNED, slot + k), "QP " + i + " message " + seq);
                        }
                    }
                }
            }
            for (int i = 0; i < CONNECTIONS; i++) {
                assertEquals((long) ROUNDS * BATCH, nextSendDone[i]);
                assertEquals((long) ROUNDS * BATCH, nextRecvDone[i]);
            }
            assertTrue(moves >= ROUNDS * CONNECTIONS, "QPs moved: " + moves);
            listener.close();
        }
    }

    /**
     * The rebalancer's look: of two busy entries on one engine thread and none on the other, the
     * busier one moves (it narrows the gap without swapping the roles); a quiet period moves nothing.
     */
    @Test
    void theRebalancerMovesTheBusiestEntryThatNarrowsTheGap() throws Exception {
        try (LoopbackPair.End client = new LoopbackPair.End(TWO_ENGINES);
             LoopbackPair.End server = new LoopbackPair.End(TWO_ENGINES)) {
            var listener = listen(server);
            // connect until two connections of distinct entries sit on the client's engine thread 0
            List<JwarpQp> onZero = new ArrayList<>();
            List<JwarpQp> peers = new ArrayList<>();
            for (int tries = 0; onZero.size() < 2 && tries < 64; tries++) {
                JwarpQp[] pair = connect(client, server, listener);
                JwarpQp jc = pair[0];
                if (jc.worker().index() == 0 && onZero.stream().noneMatch(q -> q.rssEntry() == jc.rssEntry())) {
                    onZero.add(jc);
                    peers.add(pair[1]);
                }
            }
            assertEquals(2, onZero.size(), "two connections of distinct entries on engine thread 0");
            JwarpDevice dev = (JwarpDevice) client.device;
            Rebalancer rebalancer = new Rebalancer(dev, RssConfig.DEFAULT.withRebalance(
                    RssConfig.Rebalance.THRESHOLD, java.time.Duration.ofSeconds(1), 1.5));
            assertEquals(0, rebalancer.look(), "the first look only takes the baseline");
            // 3 messages on the first connection, 1 on the second: the first entry is the busier
            MemoryRegion out = client.register(4096, Access.LOCAL_WRITE);
            MemoryRegion in = server.register(4096, Access.LOCAL_WRITE);
            int[] messages = {3, 1};
            for (int k = 0; k < 2; k++) {
                for (int m = 0; m < messages[k]; m++) {
                    assertEquals(PostStatus.OK, peers.get(k).postRecv(new RecvWr().wrId(m).addSge(in, 0, 4096)));
                    assertEquals(PostStatus.OK, onZero.get(k).postSend(new SendWr().wrId(m).opcode(WrOpcode.SEND)
                            .signaled(true).addSge(out, 0, 4096)));
                }
            }
            for (int n = 0; n < 2 * (messages[0] + messages[1]); n++) {
                WorkCompletion wc = n % 2 == 0 ? nextOf(client, server) : nextOf(server, client);
                assertSame(WcStatus.SUCCESS, wc.status(), wc.toString());
            }
            long movesBefore = dev.engineCounters().get(1).get(org.jwarp.verbs.CounterNames.RSS_MOVES_IN);
            JwarpQp moved = onZero.get(0);
            // an entry moves with every QP on it: a connection made while looking for two entries may
            // share the busier one's
            long onEntry = dev.openQps().stream().filter(q -> q.rssEntry() == moved.rssEntry()).count();
            assertEquals(onEntry, rebalancer.look(), "the busier entry moves, with every QP on it");
            long deadline = System.nanoTime() + LoopbackPair.WAIT.toNanos();
            while (dev.engineCounters().get(1).get(org.jwarp.verbs.CounterNames.RSS_MOVES_IN) < movesBefore + onEntry
                    && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertEquals(1, moved.worker().index());
            assertEquals(0, onZero.get(1).worker().index(), "the other entry stays");
            assertEquals(movesBefore + onEntry,
                    dev.engineCounters().get(1).get(org.jwarp.verbs.CounterNames.RSS_MOVES_IN));
            assertEquals(0, rebalancer.look(), "nothing moved in a quiet period");
            // the moved connection still carries data
            assertEquals(PostStatus.OK, peers.get(0).postRecv(new RecvWr().wrId(99).addSge(in, 0, 64)));
            assertEquals(PostStatus.OK, moved.postSend(new SendWr().wrId(99).opcode(WrOpcode.SEND).signaled(true)
                    .addSge(out, 0, 64)));
            for (int n = 0; n < 2; n++) {
                WorkCompletion wc = n % 2 == 0 ? nextOf(client, server) : nextOf(server, client);
                assertSame(WcStatus.SUCCESS, wc.status(), wc.toString());
                assertEquals(99, wc.wrId());
            }
            listener.close();
        }
    }

    /** A device with a rebalancer runs its thread while open and ends it on close. */
    @Test
    void theRebalancerThreadEndsWithItsDevice() {
        DeviceConfig rebalancing = SuiteConfig.withJwarp(TWO_ENGINES, j -> j.rss(RssConfig.DEFAULT.withRebalance(
                RssConfig.Rebalance.PERIODIC, java.time.Duration.ofMillis(10), 1.5)));
        RdmaDevice dev = RdmaDevice.open(rebalancing);
        String name = "jwarp-rebalancer-" + ((JwarpDevice) dev).index();
        assertTrue(threadNamed(name), "the rebalancer runs");
        dev.close();
        assertTrue(!threadNamed(name), "the rebalancer ended with the device");
    }

    private static boolean threadNamed(String name) {
        return Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().equals(name) && t.isAlive());
    }

    /** A listener of {@code server} on a free loopback port. */
    static org.jwarp.verbs.Listener listen(LoopbackPair.End server) {
        return server.device.connectionManager().listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 32,
                server.events);
    }

    /** A new QP on each side, connected through {@code listener}: {client QP, server QP}. */
    static JwarpQp[] connect(LoopbackPair.End client, LoopbackPair.End server, org.jwarp.verbs.Listener listener)
            throws InterruptedException {
        QueuePair c = client.device.createQp(client.pd, client.qp.initAttr());
        QueuePair s = server.device.createQp(server.pd, server.qp.initAttr());
        client.device.connectionManager().connect(listener.localAddress(), c, ConnectParams.of(new byte[0]),
                client.events);
        server.events.expect(CmEvent.ConnectRequest.class, LoopbackPair.WAIT, server.device).request()
                .accept(s, AcceptParams.of(new byte[0]));
        client.events.expect(CmEvent.Established.class, LoopbackPair.WAIT, client.device);
        server.events.expect(CmEvent.Established.class, LoopbackPair.WAIT, server.device);
        return new JwarpQp[] {(JwarpQp) c, (JwarpQp) s};
    }

    /** The next completion of {@code first}'s CQ, or else of {@code other}'s, whichever comes (one polled at a time). */
    private static WorkCompletion nextOf(LoopbackPair.End first, LoopbackPair.End other) {
        long deadline = System.nanoTime() + LoopbackPair.WAIT.toNanos();
        while (true) {
            if (first.cq.poll(first.wcs, 1) == 1) {
                return new WorkCompletion().copyFrom(first.wcs[0]);
            }
            if (other.cq.poll(other.wcs, 1) == 1) {
                return new WorkCompletion().copyFrom(other.wcs[0]);
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("no completion within " + LoopbackPair.WAIT);
            }
            Thread.onSpinWait();
        }
    }
}
