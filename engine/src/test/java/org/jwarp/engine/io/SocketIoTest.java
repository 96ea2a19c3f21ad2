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
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Each socket I/O layer over a real loopback TCP connection: the bytes of a gathered write arrive
 * in order at the peer, a scattered read fills its pieces in order, a full socket takes part of a
 * vector and the rest follows, end of stream and reset are told apart.
 */
class SocketIoTest {

    private final Arena arena = Arena.ofShared();
    private final AtomicLong deregistrations = new AtomicLong();
    private SocketChannel local;
    private SocketChannel peer;

    @BeforeEach
    void connect() throws IOException {
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            local = SocketChannel.open(server.getLocalAddress());
            peer = server.accept();
        }
        local.configureBlocking(false);
    }

    @AfterEach
    void close() throws IOException {
        if (ring != null) {
            ring.close();
        }
        local.close();
        peer.close();
        arena.close();
    }

    private Uring ring;

    private SocketIo io(String layer) {
        return switch (layer) {
            case "nio" -> new NioSocketIo(local, 8, deregistrations::get);
            case "syscalls" -> new SyscallSocketIo(local, 8);
            case "uring", "uring-sqpoll" -> new UringSocketIo(local, 8, () -> ring(layer.equals("uring-sqpoll")), layer);
            default -> throw new IllegalArgumentException(layer);
        };
    }

    private Uring ring(boolean sqpoll) {
        if (ring == null) {
            try {
                ring = new Uring(8, sqpoll, 10);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
        return ring;
    }

    private MemorySegment random(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return arena.allocate(n).copyFrom(MemorySegment.ofArray(b));
    }

    /** Reads exactly {@code n} bytes from a blocking channel. */
    static byte[] readFully(SocketChannel ch, int n) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(n);
        while (b.hasRemaining()) {
            if (ch.read(b) < 0) {
                throw new IOException("end of stream after " + b.position() + " of " + n + " bytes");
            }
        }
        return b.array();
    }

    @ParameterizedTest
    @ValueSource(strings = {"nio", "syscalls", "uring", "uring-sqpoll"})
    void aGatheredWriteArrivesInOrder(String layer) throws IOException {
        SocketIo io = io(layer);
        MemorySegment a = random(1000, 1);
        MemorySegment b = random(70_000, 2);
        IoVector v = new IoVector(8);
        v.add(a, 10, 100);
        v.add(b, 5, 65_536);
        v.add(a, 500, 7);
        long n = 0;
        while (!v.isEmpty()) {
            n += io.write(v);
        }
        assertEquals(100 + 65_536 + 7, n);
        byte[] got = readFully(peer, (int) n);
        byte[] want = new byte[(int) n];
        MemorySegment.copy(a, ValueLayout.JAVA_BYTE, 10, want, 0, 100);
        MemorySegment.copy(b, ValueLayout.JAVA_BYTE, 5, want, 100, 65_536);
        MemorySegment.copy(a, ValueLayout.JAVA_BYTE, 500, want, 100 + 65_536, 7);
        assertArrayEquals(want, got);
    }

    @ParameterizedTest
    @ValueSource(strings = {"nio", "syscalls", "uring", "uring-sqpoll"})
    void aScatteredReadFillsItsPiecesInOrder(String layer) throws IOException {
        SocketIo io = io(layer);
        byte[] sent = new byte[300];
        new Random(3).nextBytes(sent);
        peer.write(ByteBuffer.wrap(sent));
        MemorySegment a = arena.allocate(1000);
        MemorySegment b = arena.allocate(1000);
        IoVector v = new IoVector(8);
        v.add(a, 100, 50);
        v.add(b, 0, 200);
        v.add(a, 900, 100);
        long n = 0;
        while (n < 300) {
            long r = io.read(v);
            assertTrue(r >= 0);
            n += r;
            v.advance(r);
        }
        byte[] got = new byte[300];
        MemorySegment.copy(a, ValueLayout.JAVA_BYTE, 100, got, 0, 50);
        MemorySegment.copy(b, ValueLayout.JAVA_BYTE, 0, got, 50, 200);
        MemorySegment.copy(a, ValueLayout.JAVA_BYTE, 900, got, 250, 50);
        assertArrayEquals(sent, got);
        assertEquals(0, io.read(scratch()), "nothing waiting: 0, not an error");
    }

    private IoVector scratch() {
        IoVector v = new IoVector(1);
        v.add(arena.allocate(64), 0, 64);
        return v;
    }

    @ParameterizedTest
    @ValueSource(strings = {"nio", "syscalls", "uring", "uring-sqpoll"})
    void aFullSocketTakesPartAndTheRestFollows(String layer) throws Exception {
        SocketIo io = io(layer);
        int size = 32 << 20;    // more than loopback's send and receive buffers together
        MemorySegment big = random(size, 4);
        IoVector v = new IoVector(8);
        v.add(big, 0, size);
        long taken = 0;
        long w;
        while ((w = io.write(v)) > 0) {
            taken += w;
        }
        assertTrue(taken < size, "the socket filled before " + size + " bytes");
        assertEquals(size - taken, v.remaining(), "the vector kept what the socket did not take");
        byte[][] got = new byte[1][];
        Thread reader = Thread.ofPlatform().start(() -> {
            try {
                got[0] = readFully(peer, size);
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        });
        while (!v.isEmpty()) {
            io.write(v);
        }
        reader.join();
        assertTrue(big.asByteBuffer().equals(ByteBuffer.wrap(got[0])), "every byte arrived, in order");
    }

    @ParameterizedTest
    @ValueSource(strings = {"nio", "syscalls", "uring", "uring-sqpoll"})
    void endOfStreamIsMinusOneAndAResetAnError(String layer) throws IOException {
        SocketIo io = io(layer);
        peer.shutdownOutput();
        long r;
        do {
            r = io.read(scratch());
        } while (r == 0);
        assertEquals(-1, r);
        peer.setOption(StandardSocketOptions.SO_LINGER, 0);
        peer.close();   // RST
        IoVector v = new IoVector(1);
        v.add(random(4096, 5), 0, 4096);
        IOException e = assertThrows(IOException.class, () -> {
            for (int i = 0; i < 1000; i++) {
                io.write(v);
                v.clear();
                v.add(random(4096, 5), 0, 4096);
            }
        });
        assertTrue(e.getMessage() != null && !e.getMessage().isBlank(), "the failure says what happened");
    }

    /**
     * The system-call layer reads a failed call's errno as a hint and repeats anything but EAGAIN
     * with errno captured: a reset still reads as a reset, and a send after it as one of the two
     * errors the kernel gives for a dead connection, by name.
     */
    @org.junit.jupiter.api.Test
    void aResetIsNamedByTheSystemCallLayerOnBothDirections() throws IOException {
        SocketIo io = io("syscalls");
        assertEquals(0, io.read(scratch()), "nothing to read yet: EAGAIN is a read of nothing");
        peer.setOption(StandardSocketOptions.SO_LINGER, 0);
        peer.close();   // RST
        IOException read = assertThrows(IOException.class, () -> {
            while (io.read(scratch()) == 0) {
                Thread.onSpinWait();
            }
        });
        assertEquals("readv: Connection reset by peer (errno 104)", read.getMessage());
        IoVector v = new IoVector(1);
        v.add(random(4096, 6), 0, 4096);
        IOException write = assertThrows(IOException.class, () -> io.write(v));
        assertTrue(write.getMessage().matches("sendmsg: (Broken pipe \\(errno 32\\)|Connection reset by peer \\(errno 104\\))"),
                write.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"nio", "syscalls", "uring", "uring-sqpoll"})
    void heapMemoryIsCopiedNeverAddressed(String layer) {
        SocketIo io = io(layer);
        assertFalse(io.canAddress(MemorySegment.ofArray(new byte[64])));
        assertTrue(io.canAddress(arena.allocate(64)));
        assertEquals(layer, io.layer());
    }

    @ParameterizedTest
    @ValueSource(strings = {"nio"})
    void nioCannotAddressPast2GiB(String layer) {
        @SuppressWarnings("restricted")
        MemorySegment huge = arena.allocate(8).reinterpret(3L << 30);
        assertFalse(io(layer).canAddress(huge));
        assertTrue(new SyscallSocketIo(local, 1).canAddress(huge), "a system call takes any native address");
        assertTrue(io("uring").canAddress(huge), "so does io_uring");
    }
}
