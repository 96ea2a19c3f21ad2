package org.jwarp.engine.io;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.MemorySegment;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;

/** {@code struct sockaddr_in} and {@code sockaddr_in6} (Linux), to and from {@link InetSocketAddress}. */
final class SockAddr {

    private static final short AF_INET = 2;
    private static final short AF_INET6 = 10;

    private SockAddr() {
    }

    /** Writes {@code a} into {@code s} (28 bytes at least); returns the address's length. */
    static int write(MemorySegment s, InetSocketAddress a) {
        s.fill((byte) 0);
        byte[] ip = a.getAddress().getAddress();
        boolean v6 = a.getAddress() instanceof Inet6Address;
        s.set(JAVA_SHORT, 0, v6 ? AF_INET6 : AF_INET);
        s.set(JAVA_BYTE, 2, (byte) (a.getPort() >>> 8));
        s.set(JAVA_BYTE, 3, (byte) a.getPort());
        MemorySegment.copy(ip, 0, s, JAVA_BYTE, v6 ? 8 : 4, ip.length);
        return v6 ? 28 : 16;
    }

    /** The address in {@code s}; null if it is neither family's. */
    static InetSocketAddress read(MemorySegment s) {
        short family = s.get(JAVA_SHORT, 0);
        int port = (s.get(JAVA_BYTE, 2) & 0xff) << 8 | (s.get(JAVA_BYTE, 3) & 0xff);
        byte[] ip;
        if (family == AF_INET) {
            ip = s.asSlice(4, 4).toArray(JAVA_BYTE);
        } else if (family == AF_INET6) {
            ip = s.asSlice(8, 16).toArray(JAVA_BYTE);
        } else {
            return null;
        }
        try {
            return new InetSocketAddress(InetAddress.getByAddress(ip), port);
        } catch (UnknownHostException e) {
            return null;
        }
    }
}
