package org.jwarp.engine.io;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * The memory scopes one system call keeps open while the kernel reads or writes the call's pieces
 * by address: one segment of each distinct scope among them, passed to the downcall as arguments
 * the callee ignores. The FFM linker acquires the scope of every segment argument for the call's
 * duration, so an {@code Arena.close()} on another thread during the call fails ("acquired by
 * clients") and the application closes it after the call instead, and a scope closed before the
 * call fails the call (IllegalStateException, "Already closed") before the kernel is entered.
 * Staging pieces need no hold (direct buffers the engine keeps), nor does the global arena's memory.
 *
 * <p>Fixed capacity: a call covers the leading pieces whose scopes fit, the rest waits for the
 * next call (a short read or write). Unused slots hold {@link MemorySegment#NULL}, whose scope
 * is global: nothing to acquire. Owned by one thread; allocates nothing after construction.
 */
final class ScopeHolds {

    private static final MemorySegment.Scope GLOBAL = Arena.global().scope();

    private final MemorySegment[] held;
    private int count;

    ScopeHolds(int capacity) {
        held = new MemorySegment[capacity];
        Arrays.fill(held, MemorySegment.NULL);
    }

    /** Slot {@code i}: a segment of a scope to hold, or {@link MemorySegment#NULL}. */
    MemorySegment get(int i) {
        return held[i];
    }

    /** Scopes held. */
    int count() {
        return count;
    }

    void clear() {
        for (int i = 0; i < count; i++) {
            held[i] = MemorySegment.NULL;
        }
        count = 0;
    }

    /**
     * Clears the holds, then holds the scopes of {@code v}'s pieces from its start, as many pieces
     * as fit, and returns how many (at least one when {@code v} has any).
     */
    int holdFor(IoVector v) {
        clear();
        int n = 0;
        for (int i = v.start(); i < v.end() && (v.buffer(i) != null || hold(v.segment(i))); i++) {
            n++;
        }
        return n;
    }

    /** Holds the scope of {@code s}; false if it needs a slot and none is left. */
    private boolean hold(MemorySegment s) {
        MemorySegment.Scope scope = s.scope();
        if (scope == GLOBAL) {
            return true;
        }
        for (int i = 0; i < count; i++) {
            if (held[i].scope() == scope) {
                return true;
            }
        }
        if (count == held.length) {
            return false;
        }
        held[count++] = s;
        return true;
    }
}
