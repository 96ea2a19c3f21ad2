package org.jwarp.engine.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.management.ThreadMXBean;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.jwarp.engine.datapath.GatherFpduSink;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.MemoryRegion;
import org.jwarp.verbs.PostStatus;
import org.jwarp.verbs.SendFlags;
import org.jwarp.verbs.SendWr;
import org.jwarp.verbs.WcStatus;
import org.jwarp.verbs.WorkCompletion;
import org.jwarp.verbs.WrOpcode;

/**
 * DESIGN rule 3: after a QP is set up its data path allocates nothing. A steady run of 1,000,000
 * posted WRITEs and 1,000,000 READs is measured with {@link ThreadMXBean#getThreadAllocatedBytes}
 * on the posting/polling thread and on every engine thread; so are 64 KiB WRITEs, whose payload
 * leaves straight from the region and lands straight in the target (there the JDK's own
 * vectored socket calls allocate a little).
 */
class AllocationTest {

    static final int OPS = 1_000_000;
    static final int SIGNAL_EVERY = 32;
    static final ThreadMXBean THREADS = (ThreadMXBean) ManagementFactory.getThreadMXBean();

    @Test
    void steadyWritesAndReadsAllocateNothing() throws Exception {
        // engine threads of devices earlier tests in this JVM left running are not this device's
        Set<Long> earlier = new HashSet<>(engineAllocations().keySet());
        try (LoopbackPair p = new LoopbackPair(LoopbackPair.dedicated(), LoopbackPair.dedicated(), new byte[0],
                new byte[0])) {
            MemoryRegion local = p.client.register(65536, Access.LOCAL_WRITE);
            MemoryRegion remote = p.server.register(65536, Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ);
            SendWr[] wrs = new SendWr[SIGNAL_EVERY];
            // 64 B operations go through the staging buffer; 64 KiB WRITEs leave straight from the region
            Object[][] cases = {{WrOpcode.RDMA_WRITE, 64, OPS}, {WrOpcode.RDMA_READ, 64, OPS},
                    {WrOpcode.RDMA_WRITE, 65536, OPS / 50}};
            for (Object[] c : cases) {
                WrOpcode op = (WrOpcode) c[0];
                int size = (Integer) c[1];
                int ops = (Integer) c[2];
                for (int i = 0; i < SIGNAL_EVERY; i++) {
                    wrs[i] = new SendWr().wrId(i).opcode(op).signaled(i == SIGNAL_EVERY - 1).addSge(local, 0, size)
                            .remote(remote.iova(), remote.rkey());
                }
                // the engine bound: a per-operation allocation costs at least 16 B each (16 MB over the
                // run); the bound leaves room only for the JIT's and the JVM's own rare allocations
                long bound;
                if (size < GatherFpduSink.ZERO_COPY_FROM) {
                    bound = ops / 100;
                } else if (!p.client.device.socketIoLayer().equals("nio")) {
                    bound = ops * 8L;       // zero-copy both ways, and still nothing per operation (< 16 B)
                } else {
                    // NIO's gathering write and scattering read allocate 40 B per MemorySegment-backed
                    // buffer per call (IOUtil's session Releaser), whatever the arena — the sender's
                    // gather from the region, the receiver's read into it: bounded per operation,
                    // independent of the size
                    bound = ops * 256L;
                }
                run(p, wrs, ops); // warm-up: JIT compiles the data path
                // A per-operation allocation shows in every window; the JIT's, while it still compiles
                // the data path, in the first ones only. Up to three windows; one within the bound passes.
                List<String> windows = new ArrayList<>();
                boolean clean = false;
                for (int w = 0; w < 3 && !clean; w++) {
                    Map<Long, Long> engineBefore = engineAllocations();
                    long appBefore = THREADS.getCurrentThreadAllocatedBytes();
                    run(p, wrs, ops);
                    long app = THREADS.getCurrentThreadAllocatedBytes() - appBefore;
                    long engine = allocatedSince(engineBefore, earlier);
                    windows.add("application " + app + " B, engine threads " + engine + " B");
                    clean = app < Math.max(ops / 100, 1024) && engine < bound;
                }
                String report = op + " " + size + " B over " + ops + " ops (" + p.client.device.socketIoLayer()
                        + "), engine bound " + bound + " B: " + windows + "; engine threads of earlier devices still"
                        + " alive, not counted: " + earlier.size();
                System.out.println(report);
                assertTrue(clean, report);
            }
        }
    }

    /**
     * The small-message send (invoker mode, one request a post, each signaled): the posting thread
     * frames, writes and completes it, and runs both engines; nothing it does allocates.
     */
    @Test
    void directSendsAllocateNothing() throws Exception {
        try (LoopbackPair p = new LoopbackPair(LoopbackPair.invoker(), LoopbackPair.invoker(), new byte[0],
                new byte[0])) {
            MemoryRegion local = p.client.register(4096, Access.LOCAL_WRITE);
            MemoryRegion remote = p.server.register(4096, Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ);
            MemorySegment inline = p.client.arena.allocate(64);
            SendWr[] cases = {
                    new SendWr().wrId(1).opcode(WrOpcode.RDMA_WRITE).signaled(true).addSge(local, 0, 64)
                            .remote(remote.iova(), remote.rkey()),
                    new SendWr().wrId(2).opcode(WrOpcode.RDMA_WRITE).flags(SendFlags.INLINE | SendFlags.SIGNALED)
                            .addInlineSge(inline, 0, 8).remote(remote.iova(), remote.rkey()),
                    new SendWr().wrId(3).opcode(WrOpcode.RDMA_READ).signaled(true).addSge(local, 0, 64)
                            .remote(remote.iova(), remote.rkey())};
            int ops = 200_000;
            for (SendWr wr : cases) {
                runOneByOne(p, wr, ops);                    // warm-up: JIT compiles the path
                List<String> windows = new ArrayList<>();
                boolean clean = false;
                for (int w = 0; w < 3 && !clean; w++) {
                    long before = THREADS.getCurrentThreadAllocatedBytes();
                    runOneByOne(p, wr, ops);
                    long app = THREADS.getCurrentThreadAllocatedBytes() - before;
                    windows.add(app + " B");
                    clean = app < ops / 100;
                }
                String report = wr.opcode() + " posted one by one, " + ops + " ops (" + p.client.device.socketIoLayer()
                        + "), the posting thread running both engines: " + windows;
                System.out.println(report);
                assertTrue(clean, report);
            }
        }
    }

    /**
     * HYBRID mode: a server thread that sleeps on its completion channel holds the engine while it
     * waits and reads the Sends itself ({@code EngineWaiter}); its waits, reads and replies
     * allocate nothing.
     */
    @Test
    void channelWaitsInTheEngineAllocateNothing() throws Exception {
        try (LoopbackPair p = new LoopbackPair(HybridModeTest.hybrid(), HybridModeTest.hybrid(), new byte[0],
                new byte[0])) {
            int ops = 20_000;
            long[] serverBytes = new long[3];
            p.server.qp.postRecv(new org.jwarp.verbs.RecvWr().wrId(0));   // before the first Send arrives
            java.util.concurrent.CompletableFuture<Void> server = java.util.concurrent.CompletableFuture.runAsync(() -> {
                org.jwarp.verbs.RecvWr recv = new org.jwarp.verbs.RecvWr();
                SendWr reply = new SendWr().opcode(WrOpcode.SEND);
                WorkCompletion[] wcs = p.server.wcs;
                try {
                    for (int round = 0; round < 4; round++) {         // the first warms the JIT up
                        long before = THREADS.getCurrentThreadAllocatedBytes();
                        for (int i = 0; i < ops; i++) {
                            p.server.cq.requestNotify(false);
                            while (p.server.cq.poll(wcs, 1) == 0) {
                                if (p.server.channel.await(10, java.util.concurrent.TimeUnit.SECONDS) == null) {
                                    throw new AssertionError("no event in 10 s");
                                }
                                p.server.cq.requestNotify(false);
                            }
                            p.server.qp.postRecv(recv.wrId(i + 1));   // before the reply: the next Send needs it
                            p.server.qp.postSend(reply.wrId(i));
                        }
                        if (round > 0) {
                            serverBytes[round - 1] = THREADS.getCurrentThreadAllocatedBytes() - before;
                        }
                    }
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }, r -> Thread.ofPlatform().name("channel-waiter").start(r));
            org.jwarp.verbs.RecvWr recv = new org.jwarp.verbs.RecvWr();
            SendWr send = new SendWr().opcode(WrOpcode.SEND);
            WorkCompletion[] wcs = p.client.wcs;
            for (int i = 0; i < 4 * ops; i++) {
                p.client.qp.postRecv(recv.wrId(i));
                p.client.qp.postSend(send.wrId(i));
                while (p.client.cq.poll(wcs, 1) == 0) {
                    Thread.onSpinWait();
                }
                if (wcs[0].status() != WcStatus.SUCCESS) {
                    throw new AssertionError("failed: " + wcs[0]);
                }
            }
            server.get(120, java.util.concurrent.TimeUnit.SECONDS);
            String report = "a server waiting on its channel, " + ops + " Sends a window ("
                    + p.server.device.socketIoLayer() + "): " + java.util.Arrays.toString(serverBytes) + " B";
            System.out.println(report);
            long best = Math.min(serverBytes[0], Math.min(serverBytes[1], serverBytes[2]));
            assertTrue(best < ops / 100, report);
        }
    }

    /** Posts {@code wr} {@code ops} times, one at a time, each awaited, running both invoked engines. */
    private static void runOneByOne(LoopbackPair p, SendWr wr, int ops) {
        WorkCompletion[] wcs = p.client.wcs;
        for (int k = 0; k < ops; k++) {
            int rc = p.client.qp.postSend(wr);
            if (rc != PostStatus.OK) {
                throw new AssertionError(PostStatus.toString(rc));
            }
            while (p.client.cq.poll(wcs, 1) == 0) {
                p.server.device.invoke();
                p.client.device.invoke();
            }
            if (wcs[0].status() != WcStatus.SUCCESS) {
                throw new AssertionError("failed: " + wcs[0]);
            }
            if ((k & 63) == 0) {
                p.server.device.invoke();                   // the server places what has arrived
            }
        }
    }

    /** Posts {@code ops} requests in lists of 32 (one signaled) and polls their completions. */
    static void run(LoopbackPair p, SendWr[] wrs, int ops) {
        WorkCompletion[] wcs = p.client.wcs;
        int batches = ops / wrs.length;
        int posted = 0;
        int completed = 0;
        while (completed < batches) {
            if (posted - completed < 4 && posted < batches) {
                int rc = p.client.qp.postSend(wrs, wrs.length);
                if (rc == PostStatus.OK) {
                    posted++;
                    continue;
                }
                assertEquals(PostStatus.QUEUE_FULL, PostStatus.code(rc), PostStatus.toString(rc));
            }
            int n = p.client.cq.poll(wcs, wcs.length);
            for (int i = 0; i < n; i++) {
                if (wcs[i].status() != WcStatus.SUCCESS) {
                    throw new AssertionError("failed: " + wcs[i]);
                }
            }
            completed += n;
            if (n == 0) {
                Thread.onSpinWait();
            }
        }
    }

    /** Bytes each live engine thread has allocated so far, by thread id. */
    static Map<Long, Long> engineAllocations() {
        Map<Long, Long> out = new HashMap<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith("jwarp-engine") && t.isAlive()) {
                out.put(t.threadId(), THREADS.getThreadAllocatedBytes(t.threadId()));
            }
        }
        return out;
    }

    /**
     * What this device's engine threads (alive in both snapshots, not in {@code earlier})
     * allocated between {@code before} and now, each against its own count.
     */
    static long allocatedSince(Map<Long, Long> before, Set<Long> earlier) {
        long sum = 0;
        for (Map.Entry<Long, Long> e : engineAllocations().entrySet()) {
            Long was = before.get(e.getKey());
            if (was != null && e.getValue() >= 0 && !earlier.contains(e.getKey())) {
                sum += e.getValue() - was;
            }
        }
        return sum;
    }
}
