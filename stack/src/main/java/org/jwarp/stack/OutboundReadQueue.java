package org.jwarp.stack;

import org.jwarp.verbs.WcOpcode;

/**
 * The requester's outstanding RDMA Read Requests, at most ORD of them (RFC 5040 §6.1): each waits
 * for its Read Response, which must match it exactly — sink STag, tagged offset and length — and
 * responses arrive in request order (RFC 5040 §5.5, rule 20). Parallel arrays that start small
 * and grow up to ORD ({@link RingArrays}); no allocation once grown.
 */
final class OutboundReadQueue {

    private long[] wrId;
    private boolean[] signaled;
    private int[] sinkStag;
    private long[] sinkTo;
    private long[] length;
    private long[] placed;
    // RFC 7306: Atomic Requests share the Read Request queue, its MSNs and the ORD credits
    private boolean[] atomic;
    private int[] requestId;
    private StagTable.Region[] resultRegion;
    private long[] resultOffset;
    private boolean[] compareSwap;
    private final int ord;
    private int head;
    private int count;

    /** @param ord the most requests outstanding at once (RFC 5040 §6.1) */
    OutboundReadQueue(int ord) {
        this.ord = ord;
        wrId = new long[0];
        signaled = new boolean[0];
        sinkStag = new int[0];
        sinkTo = new long[0];
        length = new long[0];
        placed = new long[0];
        atomic = new boolean[0];
        requestId = new int[0];
        resultRegion = new StagTable.Region[0];
        resultOffset = new long[0];
        compareSwap = new boolean[0];
    }

    int size() {
        return count;
    }

    boolean full() {
        return count == ord;
    }

    /** A slot for one more request, growing the arrays if every one is taken (below ORD). */
    private int tail() {
        if (count == wrId.length) {
            int n = RingArrays.next(wrId.length, ord);
            wrId = RingArrays.grow(wrId, head, count, n);
            signaled = RingArrays.grow(signaled, head, count, n);
            sinkStag = RingArrays.grow(sinkStag, head, count, n);
            sinkTo = RingArrays.grow(sinkTo, head, count, n);
            length = RingArrays.grow(length, head, count, n);
            placed = RingArrays.grow(placed, head, count, n);
            atomic = RingArrays.grow(atomic, head, count, n);
            requestId = RingArrays.grow(requestId, head, count, n);
            resultRegion = RingArrays.grow(resultRegion, head, count, n);
            resultOffset = RingArrays.grow(resultOffset, head, count, n);
            compareSwap = RingArrays.grow(compareSwap, head, count, n);
            head = 0;
        }
        return (head + count) % wrId.length;
    }

    void push(long id, boolean sig, int stag, long to, long len) {
        int i = tail();
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
        int i = tail();
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
