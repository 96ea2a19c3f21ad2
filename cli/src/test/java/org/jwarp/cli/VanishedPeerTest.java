package org.jwarp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.FutureTask;
import org.jwarp.degen.LinkParams;
import org.jwarp.degen.RouterTuning;
import org.jwarp.degen.sys.Ip;
import org.jwarp.degen.sys.Libc;
import org.jwarp.degen.sys.Netns;
import org.jwarp.degen.testbed.Emulator;
import org.jwarp.degen.testbed.Testbed;
import org.jwarp.degen.testbed.Topology;
import org.jwarp.engine.provider.JwarpConfig;
import org.jwarp.verbs.AcceptParams;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.CmEvent;
import org.jwarp.verbs.CmEventQueue;
import org.jwarp.verbs.CompletionQueue;
import org.jwarp.verbs.ConnectParams;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.Listener;
import org.jwarp.verbs.MemoryRegion;
import org.jwarp.verbs.PostStatus;
import org.jwarp.verbs.ProtectionDomain;
import org.jwarp.verbs.QpInitAttr;
import org.jwarp.verbs.QpState;
import org.jwarp.verbs.QueuePair;
import org.jwarp.verbs.RdmaDevice;
import org.jwarp.verbs.RecvWr;
import org.jwarp.verbs.SendWr;
import org.jwarp.verbs.WcStatus;
import org.jwarp.verbs.WorkCompletion;
import org.jwarp.verbs.WrOpcode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A peer whose host dies sends no FIN and no RST. Host B (the testbed's, a veth pair, no delay)
 * is cut off by taking its link down, under two connections of host A: one with WRITEs and READs
 * posted after the cut (data that will never be acknowledged, answers that will never come) and
 * one idle with a receive posted. Within
 * the device's peer timeout (4 s here) plus slack, both of A's QPs reach ERROR, every work request
 * completes exactly once, each connection gives one CM event, and A holds no connection any more.
 */
@Tag("netns")
class VanishedPeerTest {

    private static final String NAME = "jwv" + (ProcessHandle.current().pid() % 100_000);
    private static final Testbed TB = new Testbed(NAME);
    private static final Duration BOUND = Duration.ofSeconds(4);
    /** What the kernel's timers may add to the bound on a loaded machine (probes are whole seconds). */
    private static final Duration SLACK = Duration.ofSeconds(8);
    private static final Duration WAIT = Duration.ofSeconds(20);

    @BeforeAll
    static void up() throws IOException {
        assumeTrue(Libc.geteuid() == 0, "skipped: cutting a host off needs root (network namespaces); CI runs it as root");
        assumeTrue(Ip.onPath("ip"), "skipped: iproute2's 'ip' is not on the PATH");
        TB.up(Emulator.TBF, TB.config(LinkParams.passThrough(), LinkParams.passThrough(), 1500, 1500,
                RouterTuning.DEFAULT, 1), null);
    }

    @AfterAll
    static void down() throws IOException {
        TestbedCleanup.down(TB);
    }

    /** Runs {@code work} on a thread of its own inside network namespace {@code ns} (sockets it opens live there). */
    private static <T> T inHost(String ns, Callable<T> work) throws Exception {
        FutureTask<T> task = new FutureTask<>(() -> {
            Netns.enterForThisThread(ns);
            return work.call();
        });
        Thread t = Thread.ofPlatform().name("in-" + ns).start(task);
        t.join();
        return task.get();
    }

    @Test
    void aVanishedPeerIsNoticedWithinThePeerTimeout() throws Exception {
        Topology t = TB.topologyFor(1500, 1500);
        DeviceConfig config = DeviceConfig.builder().provider(JwarpConfig.builder()
                .threadingMode(JwarpConfig.ThreadingMode.DEDICATED).engineThreads(1).build()).peerTimeout(BOUND)
                .build();
        try (RdmaDevice a = RdmaDevice.open(config);
             RdmaDevice b = RdmaDevice.open(config);
             Arena arena = Arena.ofShared()) {
            ProtectionDomain bpd = b.allocPd();
            CompletionQueue bcq = b.createCq(64, null);
            MemoryRegion target = bpd.registerMemory(arena.allocate(1 << 20), Access.LOCAL_WRITE | Access.REMOTE_WRITE);
            CmEventQueue bEvents = new CmEventQueue();
            Listener listener = inHost(t.nsB(), () -> b.connectionManager().listen(
                    new InetSocketAddress(InetAddress.getByName(t.addrB()), 0), 8, bEvents));

            ProtectionDomain apd = a.allocPd();
            CompletionQueue acq = a.createCq(256, null);
            MemoryRegion source = apd.registerMemory(arena.allocate(1 << 20), Access.LOCAL_WRITE);
            List<QueuePair> qps = new ArrayList<>();
            List<CmEventQueue> aEvents = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                QueuePair qp = a.createQp(apd, QpInitAttr.builder(acq, acq).build());
                CmEventQueue events = new CmEventQueue();
                inHost(t.nsA(), () -> {
                    a.connectionManager().connect(listener.localAddress(), qp, ConnectParams.of(new byte[0]), events);
                    return null;
                });
                CmEvent.ConnectRequest r = expect(bEvents, CmEvent.ConnectRequest.class, b);
                r.request().accept(b.createQp(bpd, QpInitAttr.builder(bcq, bcq).build()), AcceptParams.of(new byte[0]),
                        new CmEventQueue());          // B's later events for it: nobody will be there to read them
                expect(events, CmEvent.Established.class, a);
                qps.add(qp);
                aEvents.add(events);
            }
            QueuePair busy = qps.get(0);
            QueuePair idle = qps.get(1);
            assertEquals(PostStatus.OK, idle.postRecv(new RecvWr().wrId(100).addSge(source, 0, 64)));

            Ip.ip("-n", t.nsB(), "link", "set", t.vethB(), "down");    // host B is gone: no FIN, no RST
            long cut = System.nanoTime();
            // WRITEs complete when TCP takes them (iWARP's local completion); the READs need B's answer
            int writes = 8;
            for (int i = 0; i < writes; i++) {
                WrOpcode op = i % 2 == 0 ? WrOpcode.RDMA_WRITE : WrOpcode.RDMA_READ;
                assertEquals(PostStatus.OK, busy.postSend(new SendWr().wrId(i).opcode(op).signaled(true)
                        .addSge(source, 0, 64 * 1024).remote(target.iova(), target.rkey())));
            }

            // every request completes once: the WRITEs, the READs and the idle QP's receive
            int[] seen = new int[writes + 1];
            WorkCompletion[] wcs = {new WorkCompletion()};
            long deadline = cut + BOUND.plus(SLACK).toNanos();
            for (int done = 0; done < writes + 1; ) {
                assertTrue(System.nanoTime() < deadline, "only " + done + " of " + (writes + 1) + " requests completed within "
                        + BOUND.plus(SLACK) + " of the cut");
                if (acq.poll(wcs) == 0) {
                    Thread.sleep(5);
                    continue;
                }
                WorkCompletion wc = wcs[0];
                int slot = wc.wrId() == 100 ? writes : (int) wc.wrId();
                if (wc.wrId() == 100 || wc.wrId() % 2 == 1) {
                    assertTrue(wc.status() != WcStatus.SUCCESS, "a READ or a receive cannot succeed once B is gone: " + wc);
                }
                seen[slot]++;
                done++;
            }
            for (int i = 0; i <= writes; i++) {
                assertEquals(1, seen[i], "request " + i + " completed " + seen[i] + " times");
            }
            for (int i = 0; i < 2; i++) {
                CmEvent e = aEvents.get(i).poll(WAIT, a);
                assertTrue(e instanceof CmEvent.Disconnected d && d.cause() == CmEvent.Disconnected.Cause.CONNECTION_LOST,
                        "QP " + i + ": " + e);
                assertEquals(null, aEvents.get(i).poll(Duration.ofMillis(100), a), "one event per connection");
                assertSame(QpState.ERROR, qps.get(i).state());
            }
            long took = System.nanoTime() - cut;
            assertTrue(took < BOUND.plus(SLACK).toNanos(), "noticed after " + took / 1_000_000 + " ms");
            for (QueuePair qp : qps) {
                qp.close();
            }
            deadline = System.nanoTime() + WAIT.toNanos();
            while (connections(a) > 0 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertEquals(0, connections(a), "host A's queue pairs and connections are released");
            listener.close();
        }
    }

    /** The queue pairs A's engine threads still own (a closed QP's connection is gone with it). */
    private static long connections(RdmaDevice dev) {
        return dev.counters().get(org.jwarp.verbs.CounterNames.QPS);
    }

    private static <T extends CmEvent> T expect(CmEventQueue q, Class<T> type, RdmaDevice dev) throws InterruptedException {
        T e = q.expect(type, WAIT, dev);
        if (e == null) {
            throw new AssertionError("no " + type.getSimpleName() + " within " + WAIT);
        }
        return e;
    }
}
