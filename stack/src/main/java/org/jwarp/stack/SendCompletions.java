package org.jwarp.stack;

import org.jwarp.verbs.WcOpcode;
import org.jwarp.verbs.WcStatus;

/**
 * Send-queue completions held back in submission order, each until the transmit sink's barrier
 * count reaches its own. Parallel arrays that grow (doubling) only if more requests are outstanding
 * than ever before, so a steady data path allocates nothing.
 */
final class SendCompletions {

    private long[] wrId;
    private WcStatus[] status;
    private WcOpcode[] opcode;
    private long[] bytes;
    private long[] barrier;
    private int head;
    private int count;

    SendCompletions(int capacity) {
        wrId = new long[capacity];
        status = new WcStatus[capacity];
        opcode = new WcOpcode[capacity];
        bytes = new long[capacity];
        barrier = new long[capacity];
    }

    boolean isEmpty() {
        return count == 0;
    }

    void add(long id, WcStatus st, WcOpcode op, long n, long b) {
        if (count == wrId.length) {
            grow();
        }
        int i = (head + count) % wrId.length;
        wrId[i] = id;
        status[i] = st;
        opcode[i] = op;
        bytes[i] = n;
        barrier[i] = b;
        count++;
    }

    private void grow() {
        int n = RingArrays.next(wrId.length, Integer.MAX_VALUE);
        wrId = RingArrays.grow(wrId, head, count, n);
        status = RingArrays.grow(status, head, count, n);
        opcode = RingArrays.grow(opcode, head, count, n);
        bytes = RingArrays.grow(bytes, head, count, n);
        barrier = RingArrays.grow(barrier, head, count, n);
        head = 0;
    }

    long headWrId() {
        return wrId[head];
    }

    WcStatus headStatus() {
        return status[head];
    }

    WcOpcode headOpcode() {
        return opcode[head];
    }

    long headBytes() {
        return bytes[head];
    }

    long headBarrier() {
        return barrier[head];
    }

    void pop() {
        status[head] = null;
        opcode[head] = null;
        head = (head + 1) % wrId.length;
        count--;
    }
}
