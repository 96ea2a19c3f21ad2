package org.jwarp.engine.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.jwarp.engine.affinity.ThreadAffinity;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.CompletionQueue;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.MemoryRegion;
import org.jwarp.verbs.PostStatus;
import org.jwarp.verbs.RdmaDevice;
import org.jwarp.verbs.RecvWr;
import org.jwarp.verbs.SendWr;
import org.jwarp.verbs.WcOpcode;
import org.jwarp.verbs.WcStatus;
import org.jwarp.verbs.WorkCompletion;
import org.jwarp.verbs.WrOpcode;

/**
 * HYBRID mode: an application thread that polls runs the engine; when none calls in (a passive
 * side) or one blocks in a wait, the standby engine thread carries the connection.
 */
class HybridModeTest {

    static DeviceConfig hybrid() {
        return DeviceConfig.builder().provider(SuiteConfig.jwarp()
                .threadingMode(JwarpConfig.ThreadingMode.HYBRID).build()).build();
    }

    @Test
    void aPassiveSideThatNeverCallsInStillServesReadsAndTakesWrites() throws Exception {
        try (LoopbackPair pair = new LoopbackPair(hybrid(), hybrid(), new byte[0], new byte[0])) {
            assertTrue(standbyAlive(), "a hybrid device has its standby engine thread");
            int size = 100_000;
            MemoryRegion remote = pair.server.register(size, Access.LOCAL_WRITE | Access.REMOTE_READ
                    | Access.REMOTE_WRITE);
            MemoryRegion local = pair.client.register(size, Access.LOCAL_WRITE);
            fill(remote.segment(), size, 7);
            // from here on nothing calls into the server's device: only its standby thread can answer
            assertEquals(PostStatus.OK, pair.client.qp.postSend(new SendWr().wrId(1).opcode(WrOpcode.RDMA_READ)
                    .signaled(true).addSge(local, 0, size).remote(remote.iova(), remote.rkey())));
            WorkCompletion rd = pair.client.next();
            assertSame(WcStatus.SUCCESS, rd.status(), rd.toString());
            assertEquals(size, rd.byteLen());
            assertEquals(-1, local.segment().mismatch(remote.segment()), "the READ brought the server's bytes");

            fill(local.segment(), size, 11);
            assertEquals(PostStatus.OK, pair.client.qp.postSend(new SendWr().wrId(2).opcode(WrOpcode.RDMA_WRITE)
                    .signaled(true).addSge(local, 0, size).remote(remote.iova(), remote.rkey())));
            assertSame(WcStatus.SUCCESS, pair.client.next().status());
            // RFC 5040 §5.5: a READ after a WRITE returns what the WRITE placed
            MemoryRegion back = pair.client.register(size, Access.LOCAL_WRITE);
            assertEquals(PostStatus.OK, pair.client.qp.postSend(new SendWr().wrId(3).opcode(WrOpcode.RDMA_READ)
                    .signaled(true).addSge(back, 0, size).remote(remote.iova(), remote.rkey())));
            assertSame(WcStatus.SUCCESS, pair.client.next().status());
            assertEquals(-1, back.segment().mismatch(local.segment()), "the WRITE reached the server's region");
        }
    }

    @Test
    void aThreadBlockedOnItsChannelIsWokenByTheStandby() throws Exception {
        try (LoopbackPair pair = new LoopbackPair(hybrid(), hybrid(), new byte[0], new byte[0])) {
            MemoryRegion inbox = pair.server.register(64, Access.LOCAL_WRITE);
            MemoryRegion msg = pair.client.register(64, Access.LOCAL_WRITE);
            fill(msg.segment(), 64, 3);
            assertEquals(PostStatus.OK, pair.server.qp.postRecv(new RecvWr().wrId(9).addSge(inbox, 0, 64)));
            pair.server.cq.requestNotify(false);
            assertEquals(PostStatus.OK, pair.client.qp.postSend(new SendWr().wrId(4).opcode(WrOpcode.SEND)
                    .signaled(true).addSge(msg, 0, 64)));
            CompletionQueue ready = pair.server.channel.await(LoopbackPair.WAIT.toMillis(), TimeUnit.MILLISECONDS);
            assertSame(pair.server.cq, ready, "the server's thread slept in await; the standby delivered the event");
            WorkCompletion wc = pair.server.next();
            assertSame(WcOpcode.RECV, wc.opcode());
            assertEquals(64, wc.byteLen());
            assertEquals(-1, inbox.segment().mismatch(msg.segment()));
            assertSame(WcStatus.SUCCESS, pair.client.next().status());
        }
    }

    private static void fill(MemorySegment m, int size, int seed) {
        for (int i = 0; i < size; i++) {
            m.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 31 + seed));
        }
    }

    @Test
    void aPinnedHybridDevicePinsItsStandbyThread() throws Exception {
        assumeTrue(ThreadAffinity.isSupported(),
                "thread affinity is not supported here");
        int cpu = Runtime.getRuntime().availableProcessors() - 1;
        DeviceConfig pinned = DeviceConfig.builder().provider(SuiteConfig.jwarp()
                .threadingMode(JwarpConfig.ThreadingMode.HYBRID).cpuList(List.of(cpu)).build()).build();
        try (RdmaDevice dev = RdmaDevice.open(pinned)) {
            long deadline = System.nanoTime() + LoopbackPair.WAIT.toNanos();
            boolean found = false;
            while (!found && System.nanoTime() < deadline) {
                found = standbyTasksAllowed().contains(Integer.toString(cpu));
                if (!found) {
                    Thread.sleep(10);   // the thread pins itself as it starts
                }
            }
            assertTrue(found, "a standby thread allowed only CPU " + cpu + "; saw " + standbyTasksAllowed());
        }
    }

    /** Cpus_allowed_list of every standby engine thread of this process (its name, cut to 15 bytes). */
    private static List<String> standbyTasksAllowed() throws IOException {
        List<String> out = new ArrayList<>();
        try (var tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path t : tasks.toList()) {
                try {
                    if (!Files.readString(t.resolve("comm")).startsWith("jwarp-engine-st")) {
                        continue;
                    }
                    for (String line : Files.readAllLines(t.resolve("status"))) {
                        if (line.startsWith("Cpus_allowed_list:")) {
                            out.add(line.substring(line.indexOf(':') + 1).trim());
                        }
                    }
                } catch (IOException gone) {
                    // the thread ended while we looked
                }
            }
        }
        return out;
    }

    private static boolean standbyAlive() {
        return Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> t.getName().startsWith("jwarp-engine-standby-") && t.isAlive());
    }
}
