package org.jwarp.stack;

import org.jwarp.verbs.WcOpcode;

/**
 * The requester's outstanding RDMA Read Requests, at most ORD of them (RFC 5040 §6.1): each waits
 * for its Read Response, which must match it exactly — sink STag, tagged offset and length — and
 * responses arrive in request order (RFC 5040 §5.5, rule 20). Parallel arrays, no allocation.
 */
final class OutboundReadQueue {

    private final long[] wrId;
    private final boolean[] signaled;
    private final int[] sinkStag;
    private final long[] sinkTo;
    private final long[] length;
    private final long[] placed;
    // RFC 7306: Atomic Requests share the Read Request queue, its MSNs and the ORD credits
    private final boolean[] atomic;
    private final int[] requestId;
    private final StagTable.Region[] resultRegion;
    private final long[] resultOffset;
    private final boolean[] compareSwap;
    private int head;
    private int count;

    OutboundReadQueue(int capacity) {
        wrId = new long[capacity];
        signaled = new boolean[capacity];
        sinkStag = new int[capacity];
        sinkTo = new long[capacity];
        length = new long[capacity];
        placed = new long[capacity];
        atomic = new boolean[capacity];
        requestId = new int[capacity];
        resultRegion = new StagTable.Region[capacity];
        resultOffset = new long[capacity];
        compareSwap = new boolean[capacity];
    }

    int capacity() {
        return wrId.length;
    }

    int size() {
        return count;
    }

    boolean full() {
        return count == wrId.length;
    }

    void push(long id, boolean sig, int stag, long to, long len) {
        int i = (head + count) % wrId.length;
        wrId[i] = id;
        signaled[i] = sig;
        sinkStag[i] = stag;
        sinkTo[i] = to;
        length[i] = len;
        placed[i] = 0;
        atomic[i] = false;
        resultRegion[i] = null;
        count++;
    }

    /** An outstanding Atomic Request: its 8-byte result goes to {@code region} at {@code offset}. */
    void pushAtomic(long id, boolean sig, int reqId, boolean cmpSwap, StagTable.Region region, long offset) {
        int i = (head + count) % wrId.length;
        wrId[i] = id;
        signaled[i] = sig;
        atomic[i] = true;
        requestId[i] = reqId;
        compareSwap[i] = cmpSwap;
        resultRegion[i] = region;
        resultOffset[i] = offset;
        length[i] = 8;
        placed[i] = 0;
        count++;
    }

    boolean headAtomic() {
        return atomic[head];
    }

    int headRequestId() {
        return requestId[head];
    }

    boolean headCompareSwap() {
        return compareSwap[head];
    }

    /** The completion opcode of the oldest request. */
    WcOpcode headOpcode() {
        return !atomic[head] ? WcOpcode.RDMA_READ : compareSwap[head] ? WcOpcode.COMP_SWAP : WcOpcode.FETCH_ADD;
    }

    StagTable.Region headResultRegion() {
        return resultRegion[head];
    }

    long headResultOffset() {
        return resultOffset[head];
    }

    long headWrId() {
        return wrId[head];
    }

    boolean headSignaled() {
        return signaled[head];
    }

    int headSinkStag() {
        return sinkStag[head];
    }

    /** The TO at which the head's next Read Response segment must start. */
    long headNextTo() {
        return sinkTo[head] + placed[head];
    }

    long headRemaining() {
        return length[head] - placed[head];
    }

    long headLength() {
        return length[head];
    }

    void headPlaced(long n) {
        placed[head] += n;
    }

    void pop() {
        resultRegion[head] = null;
        head = (head + 1) % wrId.length;
        count--;
    }
}
