package org.jwarp.engine.toe;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import org.jwarp.engine.io.Staging;
import org.jwarp.engine.ring.MpscSlotRing;

/**
 * The anonymous receive buffers of one engine thread (seed 001 §III): fixed-size buffers any of
 * its sockets may fill. The engine takes a free buffer, fills it with one socket's data and passes
 * it to the host with an event; the host copies the data out and gives the buffer back — the
 * refill — from whichever thread read it.
 */
final class AnonymousPool {

    private final int bufferBytes;
    private final int count;
    /** The host's view: copies out of a buffer (no position state, so any thread may use it). */
    private final MemorySegment memory;
    /** Every buffer, as the engine's socket calls address them (buffer {@code id} at {@code id * bufferBytes()}). */
    private final Staging staging;
    /** Free buffer numbers: host threads give, the engine takes. */
    private final MpscSlotRing<int[]> free;
    /** Set by the engine when it found no free buffer; the next give rings the doorbell. */
    private volatile boolean starved;
    private volatile long starvations;

    AnonymousPool(int bufferBytes, int count) {
        this.bufferBytes = bufferBytes;
        this.count = count;
        ByteBuffer all = ByteBuffer.allocateDirect(Math.multiplyExact(bufferBytes, count));
        this.memory = MemorySegment.ofBuffer(all);
        this.staging = new Staging(all, memory);
        this.free = new MpscSlotRing<>(Math.max(2, Integer.highestOneBit(count - 1 | 1) << 1), () -> new int[1]);
        for (int i = 0; i < count; i++) {
            give(i);
        }
        starved = false;
    }

    int bufferBytes() {
        return bufferBytes;
    }

    int count() {
        return count;
    }

    /** Engine thread: a free buffer, or -1 (the pool is empty until the host gives one back). */
    int take() {
        int[] s = free.peek();
        if (s == null) {
            if (!starved) {
                starved = true;
                starvations++;
            }
            VarHandle.fullFence();                  // the flag before the second look (Dekker with give)
            s = free.peek();
            if (s == null) {
                return -1;
            }
        }
        int id = s[0];
        free.release();
        return id;
    }

    /** Engine thread: the buffers' memory for socket calls (buffer {@code id} at {@code id * bufferBytes()}). */
    Staging staging() {
        return staging;
    }

    /**
     * Host, any thread: gives buffer {@code id} back to the engine.
     *
     * @return whether the engine had found the pool empty (the caller rings its doorbell)
     */
    boolean give(int id) {
        long c;
        while ((c = free.claim()) < 0) {
            Thread.onSpinWait();                    // cannot stay full: at most count buffers are ever free
        }
        free.slot(c)[0] = id;
        free.publish(c);
        VarHandle.fullFence();                      // the buffer before the flag (Dekker with take)
        if (starved) {
            starved = false;
            return true;
        }
        return false;
    }

    /** Host, any thread: the memory of every buffer (buffer {@code id} at {@code id * bufferBytes()}). */
    MemorySegment memory() {
        return memory;
    }

    /** Free buffers at this moment. */
    int available() {
        return free.size();
    }

    /** Times the engine found the pool empty. */
    long starvations() {
        return starvations;
    }
}
