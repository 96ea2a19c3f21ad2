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
    private int head;
    private int count;

    InboundReadQueue(int capacity) {
        sinkStag = new int[capacity];
        sinkTo = new long[capacity];
        size = new long[capacity];
        source = new Region[capacity];
        sourceOffset = new long[capacity];
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
        count++;
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
