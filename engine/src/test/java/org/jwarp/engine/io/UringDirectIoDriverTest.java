package org.jwarp.engine.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * Direct sockets without a device: connections whose both ends are io_uring direct descriptors,
 * over more rings than one table holds (small tables), accepted, connected, exchanging bytes on
 * readiness and closed — and the process's descriptors grow by the rings only, never by a socket.
 */
class UringDirectIoDriverTest {

    static final int CONNECTIONS = 150;
    /** Tables of 64 entries: 48 sockets each before the reserve, so the connections span several rings. */
    static final int TABLE = 64;

    @Test
    void connectionsBeyondOneTableAreNoDescriptorsOfTheProcess() throws Exception {
        assertNull(DirectRing.why(), "direct descriptors run here");
        ServerSocketChannel.open().close();        // the JDK's descriptors made once per process, before the count
        long before = descriptors();
        List<DirectSocket> accepted = new ArrayList<>();
        List<DirectSocket> clients = new ArrayList<>();
        try (ServerSocketChannel server = ServerSocketChannel.open();
             UringDirectIoDriver driver = new UringDirectIoDriver(TABLE)) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 256);
            driver.listen(SocketDescriptor.of(server), accepted::add);
            InetSocketAddress target = (InetSocketAddress) server.getLocalAddress();
            for (int i = 0; i < CONNECTIONS; i++) {
                DirectSocket s = new DirectSocket();
                s.connect(driver, target, d -> d.setOption(6, 1, 1));
                s.finishConnect();                   // throws what failed, if the socket could not be made
                s.register(driver, IoDriver.OP_CONNECT, s);
                clients.add(s);
                driver.flush();                      // a duty cycle's: the accepts so far are counted in their tables
            }
            Set<Object> connected = new HashSet<>();
            await(driver, connected, () -> connected.size() == CONNECTIONS && accepted.size() == CONNECTIONS);
            for (DirectSocket c : clients) {
                assertTrue(c.finishConnect(), "every connect completed");
            }
            assertTrue(driver.rings() >= 3, "the sockets span several tables: " + driver.rings());
            assertEquals(2 * CONNECTIONS, driver.sockets());
            // besides the rings: the listener, the driver's epoll and eventfd, and the JVM's own
            long grown = descriptors() - before;
            assertTrue(grown <= driver.rings() + 4, "no socket is a descriptor: " + grown + " new for "
                    + 2 * CONNECTIONS + " sockets in " + driver.rings() + " rings");

            ByteBuffer out = ByteBuffer.allocateDirect(8);
            for (int i = 0; i < CONNECTIONS; i++) {
                out.clear().putLong(i).flip();
                assertEquals(8, clients.get(i).write(out));
            }
            for (DirectSocket a : accepted) {
                a.register(driver, IoDriver.OP_READ, a);
            }
            Set<Object> readable = new HashSet<>();
            await(driver, readable, () -> readable.size() == CONNECTIONS);
            Set<Long> received = new HashSet<>();
            ByteBuffer in = ByteBuffer.allocateDirect(8);
            for (DirectSocket a : accepted) {
                in.clear();
                assertEquals(8, a.read(in));
                received.add(in.flip().getLong());
                assertEquals(0, a.read(in.clear()), "nothing more to read");
            }
            assertEquals(CONNECTIONS, received.size(), "each connection's bytes arrived on one accepted socket");

            for (DirectSocket s : clients) {
                s.cancel();
                s.close();
            }
            for (DirectSocket s : accepted) {
                s.cancel();
                s.close();
            }
            driver.flush();
            assertEquals(0, driver.sockets());
        }
        assertEquals(before, descriptors(), "closing the driver released its rings");
    }

    /** Polls and flushes the driver until {@code done}, adding each ready attachment to {@code ready}. */
    private static void await(UringDirectIoDriver driver, Set<Object> ready, BooleanSupplier done) throws Exception {
        long end = System.nanoTime() + 10_000_000_000L;
        while (!done.getAsBoolean()) {
            assertTrue(System.nanoTime() < end, "timed out: " + ready.size() + " ready");
            driver.flush();
            driver.pollNow((attachment, ops) -> ready.add(attachment));
            driver.sleep(1_000_000);
        }
    }

    private static long descriptors() throws Exception {
        try (var fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.count();
        }
    }
}
