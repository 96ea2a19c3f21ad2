package org.jwarp.engine.toe;

import org.jwarp.engine.io.IoVector;
import org.jwarp.engine.io.Staging;

/**
 * The anonymous buffers one offloaded socket holds on the engine's side (seed 001 §III): the one
 * being filled, fresh spares for the next scattered read, and the filled ones owed to the host
 * until its event queue takes them, oldest first. With the buffers posted and not yet read, they
 * stay within the socket's share, so that one slow reader cannot take the whole pool. Engine
 * thread only.
 */
final class HeldBuffers {

    /** Room one scattered read offers at least (within the share). */
    static final int SCATTER_BYTES = 256 * 1024;
    /** Fresh buffers one read may fill at most, besides the one under way. */
    static final int SCATTER_BUFFERS = 32;

    private final AnonymousPool pool;
    /** The host's side of the same buffers: how many the reader gave back. */
    private final ReceivedBuffers reader;
    private final Staging memory;
    private final int bufferBytes;
    private final int share;

    /** The buffer being filled, or -1; its bytes; when its first byte came. */
    private int filling = -1;
    private int fillLength;
    private long firstByteAt;
    private final int[] spares = new int[SCATTER_BUFFERS];
    private int spareCount;
    private final int[] owed;
    private final int[] owedLength;
    private int owedHead;
    private int owedTail;
    /** Buffers passed to the host (RECEIVED events). */
    private long posted;

    HeldBuffers(AnonymousPool pool, ReceivedBuffers reader, int share) {
        this.pool = pool;
        this.reader = reader;
        this.memory = pool.staging();
        this.bufferBytes = pool.bufferBytes();
        this.share = share;
        int ring = Integer.highestOneBit(Math.max(1, share - 1)) << 1;
        this.owed = new int[ring];
        this.owedLength = new int[ring];
    }

    /** Pieces one scattered read may have. */
    static int pieces() {
        return SCATTER_BUFFERS + 1;
    }

    /**
     * Fills {@code rx} with the next read's pieces: the rest of the buffer under way, then fresh
     * buffers up to {@link #SCATTER_BYTES} of room, within the share. Returns the room; 0 if no
     * buffer can be had (the share is used up: the host rings once it reads one; or the pool is
     * empty: {@link #starved} says which).
     */
    long prepare(IoVector rx) {
        rx.clear();
        starved = false;
        if (filling < 0) {
            if (spareCount == 0 && !(mayHoldMore() && takeSpare())) {
                return 0;
            }
            filling = spares[--spareCount];
            fillLength = 0;
        }
        long room = bufferBytes - fillLength;
        rx.add(memory, (long) filling * bufferBytes + fillLength, room);
        while (room + (long) spareCount * bufferBytes < SCATTER_BYTES && mayHoldMore() && takeSpare()) {
            // topped up until the read offers SCATTER_BYTES
        }
        for (int i = 0; i < spareCount; i++) {
            rx.add(memory, (long) spares[i] * bufferBytes, bufferBytes);
            room += bufferBytes;
        }
        return room;
    }

    /** Whether the last {@link #prepare} found the pool empty. */
    private boolean starved;

    boolean starved() {
        return starved;
    }

    /** Whether one more buffer fits in the share (filled, owed, posted and not read, or spare). */
    private boolean mayHoldMore() {
        long held = posted - reader.returned() + owedCount() + spareCount + (filling >= 0 ? 1 : 0);
        if (held < share) {
            return true;
        }
        if (filling >= 0 || spareCount > 0) {
            return false;                           // reading goes on in what it holds
        }
        // the host rings once half the share is free again, not at each buffer it gives back: a
        // reader and an engine that took turns one buffer at a time would pay a wake-up a buffer
        // (at most every buffer posted: owed ones may wait for room in the event queue)
        long resumeAt = Math.min(posted, posted + owedCount() - share + Math.max(1, share / 2));
        return reader.ringWhenReturned(resumeAt);
    }

    private boolean takeSpare() {
        if (spareCount == SCATTER_BUFFERS) {
            return false;
        }
        int id = pool.take();
        if (id < 0) {
            starved = true;
            return false;
        }
        spares[spareCount++] = id;
        return true;
    }

    /** {@code r} bytes came by the read {@link #prepare} made: the buffers they filled are owed. */
    void filled(long r, long now) {
        if (fillLength == 0) {
            firstByteAt = now;
        }
        int into = (int) Math.min(r, bufferBytes - fillLength);
        fillLength += into;
        long left = r - into;
        if (fillLength < bufferBytes) {
            return;                                 // a scattered read fills in order: nothing reached the spares
        }
        owe(filling, bufferBytes);
        filling = -1;
        int used = 0;
        while (left > 0) {
            int id = spares[used++];
            int n = (int) Math.min(left, bufferBytes);
            left -= n;
            if (n == bufferBytes) {
                owe(id, n);
            } else {
                filling = id;
                fillLength = n;
                firstByteAt = now;
            }
        }
        if (used > 0) {
            System.arraycopy(spares, used, spares, 0, spareCount - used);
            spareCount -= used;
        }
    }

    /**
     * After a cycle's reads: a partly filled buffer is owed once it waited {@code timeoutNanos}
     * since its first byte, or at once if the stream ended; an empty one goes back while the
     * socket is idle. Returns whether one was passed on.
     */
    boolean settle(long now, long timeoutNanos, boolean ended) {
        if (filling < 0) {
            return false;
        }
        if (fillLength > 0 && (ended || now - firstByteAt >= timeoutNanos)) {
            owe(filling, fillLength);
            filling = -1;
            return true;
        }
        if (fillLength == 0 && (ended || spareCount == 0)) {
            pool.give(filling);                     // an empty buffer goes back: an idle socket holds none
            filling = -1;
        }
        return false;
    }

    /** The connection failed: bytes already received are owed; nothing more is read. */
    void failed() {
        if (filling >= 0) {
            if (fillLength > 0) {
                owe(filling, fillLength);
            } else {
                pool.give(filling);
            }
            filling = -1;
        }
        giveSpares();
    }

    /** When the buffer under way must be passed on without more data, or {@link Long#MAX_VALUE}. */
    long deadline(long timeoutNanos) {
        return filling >= 0 && fillLength > 0 ? firstByteAt + timeoutNanos : Long.MAX_VALUE;
    }

    private void owe(int id, int length) {
        owed[owedTail & (owed.length - 1)] = id;
        owedLength[owedTail & (owed.length - 1)] = length;
        owedTail++;
    }

    private int owedCount() {
        return owedTail - owedHead;
    }

    /** Whether filled buffers wait for the event queue. */
    boolean owes() {
        return owedHead != owedTail;
    }

    /** Whether nothing received waits here (none filling, none owed). */
    boolean drained() {
        return filling < 0 && owedHead == owedTail;
    }

    int owedBuffer() {
        return owed[owedHead & (owed.length - 1)];
    }

    int owedLength() {
        return owedLength[owedHead & (owed.length - 1)];
    }

    /** The oldest owed buffer was posted to the host. */
    void posted() {
        owedHead++;
        posted++;
    }

    /** Fresh buffers go back to the pool (the socket went idle). */
    void giveSpares() {
        for (int i = 0; i < spareCount; i++) {
            pool.give(spares[i]);
        }
        spareCount = 0;
    }

    /** Everything goes back (the host will read none of it: closed, or the engine stops). */
    void release() {
        if (filling >= 0) {
            pool.give(filling);
            filling = -1;
        }
        for (; owedHead != owedTail; owedHead++) {
            pool.give(owed[owedHead & (owed.length - 1)]);
        }
        giveSpares();
    }

    /** The owed buffers go back, unposted (the host closed). */
    void giveOwed() {
        for (; owedHead != owedTail; owedHead++) {
            pool.give(owed[owedHead & (owed.length - 1)]);
        }
    }
}
