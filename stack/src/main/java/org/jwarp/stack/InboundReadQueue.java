package org.jwarp.stack;

import org.jwarp.stack.StagTable.Region;

/**
 * The responder's accepted RDMA Read Requests, at most IRD of them (RFC 5040 §6.1), answered in
 * arrival order with one Read Response each (RFC 5040 §5.5, rules 17 and 20), by the engine
 * alone. The source region was checked when the request arrived. The arrays start small and
 * grow up to IRD ({@link RingArrays}).
 */
final class InboundReadQueue {

    private int[] sinkStag;
    private long[] sinkTo;
    private long[] size;
    private Region[] source;
    private long[] sourceOffset;
    // RFC 7306: Atomic Requests are answered in the same order, with the value found before the operation
    private boolean[] atomic;
    private int[] requestId;
    private int[] atomicOpcode;
    private long[] data;
    private long[] mask;
    private long[] compare;
    private long[] compareMask;
    private final int ird;
    private int head;
    private int count;

    /** @param ird the most requests outstanding at once (RFC 5040 §6.1) */
    InboundReadQueue(int ird) {
        this.ird = ird;
        sinkStag = new int[0];
        sinkTo = new long[0];
        size = new long[0];
        source = new Region[0];
        sourceOffset = new long[0];
        atomic = new boolean[0];
        requestId = new int[0];
        atomicOpcode = new int[0];
        data = new long[0];
        mask = new long[0];
        compare = new long[0];
        compareMask = new long[0];
    }

    boolean full() {
        return count == ird;
    }

    /** A slot for one more request, growing the arrays if every one is taken (below IRD). */
    private int tail() {
        if (count == sinkStag.length) {
            int n = RingArrays.next(sinkStag.length, ird);
            sinkStag = RingArrays.grow(sinkStag, head, count, n);
            sinkTo = RingArrays.grow(sinkTo, head, count, n);
            size = RingArrays.grow(size, head, count, n);
            source = RingArrays.grow(source, head, count, n);
            sourceOffset = RingArrays.grow(sourceOffset, head, count, n);
            atomic = RingArrays.grow(atomic, head, count, n);
            requestId = RingArrays.grow(requestId, head, count, n);
            atomicOpcode = RingArrays.grow(atomicOpcode, head, count, n);
            data = RingArrays.grow(data, head, count, n);
            mask = RingArrays.grow(mask, head, count, n);
            compare = RingArrays.grow(compare, head, count, n);
            compareMask = RingArrays.grow(compareMask, head, count, n);
            head = 0;
        }
        return (head + count) % sinkStag.length;
    }

    boolean isEmpty() {
        return count == 0;
    }

    int size() {
        return count;
    }

    void push(int stag, long to, long bytes, Region src, long srcOffset) {
        int i = tail();
        sinkStag[i] = stag;
        sinkTo[i] = to;
        size[i] = bytes;
        source[i] = src;
        sourceOffset[i] = srcOffset;
        atomic[i] = false;
        count++;
    }

    /** An accepted Atomic Request, carried out when its turn to be answered comes. */
    void pushAtomic(int reqId, int aop, long d, long m, long c, long cm, Region target, long targetOffset) {
        int i = tail();
        atomic[i] = true;
        requestId[i] = reqId;
        atomicOpcode[i] = aop;
        data[i] = d;
        mask[i] = m;
        compare[i] = c;
        compareMask[i] = cm;
        source[i] = target;
        sourceOffset[i] = targetOffset;
        count++;
    }

    boolean headAtomic() {
        return atomic[head];
    }

    int headRequestId() {
        return requestId[head];
    }

    int headAtomicOpcode() {
        return atomicOpcode[head];
    }

    long headData() {
        return data[head];
    }

    long headMask() {
        return mask[head];
    }

    long headCompare() {
        return compare[head];
    }

    long headCompareMask() {
        return compareMask[head];
    }

    int headSinkStag() {
        return sinkStag[head];
    }

    long headSinkTo() {
        return sinkTo[head];
    }

    long headSize() {
        return size[head];
    }

    Region headSource() {
        return source[head];
    }

    long headSourceOffset() {
        return sourceOffset[head];
    }

    void pop() {
        source[head] = null;
        head = (head + 1) % sinkStag.length;
        count--;
    }

    void clear() {
        while (count > 0) {
            pop();
        }
    }
}
