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

    /** One registered region: what its STag names and who may do what with it. */
    public record Region(int stag, int pd, MemorySegment segment, long iova, int access) {

        public long length() {
            return segment.byteSize();
        }
    }

    private final AtomicReferenceArray<Region> regions;
    private final int[] lastKey;
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
     * RFC 5040 §5.3 (Send with Invalidate): makes the STag invalid for remote access if it belongs
     * to protection domain {@code pd}. The index stays allocated until the owner deregisters.
     * Returns false if the STag is unknown or not associated with the stream's PD.
     */
    public synchronized boolean invalidate(int stag, int pd) {
        Region r = lookup(stag);
        if (r == null || r.pd() != pd) {
            return false;
        }
        regions.setRelease(Stag.index(stag), new Region(r.stag(), r.pd(), r.segment(), r.iova(), r.access()
                & ~(Access.REMOTE_READ | Access.REMOTE_WRITE | Access.REMOTE_ATOMIC)));
        return true;
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
        int owner = checkOwner(r, pd, requiredAccess);
        if (owner != OK) {
            return owner;
        }
        long end = to + length;
        if (Long.compareUnsigned(end, to) < 0) {
            return TO_WRAP;
        }
        if (Long.compareUnsigned(to, r.iova()) < 0 || Long.compareUnsigned(end, r.iova() + r.length()) > 0) {
            return OUT_OF_BOUNDS;
        }
        return OK;
    }

    /**
     * Checks a local scatter/gather entry: {@code lkey} names a region of {@code pd} with
     * {@code requiredAccess} (0 for a source, {@link Access#LOCAL_WRITE} for a sink) and
     * [offset, offset + length) lies inside it.
     */
    public int checkLocal(Region r, int pd, int requiredAccess, long offset, long length) {
        int owner = checkOwner(r, pd, requiredAccess);
        if (owner != OK) {
            return owner;
        }
        if (offset < 0 || length < 0 || offset + length > r.length()) {
            return OUT_OF_BOUNDS;
        }
        return OK;
    }
}
