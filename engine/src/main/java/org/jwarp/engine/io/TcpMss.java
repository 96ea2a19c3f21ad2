package org.jwarp.engine.io;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.channels.SocketChannel;
import java.util.Optional;
import org.jwarp.sys.Downcalls;

/**
 * A connection's current TCP maximum segment size ({@code TCP_MAXSEG}): what the peer's MSS option
 * and the path allow, net of the TCP options in use. It is the EMSS that MPA sizes FPDUs by
 * (RFC 5044 §4.5, §8), so that each FPDU starts a segment. The local interface's MTU is not enough:
 * a host with jumbo frames talking to a peer behind a 1500-byte hop would frame FPDUs several
 * segments long.
 */
public final class TcpMss {

    /** Linux's {@code TCP_MAXSEG} option name at level {@code IPPROTO_TCP}. */
    private static final int TCP_MAXSEG = 2;

    /** {@code getsockopt}, looked up on first use: a program whose sockets' descriptors are hidden never links it. */
    private static final class Getsockopt {
        static final Optional<MethodHandle> HANDLE = Downcalls.findWithoutErrno("getsockopt",
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT,
                        ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS));
    }

    private TcpMss() {
    }

    /** The current MSS of connected {@code channel}, or 0 if it cannot be read (hidden descriptors, no getsockopt). */
    public static int of(SocketChannel channel) {
        return SocketDescriptor.why() != null ? 0 : ofDescriptor(SocketDescriptor.of(channel));
    }

    /** The current MSS of the connected socket {@code fd}, or 0 if it cannot be read. */
    static int ofDescriptor(int fd) {
        if (Getsockopt.HANDLE.isEmpty()) {
            return 0;
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment value = arena.allocate(ValueLayout.JAVA_INT);
            MemorySegment length = arena.allocateFrom(ValueLayout.JAVA_INT, Integer.BYTES);
            int rc = (int) Getsockopt.HANDLE.get().invokeExact(fd, Setsockopt.IPPROTO_TCP, TCP_MAXSEG, value, length);
            return rc == 0 ? value.get(ValueLayout.JAVA_INT, 0) : 0;
        } catch (Throwable e) {
            return 0;
        }
    }
}
