package org.jwarp.ibverbs;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemoryLayout.PathElement;
import java.lang.foreign.ValueLayout;

/**
 * What the hand-written structure layouts share (jextract is not used): the C types of the
 * x86_64 Linux ABI, opaque pthread members, and field offsets by dotted path. {@code LayoutsTest}
 * compares every named field with {@code offsetof} in the C headers where a compiler exists.
 */
final class Structs {

    /** {@code int}, {@code unsigned int}, {@code uint32_t} and C enums. */
    static final ValueLayout.OfInt INT = JAVA_INT;
    /** {@code uint64_t}, {@code size_t}. */
    static final ValueLayout.OfLong U64 = JAVA_LONG;
    /** Any pointer. */
    static final ValueLayout PTR = ADDRESS;

    private Structs() {
    }

    /** glibc's {@code pthread_mutex_t} on x86_64: 40 bytes, 8-aligned (bits/pthreadtypes-arch.h). */
    static MemoryLayout mutex(String name) {
        return MemoryLayout.sequenceLayout(5, JAVA_LONG).withName(name);
    }

    /** glibc's {@code pthread_cond_t}: 48 bytes, 8-aligned (bits/pthreadtypes-arch.h). */
    static MemoryLayout cond(String name) {
        return MemoryLayout.sequenceLayout(6, JAVA_LONG).withName(name);
    }

    /** {@code n} bytes the C compiler inserts for alignment. */
    static MemoryLayout pad(long n) {
        return MemoryLayout.paddingLayout(n);
    }

    /** {@code char name[n]}. */
    static MemoryLayout chars(String name, long n) {
        return MemoryLayout.sequenceLayout(n, ValueLayout.JAVA_BYTE).withName(name);
    }

    /** Offset of the member at dotted {@code path} ("ops.post_send") in {@code layout}. */
    static long offset(GroupLayout layout, String path) {
        String[] parts = path.split("\\.");
        PathElement[] elements = new PathElement[parts.length];
        for (int i = 0; i < parts.length; i++) {
            elements[i] = PathElement.groupElement(parts[i]);
        }
        return layout.byteOffset(elements);
    }
}
