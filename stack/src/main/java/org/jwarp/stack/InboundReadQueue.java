package org.jwarp.stack;

import org.jwarp.stack.StagTable.Region;

/**
 * The responder's accepted RDMA Read Requests, at most IRD of them (RFC 5040 §6.1), answered in
 * arrival order with one Read Response each (RFC 5040 §5.5, rules 17 and 20), by the engine
 * alone. The source region was checked when the request arrived.
 */
final class InboundReadQueue {

    private final int[] sinkStag;
    private final long[] sinkTo;
    private final long[] size;
    private final Region[] source;
    private final long[] sourceOffset;
    // RFC 7306: Atomic Requests are answered in the same order, with the value found before the operation
    private final boolean[] atomic;
    private final int[] requestId;
    private final int[] atomicOpcode;
    private final long[] data;
    private final long[] mask;
    private final long[] compare;
    private final long[] compareMask;
    private int head;
    private int count;

    InboundReadQueue(int capacity) {
        sinkStag = new int[capacity];
        sinkTo = new long[capacity];
        size = new long[capacity];
        source = new Region[capacity];
        sourceOffset = new long[capacity];
        atomic = new boolean[capacity];
        requestId = new int[capacity];
        atomicOpcode = new int[capacity];
        data = new long[capacity];
        mask = new long[capacity];
        compare = new long[capacity];
        compareMask = new long[capacity];
    }

    boolean full() {
        return count == sinkStag.length;
    }

    boolean isEmpty() {
        return count == 0;
    }

    int size() {
        return count;
    }

    void push(int stag, long to, long bytes, Region src, long srcOffset) {
        int i = (head + count) % sinkStag.length;
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
        int i = (head + count) % sinkStag.length;
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
