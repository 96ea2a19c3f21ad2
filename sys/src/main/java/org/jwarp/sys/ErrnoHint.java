package org.jwarp.sys;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * The calling thread's errno read where libc keeps it ({@code __errno_location}), after a call
 * made without errno capture ({@link Downcalls#requireWithoutErrno}). It allocates nothing,
 * whatever the JIT does, where a capturing call costs a per-call object the JIT may or may not
 * remove.
 *
 * <p>It is a hint, not the answer: the JVM may run code of its own on the thread between the
 * call's return and this read (a safepoint) and overwrite errno. A caller may act on it only
 * where a wrong value is harmless — taking "try again" for a failure that the next call reports
 * again, say — and repeats the call through a capturing handle for anything else.
 *
 * <p>Restricted (native access), like {@link Downcalls}; loaded only by a caller that has made
 * its handles already.
 */
public final class ErrnoHint {

    /** Returns {@code int *}: taken as a long, so that no segment is made for it. */
    private static final MethodHandle ERRNO_LOCATION = Downcalls.findWithoutErrno("__errno_location",
            FunctionDescriptor.of(JAVA_LONG), Linker.Option.critical(false)).orElse(null);

    @SuppressWarnings("restricted")
    private static final MemorySegment ALL_MEMORY = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);

    /** What {@link #read} answers where the C library has no {@code __errno_location}. */
    public static final int UNKNOWN = -1;

    private ErrnoHint() {
    }

    /** errno as the calling thread has it now, or {@link #UNKNOWN}. */
    public static int read() {
        if (ERRNO_LOCATION == null) {
            return UNKNOWN;
        }
        try {
            long location = (long) ERRNO_LOCATION.invokeExact();
            return ALL_MEMORY.get(JAVA_INT, location);
        } catch (Throwable t) {
            throw new IllegalStateException("__errno_location failed", t);
        }
    }
}
