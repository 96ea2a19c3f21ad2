package org.jwarp.stack;

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
    private int head;
    private int count;

    OutboundReadQueue(int capacity) {
        wrId = new long[capacity];
        signaled = new boolean[capacity];
        sinkStag = new int[capacity];
        sinkTo = new long[capacity];
        length = new long[capacity];
        placed = new long[capacity];
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
        count++;
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
        head = (head + 1) % wrId.length;
        count--;
    }
}
