package org.jwarp.engine.io;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;
import java.util.Optional;
import org.jwarp.sys.Downcalls;

/**
 * The local address and port the kernel bound a socket to ({@code getsockname}), also while a
 * non-blocking connect is under way: the kernel binds both as it sends the SYN, but the JDK tells
 * the channel's local address only once the connect has finished. Setup path only.
 */
public final class BoundAddress {

    private static final int AF_INET = 2;
    private static final int AF_INET6 = 10;
    /** {@code sizeof(struct sockaddr_in6)}, the larger of the two. */
    private static final int SOCKADDR_SIZE = 28;

    /** {@code getsockname}, looked up on first use: a program whose sockets' descriptors are hidden never links it. */
    private static final class Getsockname {
        static final Optional<MethodHandle> HANDLE = Downcalls.findWithoutErrno("getsockname",
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS,
                        ValueLayout.ADDRESS));
    }

    private BoundAddress() {
    }

    /** Whether {@link #of} can tell (the descriptors can be read and libc has getsockname). */
    public static boolean available() {
        return SocketDescriptor.why() == null && Getsockname.HANDLE.isPresent();
    }

    /** {@code channel}'s local address and port, or null if it cannot be told or is not bound yet. */
    public static InetSocketAddress of(SocketChannel channel) {
        if (!available()) {
            return null;
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment sa = arena.allocate(SOCKADDR_SIZE, 8);
            MemorySegment length = arena.allocateFrom(ValueLayout.JAVA_INT, SOCKADDR_SIZE);
            int rc = (int) Getsockname.HANDLE.get().invokeExact(SocketDescriptor.of(channel), sa, length);
            if (rc != 0) {
                return null;
            }
            int family = sa.get(ValueLayout.JAVA_SHORT, 0);
            // the port is in network byte order; an IPv4-mapped IPv6 address comes back as IPv4
            int port = (Byte.toUnsignedInt(sa.get(ValueLayout.JAVA_BYTE, 2)) << 8)
                    | Byte.toUnsignedInt(sa.get(ValueLayout.JAVA_BYTE, 3));
            byte[] addr = switch (family) {
                case AF_INET -> sa.asSlice(4, 4).toArray(ValueLayout.JAVA_BYTE);
                case AF_INET6 -> sa.asSlice(8, 16).toArray(ValueLayout.JAVA_BYTE);
                default -> null;
            };
            return addr == null || port == 0 ? null : new InetSocketAddress(InetAddress.getByAddress(addr), port);
        } catch (Throwable e) {
            return null;
        }
    }
}
