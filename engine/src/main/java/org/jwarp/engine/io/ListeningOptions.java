package org.jwarp.engine.io;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.channels.ServerSocketChannel;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import org.jwarp.sys.Downcalls;

/**
 * The options every accepted socket needs — no delay, and the peer timeout's keepalive and
 * {@code TCP_USER_TIMEOUT} ({@link TcpLiveness}) — set once on the listening socket. Linux makes
 * each accepted socket a clone of its listener's, options included (and arms the keepalive timer
 * of a socket born with {@code SO_KEEPALIVE}), so a connection accepted there needs no option call
 * of its own. Elsewhere, or where a call fails, {@link #inherit} says no and each accepted socket
 * gets its options as before.
 */
public final class ListeningOptions {

    private static final int SOL_SOCKET = 1;
    private static final int SO_KEEPALIVE = 9;
    private static final int IPPROTO_TCP = 6;
    private static final int TCP_NODELAY = 1;
    private static final int TCP_KEEPIDLE = 4;
    private static final int TCP_KEEPINTVL = 5;
    private static final int TCP_KEEPCNT = 6;
    private static final int TCP_USER_TIMEOUT = 18;

    /** {@code setsockopt}, looked up on first use. */
    private static final class Setsockopt {
        static final Optional<MethodHandle> HANDLE = Downcalls.find("setsockopt",
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT,
                        ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT));
    }

    private ListeningOptions() {
    }

    /**
     * Sets on {@code server} what its accepted sockets need (the peer timeout {@code bound}, none
     * for zero); returns whether they inherit it all, so that none needs an option call.
     */
    public static boolean inherit(ServerSocketChannel server, Duration bound) {
        if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux")
                || SocketDescriptor.why() != null || Setsockopt.HANDLE.isEmpty()) {
            return false;
        }
        int fd = SocketDescriptor.of(server);
        try (Arena arena = Arena.ofConfined()) {
            boolean set = set(arena, fd, IPPROTO_TCP, TCP_NODELAY, 1);
            if (set && !bound.isZero()) {
                int seconds = (int) Math.max(3, Math.min(Integer.MAX_VALUE, bound.toSeconds()));
                // the same values as TcpLiveness gives a connected socket
                set = set(arena, fd, SOL_SOCKET, SO_KEEPALIVE, 1)
                        && set(arena, fd, IPPROTO_TCP, TCP_KEEPIDLE, Math.max(1, seconds / 2))
                        && set(arena, fd, IPPROTO_TCP, TCP_KEEPINTVL, Math.max(1, seconds / 6))
                        && set(arena, fd, IPPROTO_TCP, TCP_KEEPCNT, 3)
                        && set(arena, fd, IPPROTO_TCP, TCP_USER_TIMEOUT,
                        (int) Math.min(Integer.MAX_VALUE, bound.toMillis()));
            }
            return set;
        }
    }

    private static boolean set(Arena arena, int fd, int level, int option, int value) {
        try {
            MemorySegment v = arena.allocateFrom(ValueLayout.JAVA_INT, value);
            MemorySegment capture = Downcalls.captureBuffer(arena);
            return (int) Setsockopt.HANDLE.get().invokeExact(capture, fd, level, option, v, Integer.BYTES) == 0;
        } catch (Throwable e) {
            return false;
        }
    }
}
