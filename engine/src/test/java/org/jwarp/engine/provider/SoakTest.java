package org.jwarp.engine.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.CmEvent;
import org.jwarp.verbs.MemoryRegion;
import org.jwarp.verbs.PostStatus;
import org.jwarp.verbs.QueuePair;
import org.jwarp.verbs.RdmaDevice;
import org.jwarp.verbs.SendWr;
import org.jwarp.verbs.WcStatus;
import org.jwarp.verbs.WorkCompletion;
import org.jwarp.verbs.WrOpcode;
import org.junit.jupiter.api.Test;

/**
 * Connections opened, used (a WRITE and a READ of it, verified) and closed in a loop: the
 * device's connections, the process's file descriptors and threads, and the heap after a GC stay
 * flat. {@code -Djwarp.soak.connections=N} for a long run (docs/reliability.md).
 */
class SoakTest {

    static final int CONNECTIONS = Integer.getInteger("jwarp.soak.connections", 400);
    static final Duration WAIT = Duration.ofSeconds(20);

    @Test
    void connectionsOpenedUsedAndClosedLeaveNothingBehind() throws Exception {
        try (DevicePair d = new DevicePair(64)) {
            RdmaDevice server = d.server;
            RdmaDevice client = d.client;
            MemoryRegion target = d.serverRegion(4096, Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ);
            MemoryRegion source = d.clientRegion(4096, Access.LOCAL_WRITE);
            MemoryRegion back = d.clientRegion(4096, Access.LOCAL_WRITE);
            WorkCompletion[] wcs = {new WorkCompletion()};
            long[] before = null;
            int warmUp = Math.min(50, CONNECTIONS / 4);
            for (int i = 0; i < CONNECTIONS; i++) {
                if (i == warmUp) {
                    before = resources((JwarpDevice) server, (JwarpDevice) client);
                }
                DevicePair.Connected c = d.connect();
                QueuePair cqp = c.client();
                for (int b = 0; b < 4096; b++) {
                    source.segment().set(ValueLayout.JAVA_BYTE, b, (byte) (b + i));
                }
                assertEquals(PostStatus.OK, cqp.postSend(new SendWr().wrId(1).opcode(WrOpcode.RDMA_WRITE)
                        .signaled(true).addSge(source, 0, 4096).remote(target.iova(), target.rkey())));
                assertEquals(PostStatus.OK, cqp.postSend(new SendWr().wrId(2).opcode(WrOpcode.RDMA_READ)
                        .signaled(true).addSge(back, 0, 4096).remote(target.iova(), target.rkey())));
                for (int k = 0; k < 2; k++) {
                    long deadline = System.nanoTime() + WAIT.toNanos();
                    while (d.ccq.poll(wcs) == 0) {
                        assertTrue(System.nanoTime() < deadline, "connection " + i + " stalled");
                        Thread.onSpinWait();
                    }
                    assertSame(WcStatus.SUCCESS, wcs[0].status(), "connection " + i + ": " + wcs[0]);
                }
                assertEquals(-1, back.segment().mismatch(source.segment()), "connection " + i + " moved other bytes");
                client.connectionManager().disconnect(cqp);
                DevicePair.expect(c.clientEvents(), CmEvent.Disconnected.class, client);
                DevicePair.expect(d.serverEvents, CmEvent.Disconnected.class, server);
                cqp.close();
                c.server().close();
            }
            long[] after = resources((JwarpDevice) server, (JwarpDevice) client);
            System.out.println("SoakTest: " + CONNECTIONS + " connections; connections, fds, threads, heap MiB after "
                    + warmUp + ": " + java.util.Arrays.toString(before) + ", at the end: "
                    + java.util.Arrays.toString(after));
            assertEquals(before[0], after[0], "the engines hold no ended connection");
            // one kept per connection would show as hundreds more; the JVM starts a few of its own meanwhile
            assertTrue(after[1] < before[1] + 10, "file descriptors stay flat: " + before[1] + " -> " + after[1]);
            assertTrue(after[2] < before[2] + 4, "threads stay flat: " + before[2] + " -> " + after[2]);
            assertTrue(after[3] <= before[3] + 32, "the heap after GC stays flat: " + before[3] + " -> " + after[3] + " MiB");
        }
    }

    /** Engine connections, open fds, live threads, heap used after a GC (MiB). */
    static long[] resources(JwarpDevice server, JwarpDevice client) throws Exception {
        System.gc();
        long heap = (Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory()) >> 20;
        long fds;
        try (Stream<Path> s = Files.list(Path.of("/proc/self/fd"))) {
            fds = s.count();
        }
        return new long[] {server.connectionCount() + client.connectionCount(), fds, Thread.activeCount(), heap};
    }
}
