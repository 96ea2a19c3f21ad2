package org.jwarp.engine.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.jwarp.verbs.AcceptParams;
import org.jwarp.verbs.CmEvent;
import org.jwarp.verbs.CmEventHandler;
import org.jwarp.verbs.CmEventQueue;
import org.jwarp.verbs.CompletionQueue;
import org.jwarp.verbs.ConnectParams;
import org.jwarp.verbs.Listener;
import org.jwarp.verbs.ProtectionDomain;
import org.jwarp.verbs.QpInitAttr;
import org.jwarp.verbs.QueuePair;
import org.jwarp.verbs.RdmaDevice;

/**
 * HYBRID mode: a thread that waits for a CM event holds the engine (it runs the duty cycle and
 * sleeps in the engine's I/O driver), so the bytes that bring the event wake the thread that waits
 * for it: the client's Established is delivered on the thread waiting for it.
 */
class WaitInEngineTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    /** Queues events and notes the thread Established was delivered on. */
    private static final class Recording implements CmEventHandler {
        final CmEventQueue queue = new CmEventQueue();
        final AtomicReference<Thread> establishedOn = new AtomicReference<>();

        @Override
        public void onCmEvent(CmEvent event) {
            if (event instanceof CmEvent.Established) {
                establishedOn.compareAndSet(null, Thread.currentThread());
            }
            queue.onCmEvent(event);
        }
    }

    @Test
    void theReplyWakesTheThreadWaitingForEstablished() throws Exception {
        try (RdmaDevice server = RdmaDevice.open(HybridModeTest.hybrid());
             RdmaDevice client = RdmaDevice.open(HybridModeTest.hybrid())) {
            assertTrue(client.waitsInEngine(), "a hybrid device's waits run its engine");
            ProtectionDomain spd = server.allocPd();
            CompletionQueue scq = server.createCq(16, null);
            ProtectionDomain cpd = client.allocPd();
            CompletionQueue ccq = client.createCq(16, null);
            Recording serverEvents = new Recording();
            Recording clientEvents = new Recording();
            try (Listener listener = server.connectionManager().listen(new InetSocketAddress("127.0.0.1", 0), 4,
                    serverEvents)) {
                QueuePair cqp = client.createQp(cpd, QpInitAttr.builder(ccq, ccq).build());
                client.connectionManager().connect(listener.localAddress(), cqp, ConnectParams.of(new byte[8]),
                        clientEvents);
                CmEvent.ConnectRequest r = assertInstanceOf(CmEvent.ConnectRequest.class,
                        serverEvents.queue.poll(WAIT, server));
                QueuePair sqp = server.createQp(spd, QpInitAttr.builder(scq, scq).build());
                // the server accepts from inside the client's wait, once this thread holds the client's engine
                boolean[] accepted = {false};
                assertTrue(client.invokeUntil(() -> {
                    if (!accepted[0]) {
                        accepted[0] = true;
                        r.request().accept(sqp, AcceptParams.of(new byte[8]));
                    }
                    return clientEvents.queue.size() > 0;
                }, WAIT.toNanos(), TimeUnit.NANOSECONDS), "the client's event came");
                CmEvent e = clientEvents.queue.poll();
                assertInstanceOf(CmEvent.Established.class, e, String.valueOf(e));
                assertSame(Thread.currentThread(), clientEvents.establishedOn.get(),
                        "the Reply woke the thread waiting for Established");
                assertInstanceOf(CmEvent.Established.class, serverEvents.queue.poll(WAIT, server));
                sqp.close();
                cqp.close();
            }
        }
    }

    /**
     * A thread waiting for a CM event while another thread polls a CQ (and so runs the duty
     * cycles) stands aside: it parks, rather than contend for the cycles and take a CPU from the
     * poller. Its CPU time over the poll is the property: parked, a few cycles a millisecond at
     * most; contending, most of a CPU.
     */
    @Test
    void aWaiterStandsAsideWhileAnotherThreadPolls() throws Exception {
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        org.junit.jupiter.api.Assumptions.assumeTrue(mx.isCurrentThreadCpuTimeSupported(), "thread CPU time");
        try (RdmaDevice device = RdmaDevice.open(HybridModeTest.hybrid())) {
            CompletionQueue cq = device.createCq(16, null);
            CmEventQueue nothing = new CmEventQueue();
            java.util.concurrent.CountDownLatch waiting = new java.util.concurrent.CountDownLatch(1);
            Thread waiter = Thread.ofPlatform().name("cm-waiter").start(() -> {
                try {
                    waiting.countDown();
                    nothing.poll(Duration.ofSeconds(3), device);        // no event comes
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            waiting.await();
            org.jwarp.verbs.WorkCompletion[] wcs = {new org.jwarp.verbs.WorkCompletion()};
            long end = System.nanoTime() + 200_000_000L;
            while (System.nanoTime() < end) {
                cq.poll(wcs);                                          // warm: both threads settle
            }
            long cpu0 = mx.getThreadCpuTime(waiter.threadId());
            long t0 = System.nanoTime();
            end = t0 + 600_000_000L;
            while (System.nanoTime() < end) {
                cq.poll(wcs);
            }
            long cpu = mx.getThreadCpuTime(waiter.threadId()) - cpu0;
            long wall = System.nanoTime() - t0;
            waiter.interrupt();
            waiter.join(5_000);
            assertTrue(cpu < wall / 5, "the waiting thread used " + cpu / 1_000_000 + " ms of CPU in "
                    + wall / 1_000_000 + " ms of another thread's polling");
        }
    }

    /**
     * A thread waiting on a completion channel holds the engine too: the Sends that complete its
     * receives wake that thread, which reads them itself, while the server's standby engine thread
     * sleeps. The property is the standby's CPU time over a ping-pong whose server only waits on
     * its channel: a small part of the waiting thread's (were the standby reading the messages
     * and waking the waiter, it would be about as large).
     */
    @Test
    void aThreadWaitingOnAChannelReadsItsMessagesItself() throws Exception {
        assumeThreadCpuTime();
        try (LoopbackPair p = new LoopbackPair(HybridModeTest.hybrid(), HybridModeTest.hybrid(), new byte[0],
                new byte[0])) {
            long[] cpu = channelPingPong(p, 500, 3_000, standbyOf(p.server.device));
            assertTrue(cpu[1] < cpu[0] / 4, "the server's standby used " + cpu[1] / 1_000_000
                    + " ms of CPU, the thread waiting on the channel " + cpu[0] / 1_000_000 + " ms");
        }
    }

    /**
     * Of two threads waiting on channels, the one whose waits are answered takes the engine when it
     * waits again, ahead of one waiting on an idle channel that came first: the idle channel's
     * waiter then sleeps through the traffic instead of waking for each message to read it and
     * hand it over. The property is its CPU time over the ping-pong, against the busy waiter's.
     */
    @Test
    void theWaiterWhoseWaitsAreAnsweredRunsTheEngineAheadOfAnIdleChannelsWaiter() throws Exception {
        assumeThreadCpuTime();
        try (LoopbackPair p = new LoopbackPair(HybridModeTest.hybrid(), HybridModeTest.hybrid(), new byte[0],
                new byte[0])) {
            org.jwarp.verbs.CompletionChannel idleChannel = p.server.device.createCompletionChannel(
                    org.jwarp.verbs.Moderation.NONE);
            CompletionQueue idleCq = p.server.device.createCq(16, idleChannel);
            idleCq.requestNotify(false);
            java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
            java.util.concurrent.CountDownLatch holding = new java.util.concurrent.CountDownLatch(1);
            Thread idle = Thread.ofPlatform().name("idle-channel-waiter").start(() -> {
                try {
                    holding.countDown();
                    while (!stop.get()) {
                        idleChannel.await(20, TimeUnit.MILLISECONDS);   // no event comes
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            holding.await();
            Thread.sleep(50);                                          // it holds the engine first
            long[] cpu = channelPingPong(p, 1_000, 3_000, idle);
            if (cpu[1] >= cpu[0] / 2) {
                // a pause of the busy waiter (a compilation, a collection, the host) lets the idle one
                // take the engine for a while: the property is the steady state, so one more run
                cpu = channelPingPong(p, 1_000, 3_000, idle);
            }
            stop.set(true);
            idle.join(5_000);
            assertTrue(cpu[1] < cpu[0] / 2, "the idle channel's waiter used " + cpu[1] / 1_000_000
                    + " ms of CPU, the thread whose waits were answered " + cpu[0] / 1_000_000 + " ms");
            idleCq.close();
            idleChannel.close();
        }
    }

    private static void assumeThreadCpuTime() {
        org.junit.jupiter.api.Assumptions.assumeTrue(
                java.lang.management.ManagementFactory.getThreadMXBean().isThreadCpuTimeSupported(), "thread CPU time");
    }

    /**
     * A SEND ping-pong of {@code warmUp + rounds} messages whose server thread only waits on its
     * channel; returns the CPU time the server thread and {@code watched} used over the last
     * {@code rounds}, in that order.
     */
    private static long[] channelPingPong(LoopbackPair p, int warmUp, int rounds, Thread watched) throws Exception {
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        int total = warmUp + rounds;
        long[] cpu = new long[2];
        java.util.concurrent.CountDownLatch warm = new java.util.concurrent.CountDownLatch(1);
        // the first receive before the first Send: one that finds none ends the stream (RFC 5041 §7.2)
        p.server.qp.postRecv(new org.jwarp.verbs.RecvWr().wrId(0));
        java.util.concurrent.CompletableFuture<Void> server = java.util.concurrent.CompletableFuture.runAsync(() -> {
            long cpu0 = 0;
            try {
                for (int i = 0; i < total; i++) {
                    if (i == warmUp) {
                        cpu0 = mx.getCurrentThreadCpuTime();
                        warm.countDown();
                    }
                    p.server.cq.requestNotify(false);
                    while (p.server.cq.poll(p.server.wcs, 1) == 0) {
                        assertSame(p.server.cq, p.server.channel.await(WAIT.toNanos(), TimeUnit.NANOSECONDS),
                                "no event for receive " + i);
                        p.server.cq.requestNotify(false);
                    }
                    // the next receive before the reply, for the same reason
                    p.server.qp.postRecv(new org.jwarp.verbs.RecvWr().wrId(i + 1));
                    p.server.qp.postSend(new org.jwarp.verbs.SendWr().wrId(i).opcode(org.jwarp.verbs.WrOpcode.SEND));
                }
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            cpu[0] = mx.getCurrentThreadCpuTime() - cpu0;
        }, r -> Thread.ofPlatform().name("channel-waiter").start(r));
        long watched0 = 0;
        for (int i = 0; i < total; i++) {
            if (i == warmUp) {
                warm.await();
                watched0 = mx.getThreadCpuTime(watched.threadId());
            }
            p.client.qp.postRecv(new org.jwarp.verbs.RecvWr().wrId(i));
            p.client.qp.postSend(new org.jwarp.verbs.SendWr().wrId(i).opcode(org.jwarp.verbs.WrOpcode.SEND));
            org.jwarp.verbs.WorkCompletion wc = p.client.next();
            if (wc.wrId() != i) {
                throw new AssertionError("the reply's receive (the Sends are unsignaled) " + i + ": " + wc
                        + "; server QP " + p.server.qp.state() + " " + p.server.qp.counters() + "; client QP "
                        + p.client.qp.state() + " " + p.client.qp.counters());
            }
        }
        server.get(60, TimeUnit.SECONDS);
        cpu[1] = mx.getThreadCpuTime(watched.threadId()) - watched0;
        return cpu;
    }

    /** The standby engine thread of {@code device} (a hybrid device has one). */
    private static Thread standbyOf(RdmaDevice device) {
        String name = "jwarp-engine-standby-" + ((JwarpDevice) device).index();
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no thread " + name));
    }
}
