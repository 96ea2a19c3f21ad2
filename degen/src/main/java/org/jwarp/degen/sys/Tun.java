package org.jwarp.degen.sys;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;

/**
 * A TUN device opened through {@code /dev/net/tun}: layer-3, no packet-information header, so each
 * read returns one IP packet and each write injects one. Non-blocking; the router waits with
 * ppoll. The device is created in the calling thread's network namespace and disappears when the
 * descriptor is closed (also when the process dies), which is what makes a crash leave no
 * interfaces behind.
 */
public final class Tun implements AutoCloseable {

    private static final long TUNSETIFF = 0x400454caL;
    private static final short IFF_TUN = 0x0001;
    private static final short IFF_NO_PI = 0x1000;
    /** struct ifreq: char ifr_name[IFNAMSIZ = 16], then a union whose first member is short ifr_flags. */
    private static final int IFREQ_SIZE = 40;
    private static final int IFNAMSIZ = 16;

    private final String name;
    private final int fd;
    private boolean closed;

    private Tun(String name, int fd) {
        this.name = name;
        this.fd = fd;
    }

    /** Creates (or attaches to) TUN device {@code name}, non-blocking and close-on-exec. */
    public static Tun open(String name) throws IOException {
        byte[] nameBytes = name.getBytes(StandardCharsets.US_ASCII);
        if (nameBytes.length == 0 || nameBytes.length >= IFNAMSIZ) {
            throw new IllegalArgumentException("interface name '" + name + "' must be 1.." + (IFNAMSIZ - 1) + " characters");
        }
        try (Arena arena = Arena.ofConfined()) {
            Libc libc = new Libc(arena);
            int fd = libc.open(arena.allocateFrom("/dev/net/tun"), Libc.O_RDWR | Libc.O_NONBLOCK | Libc.O_CLOEXEC);
            if (fd < 0) {
                throw new IOException("cannot open /dev/net/tun: " + Libc.describe(libc.errno())
                        + (libc.errno() == 13 || libc.errno() == 1 ? "; TUN devices need root (CAP_NET_ADMIN)" : ""));
            }
            MemorySegment ifr = arena.allocate(IFREQ_SIZE);
            MemorySegment.copy(nameBytes, 0, ifr, ValueLayout.JAVA_BYTE, 0, nameBytes.length);
            ifr.set(ValueLayout.JAVA_SHORT, IFNAMSIZ, (short) (IFF_TUN | IFF_NO_PI));
            if (libc.ioctl(fd, TUNSETIFF, ifr) < 0) {
                int errno = libc.errno();
                libc.close(fd);
                throw new IOException("TUNSETIFF " + name + " failed: " + Libc.describe(errno)
                        + (errno == 1 ? "; creating a TUN device needs CAP_NET_ADMIN (run as root)" : "")
                        + (errno == 16 ? "; another process holds " + name : ""));
            }
            return new Tun(name, fd);
        }
    }

    public String name() {
        return name;
    }

    public int fd() {
        return fd;
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try (Arena arena = Arena.ofConfined()) {
            Libc libc = new Libc(arena);
            if (libc.close(fd) < 0) {
                throw new IOException("close " + name + ": " + Libc.describe(libc.errno()));
            }
        }
    }
}
