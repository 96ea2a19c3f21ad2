package org.jwarp.engine.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Writes batched on one io_uring across connections ({@link SocketIo#writeLater},
 * {@link Uring#flush}), over real loopback TCP connections: nothing leaves before the flush
 * (without SQPOLL), one {@code io_uring_enter} submits and reaps them all, each result reaches its
 * connection in the order queued and the bytes arrive exactly; a call made between queueing and
 * flushing loses no result; a full batch says so, and a call made then goes after it; a failed
 * write reports its error. The ring carries staging memory only: a call on application memory goes
 * by system call beside it.
 */
class UringBatchTest {

    private final Arena arena = Arena.ofShared();
    private final List<SocketChannel> channels = new ArrayList<>();
    private Uring ring;

    @AfterEach
    void close() throws IOException {
        if (ring != null) {
            ring.close();
        }
        for (SocketChannel c : channels) {
            c.close();
        }
        arena.close();
    }

    /** A connected pair: [0] the side written through the ring (non-blocking), [1] its peer. */
    private SocketChannel[] pair() throws IOException {
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            SocketChannel local = SocketChannel.open(server.getLocalAddress());
            SocketChannel peer = server.accept();
            local.configureBlocking(false);
            channels.add(local);
            channels.add(peer);
            return new SocketChannel[] {local, peer};
        }
    }

    private UringSocketIo io(SocketChannel c, String layer) throws IOException {
        if (ring == null) {
            ring = new Uring(8, layer.equals("uring-sqpoll"), 10);
        }
        return new UringSocketIo(c, 8, () -> ring, layer);
    }

    /** Random bytes in a staging buffer: the memory the ring carries (application memory goes by system call). */
    private static Staging random(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        Staging s = Staging.allocate(n);
        s.segment().copyFrom(MemorySegment.ofArray(b));
        return s;
    }

    private static byte[] bytes(Staging m, long offset, int n) {
        return bytes(m.segment(), offset, n);
    }

    private static byte[] bytes(MemorySegment m, long offset, int n) {
        byte[] b = new byte[n];
        MemorySegment.copy(m, ValueLayout.JAVA_BYTE, offset, b, 0, n);
        return b;
    }

    @ParameterizedTest
    @ValueSource(strings = {"uring", "uring-sqpoll"})
    void writesOfSeveralConnectionsGoOutInOneEnterEachToItsPeer(String layer) throws IOException {
        SocketChannel[] a = pair();
        SocketChannel[] b = pair();
        UringSocketIo ioA = io(a[0], layer);
        UringSocketIo ioB = io(b[0], layer);
        Staging m = random(5000, 1);
        IoVector va = new IoVector(8);
        va.add(m, 7, 1000);                             // one piece: a send entry
        IoVector vb = new IoVector(8);
        vb.add(m, 2000, 100);                           // three pieces: a sendmsg entry
        vb.add(m, 10, 3);
        vb.add(m, 4000, 900);
        List<String> results = new ArrayList<>();
        assertTrue(ioA.writeLater(va, r -> results.add("a " + r)));
        assertTrue(ioB.writeLater(vb, r -> results.add("b " + r)));
        long entersBefore = ring.enters();
        if (layer.equals("uring")) {
            a[1].configureBlocking(false);
            assertEquals(0, a[1].read(ByteBuffer.allocate(16)), "nothing leaves before the flush");
            a[1].configureBlocking(true);
        }
        ring.flush();
        assertEquals(List.of("a 1000", "b 1003"), results, "each result to its writer, in the order queued");
        if (layer.equals("uring")) {
            assertEquals(entersBefore + 1, ring.enters(), "one io_uring_enter for the batch");
        }
        assertEquals(1000, ioA.written(va, 1000));
        assertTrue(va.isEmpty());
        assertEquals(1003, ioB.written(vb, 1003));
        assertTrue(vb.isEmpty());
        assertArrayEquals(bytes(m, 7, 1000), SocketIoTest.readFully(a[1], 1000));
        byte[] want = new byte[1003];
        System.arraycopy(bytes(m, 2000, 100), 0, want, 0, 100);
        System.arraycopy(bytes(m, 10, 3), 0, want, 100, 3);
        System.arraycopy(bytes(m, 4000, 900), 0, want, 103, 900);
        assertArrayEquals(want, SocketIoTest.readFully(b[1], 1003));
    }

    @ParameterizedTest
    @ValueSource(strings = {"uring", "uring-sqpoll"})
    void aCallBetweenQueueingAndFlushLosesNoResult(String layer) throws IOException {
        SocketChannel[] a = pair();
        SocketChannel[] b = pair();
        UringSocketIo ioA = io(a[0], layer);
        UringSocketIo ioB = io(b[0], layer);
        Staging m = random(600, 2);
        IoVector va = new IoVector(1);
        va.add(m, 0, 600);
        long[] result = {Long.MIN_VALUE};
        assertTrue(ioA.writeLater(va, r -> result[0] = r));
        byte[] sent = {1, 2, 3, 4, 5};
        b[1].write(ByteBuffer.wrap(sent));
        Staging in = Staging.allocate(64);
        IoVector vin = new IoVector(1);
        vin.add(in, 0, 64);
        long r;
        while ((r = ioB.read(vin)) == 0) {
            Thread.onSpinWait();
        }
        assertEquals(5, r, "the call gets its own result, not the queued write's");
        assertArrayEquals(sent, bytes(in, 0, 5));
        ring.flush();
        assertEquals(600, result[0], "the queued write's result is kept for the flush");
        assertArrayEquals(bytes(m, 0, 600), SocketIoTest.readFully(a[1], 600));
    }

    @ParameterizedTest
    @ValueSource(strings = {"uring", "uring-sqpoll"})
    void aFullBatchSaysSoAndACallMadeThenGoesAfterIt(String layer) throws IOException {
        SocketChannel[] a = pair();
        UringSocketIo io = io(a[0], layer);
        Staging m = random(8, 3);
        int[] done = {0};
        IoVector[] vs = new IoVector[9];
        for (int i = 0; i < vs.length; i++) {
            vs[i] = new IoVector(1);
            vs[i].add(m, i % 8, 1);
        }
        for (int i = 0; i < 8; i++) {
            assertTrue(io.writeLater(vs[i], r -> done[0] += (int) r));
        }
        assertFalse(io.writeLater(vs[8], r -> done[0] += 100), "a ring of 8 entries batches 8");
        assertEquals(1, io.write(vs[8]), "a call made meanwhile still goes out, after the batch");
        ring.flush();
        assertEquals(8, done[0], "each of the 8 wrote its byte");
        byte[] want = new byte[9];
        System.arraycopy(bytes(m, 0, 8), 0, want, 0, 8);
        want[8] = want[0];
        assertArrayEquals(want, SocketIoTest.readFully(a[1], 9), "in the order queued, the call last");
    }

    @ParameterizedTest
    @ValueSource(strings = {"uring", "uring-sqpoll"})
    void aWriteOnAResetConnectionReportsTheError(String layer) throws IOException {
        SocketChannel[] a = pair();
        UringSocketIo io = io(a[0], layer);
        a[1].setOption(StandardSocketOptions.SO_LINGER, 0);
        a[1].close();   // RST
        Staging m = random(4096, 4);
        IOException e = assertThrows(IOException.class, () -> {
            for (int i = 0; i < 1000; i++) {
                IoVector v = new IoVector(1);
                v.add(m, 0, 4096);
                long[] result = {0};
                assertTrue(io.writeLater(v, r -> result[0] = r));
                ring.flush();
                io.written(v, result[0]);
            }
        });
        assertTrue(e.getMessage().contains("io_uring"), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"uring", "uring-sqpoll"})
    void aCallOnApplicationMemoryIsNotBatchedAndGoesBySystemCallBesideTheRing(String layer) throws IOException {
        SocketChannel[] a = pair();
        UringSocketIo io = io(a[0], layer);
        Staging header = random(16, 5);
        MemorySegment payload = arena.allocate(3000);
        payload.copyFrom(random(3000, 6).segment());
        IoVector v = new IoVector(8);
        v.add(header, 0, 16);
        v.add(payload, 0, 3000);
        assertFalse(io.writeLater(v, r -> { }), "a piece in an application's arena is not queued on the ring");
        long entersBefore = ring.enters();
        assertEquals(3016, io.write(v));
        assertEquals(entersBefore, ring.enters(), "made by system call, not through the ring");
        byte[] want = new byte[3016];
        System.arraycopy(bytes(header, 0, 16), 0, want, 0, 16);
        System.arraycopy(bytes(payload, 0, 3000), 0, want, 16, 3000);
        assertArrayEquals(want, SocketIoTest.readFully(a[1], 3016));
        a[1].write(ByteBuffer.wrap(want, 0, 100));
        IoVector in = new IoVector(1);
        in.add(arena.allocate(100), 0, 100);
        long r;
        while ((r = io.read(in)) == 0) {
            Thread.onSpinWait();
        }
        assertEquals(100, r);
        assertArrayEquals(java.util.Arrays.copyOf(want, 100), bytes(in.segment(0), 0, 100));
        assertEquals(entersBefore, ring.enters(), "the read too");
    }
}
