package org.jwarp.verbs;

/**
 * A receive work request ({@code ibv_recv_wr}): a buffer, as a list of registered SGEs, for one
 * incoming Send (any of the four Send opcodes) or RFC 7306 Immediate Data message. Mutable and
 * reusable like {@link SendWr}; SGEs live in preallocated parallel arrays of fixed capacity.
 *
 * <p>Every SGE must name a region with {@link Access#LOCAL_WRITE}; the provider checks this when
 * the buffer is used and reports {@link WcStatus#LOC_PROT_ERR} otherwise. A message longer than the
 * buffer completes with {@link WcStatus#LOC_LEN_ERR} and the connection is terminated (DDP
 * untagged "message too long", RFC 5041 §7.2).
 *
 * <p>The provider reads the request during the {@code postRecv} call only. Not thread-safe.
 */
public final class RecvWr implements ScatterGatherList {

    /** Default SGE capacity of {@link #RecvWr()}. */
    public static final int DEFAULT_MAX_SGE = 4;

    private long wrId;
    private final SgeArray sges;

    /** A request with room for {@link #DEFAULT_MAX_SGE} SGEs. */
    public RecvWr() {
        this(DEFAULT_MAX_SGE);
    }

    /**
     * A request with room for {@code maxSge} SGEs.
     *
     * @throws IllegalArgumentException if {@code maxSge} is not in 1..65535
     * @param maxSge the SGE capacity
     */
    public RecvWr(int maxSge) {
        sges = new SgeArray("RecvWr", maxSge, false);
    }

    /**
     * Clears wrId and the SGE list; returns {@code this}.
     *
     * @return this request
     */
    public RecvWr reset() {
        wrId = 0;
        sges.clear();
        return this;
    }

    /**
     * Sets the caller's identifier, returned in the completion.
     * @param wrId any value; the provider does not interpret it
     * @return this request
     */
    public RecvWr wrId(long wrId) {
        this.wrId = wrId;
        return this;
    }

    /**
     * Removes all SGEs (capacity unchanged).
     * @return this request
     */
    public RecvWr clearSges() {
        sges.clear();
        return this;
    }

    /**
     * Appends {@code length} bytes at {@code offset} from the start of {@code mr}.
     *
     * @throws IllegalStateException    if the capacity is exhausted
     * @throws IllegalArgumentException if {@code offset} or {@code length} is negative
     * @param mr     the registered region
     * @param offset byte offset from the start of the region
     * @param length bytes
     * @return this request
     */
    public RecvWr addSge(MemoryRegion mr, long offset, int length) {
        return addSge(mr.lkey(), offset, length);
    }

    /**
     * As {@link #addSge(MemoryRegion, long, int)}, naming the region by its lkey.
     *
     * @param lkey   the region's lkey
     * @param offset byte offset from the start of the region
     * @param length bytes
     * @return this request
     */
    public RecvWr addSge(int lkey, long offset, int length) {
        sges.add(lkey, offset, length, null);
        return this;
    }

    /** {@return the caller's identifier} */
    public long wrId() {
        return wrId;
    }

    /** {@return the SGE capacity} */
    public int maxSge() {
        return sges.capacity();
    }

    @Override
    public int numSge() {
        return sges.count();
    }

    @Override
    public int sgeLkey(int i) {
        return sges.lkey(i);
    }

    @Override
    public long sgeOffset(int i) {
        return sges.offset(i);
    }

    @Override
    public int sgeLength(int i) {
        return sges.length(i);
    }

    /**
     * Sum of the SGE lengths: the largest message this buffer takes.
     *
     * @return the sum in bytes
     */
    @Override
    public long totalLength() {
        return sges.totalLength();
    }

    /**
     * The checks every provider makes on a posted receive, as a {@link PostStatus} reason code.
     *
     * @param maxSge the queue pair's {@code maxRecvSge}
     * @return a {@link PostStatus} code
     */
    public int check(int maxSge) {
        return sges.count() > maxSge ? PostStatus.TOO_MANY_SGE : PostStatus.OK;
    }

    /**
     * Copies every field of {@code other} into this request.
     *
     * @param other the request to copy
     * @return this request
     * @throws IllegalStateException if {@code other} has more SGEs than this capacity
     */
    public RecvWr copyFrom(RecvWr other) {
        sges.copyFrom(other.sges);
        wrId = other.wrId;
        return this;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("RecvWr{wrId=").append(wrId).append(", sges=");
        return sges.appendTo(sb).append('}').toString();
    }
}
