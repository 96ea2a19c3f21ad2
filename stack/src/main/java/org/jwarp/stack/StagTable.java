package org.jwarp.stack;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.Stag;

/**
 * The device's registered memory, by STag (RFC 5040 §2.1: an STag names a tagged buffer; RFC 5041
 * §7.1: every tagged segment is checked against it before a byte is placed). An STag is a 24-bit
 * index and an 8-bit key ({@link Stag}); re-registration keeps the index and moves the key, so a
 * peer holding the old STag is refused.
 *
 * <p>Registration and deregistration come from application threads (setup path: synchronized,
 * allocates); lookups come from engine threads (data path: one acquire load, no lock, no
 * allocation). Each {@link Region} is immutable and published with release semantics.
 */
public final class StagTable {

    /**
     * One registered region or memory window: what its STag names and who may do what with it.
     *
     * @param qp     for a window bound through a queue pair (type 2, RFC 5040 §2.1), that queue pair's
     *               number: only its stream may use the STag; 0 for any stream of the PD
     * @param window whether the STag is a memory window's (never usable as a local key)
     */
    public record Region(int stag, int pd, MemorySegment segment, long iova, int access, int qp, boolean window) {

        public Region(int stag, int pd, MemorySegment segment, long iova, int access) {
            this(stag, pd, segment, iova, access, 0, false);
        }

        public long length() {
            return segment.byteSize();
        }
    }

    private final AtomicReferenceArray<Region> regions;
    private final int[] lastKey;
    /** Per index: above 0, a region for fast registration of at most this many bytes. */
    private final long[] fastRegMax;
    private final int[] freeIndexes;
    private int freeCount;

    /** A table for up to {@code capacity} regions (index 0 is never used: STag 0 is invalid). */
    /** Written under this table's lock, read without it. */
    private volatile long deregistrations;

    public StagTable(int capacity) {
        if (capacity < 1 || capacity > Stag.MAX_INDEX) {
            throw new IllegalArgumentException("STag table capacity must be 1.." + Stag.MAX_INDEX + ": " + capacity);
        }
        regions = new AtomicReferenceArray<>(capacity + 1);
        lastKey = new int[capacity + 1];
        fastRegMax = new long[capacity + 1];
        freeIndexes = new int[capacity];
        for (int i = 0; i < capacity; i++) {
            freeIndexes[i] = capacity - i; // hand out low indexes first
        }
        freeCount = capacity;
    }

    public synchronized Region register(int pd, MemorySegment segment, long iova, int access) {
        Access.validate(access);
        if (freeCount == 0) {
            throw new IllegalStateException("no free STag: all " + freeIndexes.length + " memory regions are registered");
        }
        int index = freeIndexes[--freeCount];
        return publish(index, pd, segment, iova, access);
    }

    /** Re-registers in place: same index, next key; the old STag stops working at once. */
    public synchronized Region reregister(int stag, int pd, MemorySegment segment, long iova, int access) {
        Access.validate(access);
        int index = Stag.index(stag);
        Region old = index < regions.length() ? regions.get(index) : null;
        if (old == null || old.stag() != stag) {
            throw new IllegalArgumentException("STag " + Stag.toString(stag) + " is not registered");
        }
        deregistrations++;              // the old memory leaves the region
        return publish(index, pd, segment, iova, access);
    }

    private Region publish(int index, int pd, MemorySegment segment, long iova, int access) {
        int key = Stag.nextKey(lastKey[index]);
        lastKey[index] = key;
        Region r = new Region(Stag.of(index, key), pd, segment, iova, access);
        regions.setRelease(index, r);
        return r;
    }

    /** Invalidates and frees the STag; false if it was not registered (already gone). */
    public synchronized boolean deregister(int stag) {
        int index = Stag.index(stag);
        if (index == 0 || index >= regions.length()) {
            return false;
        }
        Region old = regions.get(index);
        if (old == null || old.stag() != stag) {
            return false;
        }
        regions.setRelease(index, null);
        fastRegMax[index] = 0;
        freeIndexes[freeCount++] = index;
        deregistrations++;
        return true;
    }

    /**
     * How many regions were deregistered (or reregistered to other memory) so far: a holder of per-region state (views of a region's
     * memory) drops it when this moves, so that no state of a dead region outlives it.
     */
    public long deregistrations() {
        return deregistrations;
    }

    /**
     * RFC 5040 §5.3 (Send with Invalidate) and local invalidation: makes the STag invalid for remote
     * access if it belongs to protection domain {@code pd}; a memory window becomes unbound. The
     * index stays allocated until the owner deregisters. Returns false if the STag is unknown or
     * not associated with the stream's PD.
     */
    public synchronized boolean invalidate(int stag, int pd) {
        Region r = lookup(stag);
        if (r == null || r.pd() != pd) {
            return false;
        }
        int index = Stag.index(stag);
        if (fastRegMax[index] > 0) {
            // a fast-registered region is invalid for every use until the next REG_MR
            regions.setRelease(index, new Region(r.stag(), r.pd(), MemorySegment.NULL, 0, 0));
            deregistrations++;
            return true;
        }
        regions.setRelease(index, r.window() ? unboundWindow(r.stag(), r.pd())
                : new Region(r.stag(), r.pd(), r.segment(), r.iova(), r.access()
                        & ~(Access.REMOTE_READ | Access.REMOTE_WRITE | Access.REMOTE_ATOMIC)));
        return true;
    }

    // ---- fast registration (a region registered by a work request, IBV_WR_REG_MR-style) -------

    /** A region of {@code pd} for fast registration of up to {@code maxLength} bytes; invalid until registered. */
    public synchronized Region allocFastReg(int pd, long maxLength) {
        if (maxLength < 1) {
            throw new IllegalArgumentException("a fast-registration region needs a maximum length of at least 1");
        }
        if (freeCount == 0) {
            throw new IllegalStateException("no free STag: all " + freeIndexes.length + " STags are in use");
        }
        int index = freeIndexes[--freeCount];
        fastRegMax[index] = maxLength;
        return publish(index, pd, MemorySegment.NULL, 0, 0);
    }

    /** {@link #fastRegister} refused: the STag is not a fast-registration region of this PD. */
    public static final int REG_NOT_FAST = 21;
    /** {@link #fastRegister} refused: the new STag has another index, or the same key. */
    public static final int REG_BAD_KEY = 22;
    /** {@link #fastRegister} refused: empty, or longer than the region's maximum. */
    public static final int REG_BAD_LENGTH = 23;
    /** {@link #fastRegister} refused: unknown access flags. */
    public static final int REG_BAD_ACCESS = 24;

    /**
     * Registers {@code segment} at tagged offset {@code iova} with {@code access} on the
     * fast-registration region {@code stag}, under {@code newStag} (same index, the consumer's next
     * key): the old STag stops working at once. Returns {@link #OK} or the first failed check.
     */
    public synchronized int fastRegister(int stag, int newStag, int pd, MemorySegment segment, long iova, int access) {
        Region r = lookup(stag);
        int index = Stag.index(stag);
        if (r == null || fastRegMax[index] == 0 || r.pd() != pd) {
            return REG_NOT_FAST;
        }
        if (Stag.index(newStag) != index || newStag == stag) {
            return REG_BAD_KEY;
        }
        if (segment == null || segment.byteSize() == 0 || segment.byteSize() > fastRegMax[index]) {
            return REG_BAD_LENGTH;
        }
        if ((access & ~Access.ALL) != 0) {
            return REG_BAD_ACCESS;
        }
        lastKey[index] = Stag.key(newStag);
        deregistrations++;                          // the old memory leaves the region
        regions.setRelease(index, new Region(newStag, pd, segment, iova, access));
        return OK;
    }

    // ---- memory windows (RFC 5040 §2.1, §6.2: type 2, bound by a work request on a queue pair) ----

    private static Region unboundWindow(int stag, int pd) {
        return new Region(stag, pd, MemorySegment.NULL, 0, 0, 0, true);
    }

    /** A memory window of {@code pd}, unbound: its STag grants nothing until a bind. */
    public synchronized Region allocWindow(int pd) {
        if (freeCount == 0) {
            throw new IllegalStateException("no free STag: all " + freeIndexes.length + " STags are in use");
        }
        int index = freeIndexes[--freeCount];
        int key = Stag.nextKey(lastKey[index]);
        lastKey[index] = key;
        Region r = unboundWindow(Stag.of(index, key), pd);
        regions.setRelease(index, r);
        return r;
    }

    /** {@link #bindWindow} refused: the window STag is not a window of this PD. */
    public static final int BIND_NOT_A_WINDOW = 11;
    /** {@link #bindWindow} refused: the new STag has another index, or the same key. */
    public static final int BIND_BAD_KEY = 12;
    /** {@link #bindWindow} refused: the region is not a valid region of this PD. */
    public static final int BIND_BAD_REGION = 13;
    /** {@link #bindWindow} refused: the range is outside the region. */
    public static final int BIND_OUT_OF_BOUNDS = 14;
    /** {@link #bindWindow} refused: remote write or atomic access over a region without local write. */
    public static final int BIND_ACCESS = 15;

    /**
     * Binds window {@code windowStag} (its current STag) as {@code newStag} (same index, the
     * consumer's next key, as OFED's {@code ibv_inc_rkey}) over {@code [offset, offset + length)} of
     * {@code region}, granting {@code access}, usable only through queue pair {@code qp}. The old
     * STag stops working at once. Returns {@link #OK} or the first failed check.
     */
    public synchronized int bindWindow(int windowStag, int newStag, int pd, int qp, Region region, long offset,
                                       long length, int access) {
        Region w = lookup(windowStag);
        if (w == null || !w.window() || w.pd() != pd) {
            return BIND_NOT_A_WINDOW;
        }
        if (Stag.index(newStag) != Stag.index(windowStag) || newStag == windowStag) {
            return BIND_BAD_KEY;
        }
        if (region == null || region.window() || region.pd() != pd) {
            return BIND_BAD_REGION;
        }
        if (offset < 0 || length < 0 || offset + length > region.length()) {
            return BIND_OUT_OF_BOUNDS;
        }
        if ((access & ~(Access.REMOTE_READ | Access.REMOTE_WRITE | Access.REMOTE_ATOMIC)) != 0
                || (access & (Access.REMOTE_WRITE | Access.REMOTE_ATOMIC)) != 0
                && (region.access() & Access.LOCAL_WRITE) == 0) {
            return BIND_ACCESS;
        }
        int index = Stag.index(windowStag);
        lastKey[index] = Stag.key(newStag);
        regions.setRelease(index, new Region(newStag, pd, region.segment().asSlice(offset, length),
                region.iova() + offset, access, qp, true));
        return OK;
    }

    /** What the STag's index names now, whatever its key (a window's STag after a bind), or null. */
    public Region current(int stag) {
        int index = Stag.index(stag);
        return index == 0 || index >= regions.length() ? null : regions.getAcquire(index);
    }

    /** The region the STag names (index and key), or null. Data path: no lock. */
    public Region lookup(int stag) {
        int index = Stag.index(stag);
        if (index == 0 || index >= regions.length()) {
            return null;
        }
        Region r = regions.getAcquire(index);
        return r != null && r.stag() == stag ? r : null;
    }

    // ---- placement checks (RFC 5041 §7.1, RFC 5040 §5.2) ------------------------------------

    public static final int OK = 0;
    public static final int INVALID_STAG = 1;
    public static final int NOT_ASSOCIATED = 2;
    public static final int ACCESS_DENIED = 3;
    public static final int OUT_OF_BOUNDS = 4;
    public static final int TO_WRAP = 5;
    /**
     * The region is registered and the access passed every other check, but its memory is gone:
     * the application closed the {@link java.lang.foreign.Arena} of its segment while it was still
     * registered. Nothing may be placed into or read from it (the JDK refuses it, and a system call
     * given its address would touch freed memory).
     */
    public static final int MEMORY_FREED = 6;

    /**
     * Whether the region's memory is still there (its segment's scope is alive). The same check the
     * JDK makes on every access to the segment; a region whose arena was closed fails it for good.
     */
    public static boolean alive(Region r) {
        return r.segment().scope().isAlive();
    }

    /** The checks a local and a remote access share: a valid STag, of protection domain {@code pd}, granting the access. */
    private static int checkOwner(Region r, int pd, int requiredAccess) {
        if (r == null) {
            return INVALID_STAG;
        }
        if (r.pd() != pd) {
            return NOT_ASSOCIATED;
        }
        return (r.access() & requiredAccess) != requiredAccess ? ACCESS_DENIED : OK;
    }

    /**
     * Checks a remote access of {@code length} bytes at tagged offset {@code to} through
     * {@code stag}: the STag is valid, its region belongs to protection domain {@code pd} (the
     * stream's), grants {@code requiredAccess}, and [TO, TO + length) lies inside it without the
     * 64-bit sum wrapping. Returns {@link #OK} or the first failed check.
     */
    public int checkRemote(Region r, int pd, int requiredAccess, long to, long length) {
        return checkRemote(r, pd, 0, requiredAccess, to, length);
    }

    /**
     * {@link #checkRemote(Region, int, int, long, long)} by the stream of queue pair {@code qp}: a
     * window bound through another queue pair is not associated with this stream (RFC 5040 §2.1).
     */
    public int checkRemote(Region r, int pd, int qp, int requiredAccess, long to, long length) {
        int owner = checkOwner(r, pd, requiredAccess);
        if (owner != OK) {
            return owner;
        }
        if (r.qp() != 0 && r.qp() != qp) {
            return NOT_ASSOCIATED;
        }
        long end = to + length;
        if (Long.compareUnsigned(end, to) < 0) {
            return TO_WRAP;
        }
        if (Long.compareUnsigned(to, r.iova()) < 0 || Long.compareUnsigned(end, r.iova() + r.length()) > 0) {
            return OUT_OF_BOUNDS;
        }
        return alive(r) ? OK : MEMORY_FREED;
    }

    /**
     * Checks a local scatter/gather entry: {@code lkey} names a region of {@code pd} with
     * {@code requiredAccess} (0 for a source, {@link Access#LOCAL_WRITE} for a sink) and
     * [offset, offset + length) lies inside it.
     */
    public int checkLocal(Region r, int pd, int requiredAccess, long offset, long length) {
        if (r != null && r.window()) {
            return INVALID_STAG;                    // a window's STag is for peers only
        }
        int owner = checkOwner(r, pd, requiredAccess);
        if (owner != OK) {
            return owner;
        }
        if (offset < 0 || length < 0 || offset + length > r.length()) {
            return OUT_OF_BOUNDS;
        }
        return alive(r) ? OK : MEMORY_FREED;
    }
}
