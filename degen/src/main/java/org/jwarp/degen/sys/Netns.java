package org.jwarp.degen.sys;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Network namespaces by name, as iproute2 names them ({@code /run/netns/NAME}).
 *
 * <p>{@link #enterForThisThread} moves only the calling thread: Linux keeps the network namespace
 * per task, and a Java platform thread is one task. Sockets the thread creates afterwards live in
 * that namespace for good, which lets one JVM hold a client on host A and a server on host B. Use
 * a dedicated thread for it and let it end; never a pooled one.
 */
public final class Netns {

    public static final Path RUN_NETNS = Path.of("/run/netns");

    private Netns() {
    }

    public static boolean exists(String name) {
        return Files.exists(RUN_NETNS.resolve(name));
    }

    public static void enterForThisThread(String name) throws IOException {
        Path path = RUN_NETNS.resolve(name);
        try (Arena arena = Arena.ofConfined()) {
            Libc libc = new Libc(arena);
            int fd = libc.open(arena.allocateFrom(path.toString()), Libc.O_RDONLY | Libc.O_CLOEXEC);
            if (fd < 0) {
                throw new IOException("cannot open " + path + ": " + Libc.describe(libc.errno()) + " (is the testbed up?)");
            }
            try {
                if (libc.setns(fd, Libc.CLONE_NEWNET) < 0) {
                    throw new IOException("setns into " + name + ": " + Libc.describe(libc.errno()));
                }
            } finally {
                libc.close(fd);
            }
        }
    }
}
