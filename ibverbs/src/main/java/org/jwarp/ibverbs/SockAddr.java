package org.jwarp.ibverbs;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;

/**
 * {@code struct sockaddr_in} / {@code sockaddr_in6} (netinet/in.h) in a {@code sockaddr_storage}:
 * family in host order, port and address in network order.
 */
final class SockAddr {

    static final int STORAGE = 128;
    private static final short AF_INET = 2;
    private static final short AF_INET6 = 10;

    private SockAddr() {
    }

    /** Writes {@code address} into a new sockaddr_storage from {@code arena}. */
    static MemorySegment of(Arena arena, InetSocketAddress address) {
        if (address.isUnresolved()) {
            throw new IllegalArgumentException("cannot resolve " + address.getHostString());
        }
        MemorySegment s = arena.allocate(STORAGE, 8);
        InetAddress ip = address.getAddress();
        short port = Short.reverseBytes((short) address.getPort());
        if (ip instanceof Inet4Address) {
            s.set(JAVA_SHORT, 0, AF_INET);
            s.set(JAVA_SHORT, 2, port);
            MemorySegment.copy(ip.getAddress(), 0, s, JAVA_BYTE, 4, 4);
        } else {
            s.set(JAVA_SHORT, 0, AF_INET6);
            s.set(JAVA_SHORT, 2, port);
            MemorySegment.copy(ip.getAddress(), 0, s, JAVA_BYTE, 8, 16);
            s.set(java.lang.foreign.ValueLayout.JAVA_INT, 24, ((Inet6Address) ip).getScopeId());
        }
        return s;
    }

    /** Reads the sockaddr at {@code offset} of {@code s}; null if its family is neither IPv4 nor IPv6. */
    static InetSocketAddress read(MemorySegment s, long offset) {
        short family = s.get(JAVA_SHORT, offset);
        int port = Short.reverseBytes(s.get(JAVA_SHORT, offset + 2)) & 0xFFFF;
        try {
            if (family == AF_INET) {
                byte[] a = new byte[4];
                MemorySegment.copy(s, JAVA_BYTE, offset + 4, a, 0, 4);
                return new InetSocketAddress(InetAddress.getByAddress(a), port);
            }
            if (family == AF_INET6) {
                byte[] a = new byte[16];
                MemorySegment.copy(s, JAVA_BYTE, offset + 8, a, 0, 16);
                return new InetSocketAddress(InetAddress.getByAddress(a), port);
            }
        } catch (UnknownHostException impossible) {
            throw new IllegalStateException(impossible);
        }
        return null;
    }
}
