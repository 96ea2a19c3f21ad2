package org.jwarp.bench.transport.jwarp;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import org.jwarp.bench.perf.Payload;
import org.jwarp.bench.perf.PerfException;
import org.jwarp.bench.perf.Settings;
import org.jwarp.verbs.MemoryRegion;
import org.jwarp.verbs.SendFlags;
import org.jwarp.verbs.SendWr;
import org.jwarp.verbs.WcOpcode;
import org.jwarp.verbs.WorkCompletion;
import org.jwarp.verbs.WrOpcode;

/**
 * The data phase of each test the way perftest runs it, so that a perftest peer sees what it
 * expects: the target address is the peer's advertised one (no cycling: every message of a size
 * fits the peer's buffer, and nothing is verified, as in perftest); the WRITE latency stamp is
 * the message's last byte, counting 1, 2, … modulo 256, the server writing first; SEND latency
 * has the client send first; SEND bandwidth is paced by the receiver's count of receives, which
 * it RDMA WRITEs (a 32-bit little-endian word) into the sender's advertised credit word.
 */
final class PerftestRuns implements Waiter.Reaper {

    private static final ValueLayout.OfInt CREDIT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    /** Credit WRITEs in flight at most: each has its own source word. */
    private static final int CREDIT_SLOTS = 32;

    private final JwarpSide side;
    private final Settings s;
    private final boolean client;
    private final Waiter waiter;
    private final WorkCompletion[] wcs = new WorkCompletion[64];
    private final SendWr[] wr = {new SendWr(1)};
    /** Per QP: messages whose signaled completion arrived (a completion's wrId low half says how many it covers). */
    private final long[] done;
    private long completed;
    /** Completions reaped, of any kind. */
    private long sendsDone;

    PerftestRuns(JwarpSide side, boolean client) {
        this.side = side;
        this.s = side.settings;
        this.client = client;
        this.waiter = new Waiter(side);
        this.done = new long[s.qps()];
        for (int i = 0; i < wcs.length; i++) {
            wcs[i] = new WorkCompletion();
        }
    }

    /** The receives a SEND test keeps posted: perftest's {@code -r}, at most the iterations. */
    private int receiveDepth() {
        return (int) Math.max(1, Math.min(s.rxDepth(), s.iterations()));
    }

    /** Posts the receives a SEND test starts with, on every QP. */
    void postReceives() {
        for (int i = 0; i < s.qps(); i++) {
            for (int k = 0; k < receiveDepth(); k++) {
                side.postRecv(i);
            }
        }
    }

    // ---- RDMA WRITE and READ bandwidth: the client posts, the server's engine serves -------------

    PerftestResult bandwidth(PerftestDest[] peer) {
        boolean read = s.test().verb().isRequestResponse();
        int n = s.qps();
        long iters = s.iterations();
        int depth = s.txDepth();
        if (read) {
            int ord = side.qps[0].connectionAttr().map(a -> a.ord()).orElse(1);
            depth = Math.max(1, Math.min(depth, Math.min(s.outstanding(), ord)));
        }
        int mod = Math.max(1, Math.min(s.cqMod(), depth));
        long[] posted = new long[n];
        SendWr w = wr[0];
        long total = iters * n;
        long start = System.nanoTime();
        while (completed < total) {
            for (int i = 0; i < n; i++) {
                while (posted[i] < iters && posted[i] - done[i] < depth) {
                    long k = ++posted[i];
                    boolean signal = k % mod == 0 || k == iters;
                    long covered = signal ? (k % mod == 0 ? mod : k % mod) : 0;
                    w.reset().opcode(read ? WrOpcode.RDMA_READ : WrOpcode.RDMA_WRITE).signaled(signal)
                            .wrId(((long) i << 32) | covered)
                            .addSge(read ? side.in[i] : side.out[i], 0, s.size()).remote(peer[i].vaddr(), peer[i].rkey());
                    waiter.post(side.qps[i], wr, 1, side.sendCq, wcs, this);
                }
            }
            reapAll(waiter.poll(side.sendCq, wcs));
        }
        return PerftestResult.bandwidth(s, total, System.nanoTime() - start);
    }

    // ---- SEND bandwidth: the client sends within its credit, the server receives and credits ----

    PerftestResult sendBandwidth() {
        int n = s.qps();
        long iters = s.iterations();
        int window = Math.max(1, receiveDepth() - 1);
        int mod = Math.max(1, Math.min(s.cqMod(), s.txDepth()));
        long[] posted = new long[n];
        long total = iters * n;
        SendWr w = wr[0];
        long start = System.nanoTime();
        while (completed < total) {
            boolean moved = false;
            for (int i = 0; i < n; i++) {
                VarHandle.acquireFence();
                long credit = Integer.toUnsignedLong(side.inSeg(i).get(CREDIT, side.creditOffset()));
                while (posted[i] < iters && posted[i] - credit < window && posted[i] - done[i] < s.txDepth()) {
                    long k = ++posted[i];
                    boolean signal = k % mod == 0 || k == iters;
                    w.reset().opcode(WrOpcode.SEND).signaled(signal).wrId(((long) i << 32) | (signal ? (k % mod == 0
                            ? mod : k % mod) : 0)).addSge(side.out[i], 0, s.size());
                    waiter.post(side.qps[i], wr, 1, side.sendCq, wcs, this);
                    moved = true;
                }
            }
            int got = waiter.reap(side.sendCq, wcs);
            reapAll(got);
            if (got > 0 || moved) {
                waiter.progress();
            } else {
                waiter.idleMemory();
            }
        }
        return PerftestResult.bandwidth(s, total, System.nanoTime() - start);
    }

    PerftestResult receiveBandwidth(PerftestDest[] peer) {
        int n = s.qps();
        long iters = s.iterations();
        int creditEvery = Math.max(1, receiveDepth() / 4);
        long[] received = new long[n];
        long total = iters * n;
        long got = 0;
        long creditsPosted = 0;
        long start = 0;
        WorkCompletion[] recvs = new WorkCompletion[32];
        for (int k = 0; k < recvs.length; k++) {
            recvs[k] = new WorkCompletion();
        }
        while (got < total) {
            int m = waiter.poll(side.recvCq, recvs);
            if (start == 0) {
                start = System.nanoTime();
            }
            for (int k = 0; k < m; k++) {
                WorkCompletion wc = recvs[k];
                waiter.check(wc);
                if (wc.opcode() != WcOpcode.RECV) {
                    throw new PerfException("expected a SEND, got " + wc);
                }
                int i = (int) wc.wrId();
                side.recvsOutstanding[i]--;
                long r = ++received[i];
                got++;
                if (side.recvsPosted[i] < iters) {
                    side.postRecv(i);
                }
                if (r % creditEvery == 0 || r == iters) {
                    while (creditsPosted - sendsDone >= CREDIT_SLOTS) {
                        reapAll(waiter.poll(side.sendCq, wcs));
                    }
                    long slot = (creditsPosted++ % CREDIT_SLOTS) * Integer.BYTES;
                    MemorySegment src = side.outSeg(i);
                    src.set(CREDIT, slot, (int) r);
                    wr[0].reset().opcode(WrOpcode.RDMA_WRITE).signaled(true).wrId((long) i << 32).addSge(side.out[i], slot,
                            Integer.BYTES).remote(peer[i].vaddr(), peer[i].rkey());
                    waiter.post(side.qps[i], wr, 1, side.sendCq, wcs, this);
                }
            }
            reapAll(waiter.reap(side.sendCq, wcs));
        }
        long nanos = System.nanoTime() - start;
        while (sendsDone < creditsPosted) {
            reapAll(waiter.poll(side.sendCq, wcs));
        }
        return PerftestResult.bandwidth(s, total, nanos);
    }

    private void reapAll(int got) {
        for (int k = 0; k < got; k++) {
            waiter.check(wcs[k]);
            reaped(wcs[k]);
        }
    }

    /** Counts a send-side completion (also those {@link Waiter#post} reaps while the queue is full). */
    @Override
    public void reaped(WorkCompletion wc) {
        int i = (int) (wc.wrId() >>> 32);
        long covered = wc.wrId() & 0xFFFFFFFFL;
        done[i] += covered;
        completed += covered;
        sendsDone++;
    }

    // ---- latency -------------------------------------------------------------------------------

    /**
     * perftest's WRITE ping-pong: each side WRITEs its message, whose last byte is its count, into
     * the peer's buffer and polls the last byte of its own; the server writes first.
     */
    PerftestResult writeLatency(PerftestDest peer) {
        int size = s.size();
        long iters = s.iterations();
        MemorySegment in = side.inSeg(0);
        MemorySegment out = side.outSeg(0);
        long[] posts = new long[(int) iters];
        for (long scnt = 0, rcnt = 0; scnt < iters || rcnt < iters; ) {
            if (rcnt < iters && !(scnt == 0 && !client)) {
                int want = (int) (++rcnt & 0xFF);
                while (Payload.lastByteAcquire(in, 0, size) != want) {
                    waiter.idleMemory();
                }
                waiter.progress();
            }
            if (scnt < iters) {
                out.set(ValueLayout.JAVA_BYTE, size - 1, (byte) ++scnt);
                posts[(int) scnt - 1] = System.nanoTime();
                post(WrOpcode.RDMA_WRITE, peer, scnt == iters);
            }
        }
        awaitSends(iters);
        return PerftestResult.latency(s, halves(posts));
    }

    /** perftest's SEND ping-pong: the client sends first; every message consumes a receive, re-posted. */
    PerftestResult sendLatency() {
        long iters = s.iterations();
        long[] posts = new long[(int) iters];
        WorkCompletion[] recv = {new WorkCompletion()};
        for (long scnt = 0, rcnt = 0; scnt < iters || rcnt < iters; ) {
            if (rcnt < iters && !(scnt == 0 && client)) {
                waiter.poll(side.recvCq, recv);
                waiter.check(recv[0]);
                if (recv[0].opcode() != WcOpcode.RECV) {
                    throw new PerfException("expected a SEND, got " + recv[0]);
                }
                rcnt++;
                side.recvsOutstanding[0]--;
                side.postRecv(0);
            }
            if (scnt < iters) {
                posts[(int) scnt++] = System.nanoTime();
                post(WrOpcode.SEND, null, scnt == iters);
            }
        }
        awaitSends(iters);
        return PerftestResult.latency(s, halves(posts));
    }

    /** perftest's READ latency: one READ at a time, each timed whole. */
    PerftestResult readLatency(PerftestDest peer) {
        long iters = s.iterations();
        long[] rtt = new long[(int) iters];
        for (int k = 0; k < iters; k++) {
            long t0 = System.nanoTime();
            post(WrOpcode.RDMA_READ, peer, true);
            awaitSends(k + 1);
            rtt[k] = System.nanoTime() - t0;
        }
        return PerftestResult.latency(s, rtt);
    }

    /** Posts one message of the latency tests; the signaled ones count in {@link #sendsDone}. */
    private void post(WrOpcode op, PerftestDest peer, boolean last) {
        SendWr w = wr[0].reset().opcode(op).signaled(true).wrId(1);
        MemoryRegion local = op == WrOpcode.RDMA_READ ? side.in[0] : side.out[0];
        if (op != WrOpcode.RDMA_READ && s.size() <= s.inline()) {
            w.flags(SendFlags.INLINE | SendFlags.SIGNALED).addInlineSge(side.outSeg(0), 0, s.size());
        } else {
            w.addSge(local, 0, s.size());
        }
        if (peer != null) {
            w.remote(peer.vaddr(), peer.rkey());
        }
        waiter.post(side.qps[0], wr, 1, side.sendCq, wcs, this);
        reapAll(waiter.reap(side.sendCq, wcs));
    }

    private void awaitSends(long count) {
        while (sendsDone < count) {
            reapAll(waiter.poll(side.sendCq, wcs));
        }
    }

    /** perftest's one-way latency: half the time between consecutive posts. */
    private static long[] halves(long[] posts) {
        long[] out = new long[Math.max(1, posts.length - 1)];
        for (int k = 1; k < posts.length; k++) {
            out[k - 1] = (posts[k] - posts[k - 1]) / 2;
        }
        return out;
    }
}
