package org.jwarp.sys;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.util.Optional;

/**
 * libc calls through the FFM API, each capturing errno into a buffer the caller passes first
 * ({@link #captureBuffer}). Restricted (native access): the launcher and the tests pass
 * {@code --enable-native-access=ALL-UNNAMED}; where access is denied, making a handle throws
 * IllegalCallerException, which callers turn into their documented fallback.
 */
public final class Downcalls {

    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CAPTURE_LAYOUT = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CAPTURE_LAYOUT.varHandle(MemoryLayout.PathElement.groupElement("errno"));

    private Downcalls() {
    }

    /**
     * The libc function {@code name} with errno captured, or empty if the C library has none.
     * {@code extra} adds linker options (a variadic function's first variadic argument).
     */
    @SuppressWarnings("restricted")
    public static Optional<MethodHandle> find(String name, FunctionDescriptor descriptor, Linker.Option... extra) {
        Linker.Option[] options = new Linker.Option[extra.length + 1];
        options[0] = Linker.Option.captureCallState("errno");
        System.arraycopy(extra, 0, options, 1, extra.length);
        return LINKER.defaultLookup().find(name).map(symbol -> LINKER.downcallHandle(symbol, descriptor, options));
    }

    /**
     * The libc function {@code name} without errno capture: for a hot call whose failure is then
     * read as a hint ({@link ErrnoHint}) or repeated through a capturing handle. A capturing call
     * costs a per-call object wherever the JIT does not remove it; this one has none to remove.
     */
    public static MethodHandle requireWithoutErrno(String name, FunctionDescriptor descriptor, Linker.Option... extra) {
        return findWithoutErrno(name, descriptor, extra)
                .orElseThrow(() -> new UnsupportedOperationException("libc has no " + name + "()"));
    }

    /** As {@link #requireWithoutErrno}, or empty if the C library has no {@code name}. */
    @SuppressWarnings("restricted")
    public static Optional<MethodHandle> findWithoutErrno(String name, FunctionDescriptor descriptor,
            Linker.Option... extra) {
        return LINKER.defaultLookup().find(name).map(symbol -> LINKER.downcallHandle(symbol, descriptor, extra));
    }

    /** As {@link #find}, for a function every supported libc has. */
    public static MethodHandle require(String name, FunctionDescriptor descriptor, Linker.Option... extra) {
        return find(name, descriptor, extra)
                .orElseThrow(() -> new UnsupportedOperationException("libc has no " + name + "()"));
    }

    /** A buffer for one thread's calls to capture errno in. */
    public static MemorySegment captureBuffer(Arena arena) {
        return arena.allocate(CAPTURE_LAYOUT);
    }

    /** errno as the last failed call with {@code capture} left it. */
    public static int errno(MemorySegment capture) {
        return (int) ERRNO.get(capture, 0L);
    }
}
