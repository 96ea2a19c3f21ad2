package org.jwarp.engine.toe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The host/engine protocol of the offloaded sockets, driven from one thread: the engine's duty
 * cycle runs only while the test waits (a {@link ManualSlot}), over real loopback TCP sockets.
 * Each side is its own personality (its own engine, pool and counters) on the same slot. The slot's
 * I/O driver is the default layer's here; the subclasses run the same protocol on the others.
 */
class ToeProtocolTest {

    private static final InetSocketAddress ANY = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);

    private ManualSlot slot;

    /** The socket I/O layer the engine's calls go through. */
    org.jwarp.engine.provider.JwarpConfig.SocketIo layer() {
        return org.jwarp.engine.provider.JwarpConfig.SocketIo.AUTO;
    }

    @BeforeEach
    void setUp() {
        slot = new ManualSlot(layer());
    }

    @AfterEach
    void tearDown() throws IOException {
        slot.close();
    }

    private OffloadedSockets side(ToeConfig config) {
        return new OffloadedSockets(List.of(slot), config);
    }

    static byte[] pattern(long seed, int n) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    /** Reads exactly {@code n} bytes (the blocking read runs the engine meanwhile). */
    static byte[] readN(ToeSocket s, int n) throws IOException {
        byte[] b = new byte[n];
        int got = 0;
        while (got < n) {
            int r = s.read(b, got, n - got);
            if (r < 0) {
                throw new IOException("end of stream after " + got + " of " + n);
            }
            got += r;
        }
        return b;
    }

    /** A connected pair: [client on a, server-side socket on b]. */
    private ToeSocket[] pair(OffloadedSockets a, OffloadedSockets b) throws IOException {
        try (ToeServerSocket l = b.listen(ANY, 8)) {
            ToeSocket c = a.connect(l.getLocalSocketAddress(), 5, TimeUnit.SECONDS);
            ToeSocket s = l.accept(5, TimeUnit.SECONDS);
            return new ToeSocket[] {c, s};
        }
    }

    @Test
    void connectListenAcceptSendReceiveAndCloseAreByteExact() throws IOException {
        OffloadedSockets a = side(ToeConfig.defaults());
        OffloadedSockets b = side(ToeConfig.defaults());
        ToeServerSocket l = b.listen(ANY, 8);
        assertTrue(l.getLocalSocketAddress().getPort() > 0);
        ToeSocket c = a.connect(l.getLocalSocketAddress(), 5, TimeUnit.SECONDS);
        ToeSocket s = l.accept(5, TimeUnit.SECONDS);
        assertTrue(c.isConnected() && s.isConnected());
        assertEquals(c.getLocalSocketAddress(), s.getRemoteSocketAddress());
        assertEquals(c.getRemoteSocketAddress(), s.getLocalSocketAddress());

        byte[] data = pattern(1, 300_000);
        c.getOutputStream().write(data);
        assertArrayEquals(data, readN(s, data.length));
        byte[] back = pattern(2, 5000);
        s.write(back, 0, back.length);
        assertArrayEquals(back, c.getInputStream().readNBytes(back.length));

        c.close();
        assertEquals(-1, s.read(new byte[10], 0, 10), "the peer's close reads as the end of the stream");
        s.close();
        l.close();
        assertTrue(c.isClosed() && s.isClosed() && l.isClosed());
        assertThrows(SocketException.class, () -> l.accept(10, TimeUnit.MILLISECONDS));
        ToeStats sa = a.stats();
        assertEquals(300_000, sa.bytesSent());
        assertEquals(5000, sa.bytesReceived());
        assertEquals(sa.eventsPosted(), sa.eventsTaken(), "every event posted was taken");
        assertEquals(ToeConfig.defaults().receiveBuffers(), sa.freeBuffers(), "every anonymous buffer came back");
        assertEquals(ToeConfig.defaults().receiveBuffers(), b.stats().freeBuffers());
    }

    @Test
    void manySmallWritesArriveInOrder() throws IOException {
        OffloadedSockets a = side(ToeConfig.defaults());
        OffloadedSockets b = side(ToeConfig.defaults());
        ToeSocket[] p = pair(a, b);
        byte[] data = pattern(3, 200_000);
        Random r = new Random(4);
        int off = 0;
        int writes = 0;
        while (off < data.length) {
            int n = Math.min(data.length - off, 1 + r.nextInt(3000));
            if (r.nextBoolean()) {
                p[0].write(data, off, n);
            } else {
                ByteBuffer src = ByteBuffer.allocateDirect(n).put(data, off, n).flip();
                while (src.hasRemaining()) {
                    if (p[0].write(src) == 0) {
                        p[0].awaitWritable(5, TimeUnit.SECONDS);
                    }
                }
            }
            off += n;
            writes++;
        }
        p[0].shutdownOutput();
        ByteBuffer got = ByteBuffer.allocate(data.length + 1);
        while (true) {
            int n = p[1].read(got);
            if (n < 0) {
                break;
            }
            if (n == 0) {
                assertTrue(p[1].awaitReadable(5, TimeUnit.SECONDS));
            }
        }
        assertEquals(data.length, got.position());
        assertArrayEquals(data, java.util.Arrays.copyOf(got.array(), data.length));
        assertTrue(a.stats().requests() >= writes, "one SEND descriptor per write at least");
        assertThrows(SocketException.class, () -> p[0].write(new byte[1], 0, 1), "output shut down");
    }

    @Test
    void sendCompletionIsCumulativeWithNoEventPerSend() throws IOException {
        OffloadedSockets a = side(ToeConfig.defaults());
        OffloadedSockets b = side(ToeConfig.defaults());
        ToeSocket[] p = pair(a, b);
        ToeStats before = a.stats();
        byte[] chunk = pattern(5, 8192);
        for (int i = 0; i < 32; i++) {
            p[0].write(chunk, 0, chunk.length);     // 256 KiB into a 512 KiB send buffer: never full
        }
        for (int i = 0; i < 32; i++) {
            assertArrayEquals(chunk, readN(p[1], chunk.length));
        }
        ToeStats d = a.stats().minus(before);
        assertEquals(32, d.requests(), "one SEND descriptor per chunk");
        assertEquals(0, d.eventsPosted(), "no event for a send: the count of bytes sent is mirrored");
        assertEquals(32 * 8192, p[0].bytesSent());
    }

    @Test
    void aFullSendBufferSleepsUntilTheEngineHasFreedTheNotifyAmount() throws IOException {
        ToeConfig small = ToeConfig.defaults().withSendBuffer(4096, 1024);
        OffloadedSockets a = side(small);
        OffloadedSockets b = side(ToeConfig.defaults());
        ToeSocket[] p = pair(a, b);
        ToeStats before = a.stats();
        byte[] data = pattern(6, 4096);
        assertEquals(4096, p[0].write(ByteBuffer.wrap(data)), "the whole buffer is taken");
        assertEquals(0, p[0].write(ByteBuffer.wrap(data)), "then nothing, without blocking");
        assertTrue(p[0].awaitWritable(5, TimeUnit.SECONDS));
        assertTrue(p[0].bytesSent() >= 1024, "woken once the notify amount was sent");
        assertEquals(1, a.stats().minus(before).eventsPosted(), "one SENT event answers the one NOTIFY_SENT");
        byte[] more = pattern(7, 100_000);
        p[0].write(more, 0, more.length);           // sleeps for space many times
        assertArrayEquals(data, readN(p[1], data.length));
        assertArrayEquals(more, readN(p[1], more.length));
    }

    @Test
    void anonymousBuffersAreRefilledAndAPoolSmallerThanTheDataLosesNothing() throws IOException {
        ToeConfig tiny = ToeConfig.defaults().withReceiveBuffer(512, 2).withFillTimeout(0);
        OffloadedSockets a = side(ToeConfig.defaults());
        OffloadedSockets b = side(tiny);
        ToeSocket[] p = pair(a, b);
        byte[] data = pattern(8, 100_000);
        p[0].write(data, 0, data.length);
        assertArrayEquals(data, readN(p[1], data.length));
        ToeStats s = b.stats();
        assertTrue(s.eventsPosted() >= data.length / 512, "one RECEIVED event per buffer filled: each buffer "
                + "went round about a hundred times");
        assertEquals(2, s.freeBuffers(), "every buffer came back");
    }

    @Test
    void aSocketNobodyReadsHoldsOnlyItsShareAndOthersGoOn() throws IOException {
        ToeConfig shared = new ToeConfig(512 * 1024, 128 * 1024, 1024, 4, 2, 0, 256, 30_000, false);
        OffloadedSockets a = side(ToeConfig.defaults());
        OffloadedSockets b = side(shared);
        ToeSocket[] idle = pair(a, b);
        ToeSocket[] busy = pair(a, b);
        byte[] parked = pattern(9, 20_000);
        idle[0].write(parked, 0, parked.length);    // nobody reads idle[1] for now
        byte[] data = pattern(10, 200_000);
        busy[0].write(data, 0, data.length);
        assertArrayEquals(data, readN(busy[1], data.length), "the other socket still gets buffers");
        assertArrayEquals(parked, readN(idle[1], parked.length), "the parked data was kept, not dropped");
        assertEquals(4, b.stats().freeBuffers());
    }

    @Test
    void fullRequestAndEventQueuesWaitAndLoseNothing() throws IOException {
        ToeConfig shallow = ToeConfig.defaults().withQueueDepth(4).withReceiveBuffer(512, 64).withFillTimeout(0);
        OffloadedSockets a = side(shallow);
        OffloadedSockets b = side(shallow);
        ToeSocket[] p = pair(a, b);
        byte[] data = pattern(11, 64 * 512);
        for (int i = 0; i < data.length; i += 64) {
            ByteBuffer src = ByteBuffer.wrap(data, i, 64);
            assertEquals(64, p[0].write(src));      // 512 descriptors through a queue of 4
        }
        // let the engine fill every buffer before the host takes one event
        for (int i = 0; i < 200; i++) {
            slot.cycle();
        }
        assertArrayEquals(data, readN(p[1], data.length));
        assertTrue(a.stats().requestQueueFull() > 0, "the host waited for the request queue");
        assertTrue(b.stats().eventQueueFull() > 0, "the engine waited for the event queue");
    }

    @Test
    void aPeerThatEndsOrResetsEndsOnlyThatSocket() throws IOException {
        OffloadedSockets a = side(ToeConfig.defaults());
        try (ServerSocket plain = new ServerSocket(0, 8, InetAddress.getLoopbackAddress())) {
            InetSocketAddress at = new InetSocketAddress(InetAddress.getLoopbackAddress(), plain.getLocalPort());
            ToeSocket ended = a.connect(at);
            ToeSocket reset = a.connect(at);
            ToeSocket healthy = a.connect(at);
            try (Socket e = plain.accept(); Socket r = plain.accept(); Socket h = plain.accept()) {
                byte[] last = pattern(12, 3000);
                e.getOutputStream().write(last);
                e.close();
                assertArrayEquals(last, readN(ended, last.length), "data before the end is delivered");
                assertEquals(-1, ended.read(new byte[1], 0, 1));

                r.setSoLinger(true, 0);
                r.close();                                  // RST
                byte[] junk = new byte[65536];
                IOException x = assertThrows(IOException.class, () -> {
                    for (int i = 0; i < 1000; i++) {
                        reset.write(junk, 0, junk.length);
                    }
                });
                assertTrue(x.getMessage().contains("ended"), x.getMessage());
                assertThrows(SocketException.class, () -> reset.read(new byte[1], 0, 1));

                byte[] fine = pattern(13, 10_000);
                healthy.write(fine, 0, fine.length);
                assertTrue(slot.runUntil(() -> healthy.bytesSent() == fine.length, 5, TimeUnit.SECONDS),
                        "the engine sends (the test thread runs it)");
                assertArrayEquals(fine, h.getInputStream().readNBytes(fine.length), "other sockets are untouched");
                assertTrue(a.stats().socketFailures() >= 1);
            }
            ended.close();
            reset.close();
            healthy.close();
        }
    }

    @Test
    void badUseGetsAClearError() throws IOException {
        OffloadedSockets a = side(ToeConfig.defaults());
        int closedPort;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }
        ConnectException refused = assertThrows(ConnectException.class,
                () -> a.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), closedPort)));
        assertTrue(refused.getMessage().contains("refused"), refused.getMessage());

        OffloadedSockets b = side(ToeConfig.defaults());
        ToeSocket[] p = pair(a, b);
        p[0].close();
        SocketException closed = assertThrows(SocketException.class, () -> p[0].write(new byte[1], 0, 1));
        assertEquals("socket closed", closed.getMessage());
        assertThrows(SocketException.class, () -> p[0].read(new byte[1], 0, 1));

        ToeServerSocket l = b.listen(ANY, 1);
        assertThrows(SocketTimeoutException.class, () -> l.accept(20, TimeUnit.MILLISECONDS));
        SocketException inUse = assertThrows(SocketException.class, () -> b.listen(l.getLocalSocketAddress(), 1));
        assertTrue(inUse.getMessage().contains("cannot listen on"), inUse.getMessage());

        ToeSocket[] q = pair(a, b);
        b.close();                                  // the engine goes: sockets and listeners end
        IOException gone = assertThrows(IOException.class, () -> q[1].read(new byte[1], 0, 1));
        assertTrue(gone.getMessage().contains("offload engine stopped"), gone.getMessage());
        assertThrows(IOException.class, () -> q[1].write(new byte[1], 0, 1));
        assertThrows(SocketException.class, () -> b.listen(ANY, 1));
        InputStream in = q[0].getInputStream();
        assertEquals(-1, in.read(), "the far side sees the connection end");
        assertFalse(q[0].isClosed());
    }
}
