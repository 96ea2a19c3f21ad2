package org.jwarp.bench.transport.jwarp;

import java.util.concurrent.TimeUnit;
import org.jwarp.bench.perf.PerfException;
import org.jwarp.verbs.CompletionQueue;
import org.jwarp.verbs.PostStatus;
import org.jwarp.verbs.QueuePair;
import org.jwarp.verbs.SendWr;
import org.jwarp.verbs.WcStatus;
import org.jwarp.verbs.WorkCompletion;

/**
 * How the application thread waits on the data path: busy polling (perftest's default; in
 * invoker mode each idle turn runs the engine's duty cycle; with
 * {@link JwarpOptions#yieldWhenIdle()} each idle turn yields the CPU), or with {@code -e} sleeping
 * on the completion channel (arm, poll again, await: the race-free loop of
 * {@code ibv_req_notify_cq}).
 * A wait that sees nothing for {@link #STALL_NANOS} fails with one line instead of hanging.
 * Allocation-free.
 */
final class Waiter {

    static final long STALL_NANOS = 30_000_000_000L;

    private final JwarpSide side;
    private final boolean yield;
    private final boolean events;
    private int idleTurns;
    private SendWr[] rest = new SendWr[64];
    private long stallSince;

    Waiter(JwarpSide side) {
        this.side = side;
        this.events = side.settings.events();
        this.yield = side.options.yieldWhenIdle();
    }

    /** Something happened: the stall clock restarts. */
    void progress() {
        idleTurns = 0;
        stallSince = 0;
    }

    /** One idle turn while polling memory (a WRITE raises no completion at its target). */
    void idleMemory() {
        if (side.invoker && side.device.invoke() > 0) {
            return;
        }
        if (yield | (side.warmingUp & (idleTurns & 1) == 0)) { // no short circuit: a branch the warm-up never took would trap the measurement into the interpreter
            Thread.yield();
        } else {
            Thread.onSpinWait();
        }
        if ((++idleTurns & 0xFFFF) == 0) {
            checkStall();
        }
    }

    /** Polls {@code cq} until it returns at least one completion; returns how many. */
    int poll(CompletionQueue cq, WorkCompletion[] wcs) {
        while (true) {
            int n = cq.poll(wcs);
            if (n > 0) {
                progress();
                return n;
            }
            if (events) {
                cq.requestNotify(false);
                n = cq.poll(wcs);
                if (n > 0) {
                    progress();
                    return n;
                }
                try {
                    side.dataChannel.await(100, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new PerfException("interrupted");
                }
                checkStall();
            } else {
                if (yield | (side.warmingUp & (idleTurns & 1) == 0)) { // no short circuit: a branch the warm-up never took would trap the measurement into the interpreter
                    Thread.yield();
                } else {
                    Thread.onSpinWait();
                }
                if ((++idleTurns & 0xFFFF) == 0) {
                    checkStall();
                }
            }
        }
    }

    /** Polls {@code cq} once without waiting; fails on an error completion. Returns how many. */
    int reap(CompletionQueue cq, WorkCompletion[] wcs) {
        int n = cq.poll(wcs);
        for (int i = 0; i < n; i++) {
            check(wcs[i]);
        }
        return n;
    }

    /** Fails with one line on an unsuccessful completion. */
    void check(WorkCompletion wc) {
        if (wc.status() != WcStatus.SUCCESS) {
            throw wc.status() == WcStatus.WR_FLUSH_ERR ? side.lost("work flushed")
                    : new PerfException("a work request failed: " + wc);
        }
    }

    /**
     * Posts {@code wrs[0..n)}, reaping {@code cq} while the send queue is full (its completions are
     * counted by the caller through {@code onReap}). Returns completions reaped into {@code wcs}
     * meanwhile: 0 in the common case.
     */
    void post(QueuePair qp, SendWr[] wrs, int n, CompletionQueue cq, WorkCompletion[] wcs, Reaper onReap) {
        while (true) {
            int rc = qp.postSend(wrs, n);
            if (rc == PostStatus.OK) {
                return;
            }
            if (PostStatus.code(rc) != PostStatus.QUEUE_FULL) {
                throw new PerfException("posting failed: " + PostStatus.toString(rc) + " (the connection is "
                        + qp.state() + ")");
            }
            int posted = PostStatus.postedCount(rc, n);
            if (posted > 0) {
                // part of the list went in: post the rest (from a copy of the references, so the
                // caller's array keeps its order)
                if (rest.length < n) {
                    rest = new SendWr[n];
                }
                System.arraycopy(wrs, posted, rest, 0, n - posted);
                wrs = rest;
                n -= posted;
            }
            int k = poll(cq, wcs);
            for (int i = 0; i < k; i++) {
                check(wcs[i]);
                onReap.reaped(wcs[i]);
            }
        }
    }

    /** Who counts the completions {@link #post} reaps while waiting for room. */
    interface Reaper {
        void reaped(WorkCompletion wc);
    }

    private void checkStall() {
        side.checkConnected();
        long now = System.nanoTime();
        if (stallSince == 0) {
            stallSince = now;
        } else if (now - stallSince > STALL_NANOS) {
            throw new PerfException("nothing arrived for " + STALL_NANOS / 1_000_000_000L
                    + " s: the peer stopped or the connection stalled");
        }
    }
}
