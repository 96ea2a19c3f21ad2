package org.jwarp.engine.io;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Optional;
import org.jwarp.sys.Downcalls;

/**
 * {@code setsockopt(2)} on a descriptor, for what Java's socket options do not reach: an option
 * Java does not name ({@code TCP_USER_TIMEOUT}) or a socket it does not let set them (a listening
 * one's TCP options). The option names are Linux's. Setup path only.
 */
final class Setsockopt {

    static final int SOL_SOCKET = 1;
    static final int SO_KEEPALIVE = 9;
    static final int IPPROTO_TCP = 6;
    static final int TCP_NODELAY = 1;
    static final int TCP_KEEPIDLE = 4;
    static final int TCP_KEEPINTVL = 5;
    static final int TCP_KEEPCNT = 6;
    static final int TCP_USER_TIMEOUT = 18;

    /** Looked up on first use: a program whose sockets' descriptors are hidden never links it. */
    private static final class Handle {
        static final Optional<MethodHandle> SETSOCKOPT = Downcalls.find("setsockopt",
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT,
                        ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT));
    }

    private Setsockopt() {
    }

    /** Whether libc has it. */
    static boolean available() {
        return Handle.SETSOCKOPT.isPresent();
    }

    /**
     * Sets the int option {@code level}/{@code option} of {@code fd} to {@code value}: 0, or the
     * errno of the call that failed.
     *
     * @throws IllegalStateException libc has no setsockopt ({@link #available()})
     */
    static int set(int fd, int level, int option, int value) {
        MethodHandle h = Handle.SETSOCKOPT.orElseThrow(() -> new IllegalStateException("libc has no setsockopt()"));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment v = arena.allocateFrom(ValueLayout.JAVA_INT, value);
            MemorySegment capture = Downcalls.captureBuffer(arena);
            int rc = (int) h.invokeExact(capture, fd, level, option, v, Integer.BYTES);
            return rc == 0 ? 0 : Downcalls.errno(capture);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException("setsockopt failed", e);
        }
    }
}
