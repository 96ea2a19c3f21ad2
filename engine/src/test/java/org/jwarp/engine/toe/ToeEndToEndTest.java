package org.jwarp.engine.toe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;
import org.jwarp.engine.provider.JwarpConfig;
import org.jwarp.engine.provider.SuiteConfig;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.RdmaDevice;

/**
 * The offloaded sockets on real jwarp devices, with engine threads (dedicated) or without
 * (hybrid, the default on two CPUs), against each other and against plain Java sockets, from
 * several application threads; all data verified.
 */
class ToeEndToEndTest {

    private static final InetSocketAddress ANY = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);

    private static RdmaDevice device(JwarpConfig.ThreadingMode mode) {
        return RdmaDevice.open(DeviceConfig.builder().provider(SuiteConfig.jwarp()
                .threadingMode(mode).build()).build());
    }

    /** Streams {@code total} bytes in {@code chunk}-byte writes; the receiver checks every byte. */
    @ParameterizedTest
    @EnumSource(value = JwarpConfig.ThreadingMode.class, names = {"DEDICATED", "HYBRID"})
    void streamsInEightAndOneHundredTwentyEightKiBChunks(JwarpConfig.ThreadingMode mode) throws Exception {
        try (RdmaDevice d1 = device(mode); RdmaDevice d2 = device(mode);
             OffloadedSockets sender = OffloadedSockets.open(d1); OffloadedSockets receiver = OffloadedSockets.open(d2);
             ExecutorService pool = Executors.newFixedThreadPool(2)) {
            for (int chunk : new int[] {8192, 131072}) {
                int total = 8 << 20;
                ToeServerSocket l = receiver.listen(ANY, 4);
                Future<byte[]> got = pool.submit(() -> {
                    try (ToeSocket s = l.accept(10, TimeUnit.SECONDS)) {
                        return digest(s.getInputStream(), total);
                    }
                });
                byte[] sent;
                try (ToeSocket c = sender.connect(l.getLocalSocketAddress(), 10, TimeUnit.SECONDS)) {
                    sent = send(c.getOutputStream(), total, chunk, chunk);
                }
                assertArrayEquals(sent, got.get(60, TimeUnit.SECONDS), "chunk " + chunk);
                l.close();
            }
            assertTrue(sender.stats().bytesSent() >= 16 << 20);
            assertEquals(receiver.config().receiveBuffers(), receiver.stats().freeBuffers(),
                    "every anonymous buffer came back");
        }
    }

    @Test
    void talksToPlainJavaSocketsBothWays() throws Exception {
        try (RdmaDevice d = device(JwarpConfig.ThreadingMode.DEDICATED); OffloadedSockets toe = OffloadedSockets.open(d);
             ExecutorService pool = Executors.newFixedThreadPool(2);
             ServerSocket plain = new ServerSocket(0, 4, InetAddress.getLoopbackAddress())) {
            // a TOE client, a java.net server that echoes
            Future<?> echo = pool.submit(() -> {
                try (Socket s = plain.accept()) {
                    s.getInputStream().transferTo(s.getOutputStream());
                }
                return null;
            });
            byte[] data = new byte[3_000_000];
            new Random(21).nextBytes(data);
            try (ToeSocket c = toe.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), plain.getLocalPort()))) {
                Future<byte[]> back = pool.submit(() -> c.getInputStream().readNBytes(data.length));
                c.getOutputStream().write(data);
                c.shutdownOutput();
                assertArrayEquals(data, back.get(30, TimeUnit.SECONDS));
                assertEquals(-1, c.getInputStream().read());
            }
            echo.get(10, TimeUnit.SECONDS);

            // a java.net client, a TOE server
            try (ToeServerSocket l = toe.listen(ANY, 4)) {
                Future<byte[]> got = pool.submit(() -> {
                    try (ToeSocket s = l.accept()) {
                        return s.getInputStream().readAllBytes();
                    }
                });
                try (Socket s = new Socket(InetAddress.getLoopbackAddress(), l.getLocalSocketAddress().getPort())) {
                    s.getOutputStream().write(data);
                }
                assertArrayEquals(data, got.get(30, TimeUnit.SECONDS));
            }
        }
    }

    @Test
    void manyThreadsAndConnectionsEachByteExact() throws Exception {
        DeviceConfig two = DeviceConfig.builder().provider(SuiteConfig.jwarp()
                .threadingMode(JwarpConfig.ThreadingMode.DEDICATED).engineThreads(2).build()).build();
        try (RdmaDevice d = RdmaDevice.open(two); OffloadedSockets toe = OffloadedSockets.open(d);
             ExecutorService pool = Executors.newFixedThreadPool(9)) {
            assertEquals(2, toe.engineThreads());
            ToeServerSocket l = toe.listen(ANY, 16);
            int n = 8;
            List<Future<byte[]>> served = new ArrayList<>();
            served.add(pool.submit(() -> {
                // one acceptor hands every connection to a worker thread (sockets move between threads)
                List<Future<byte[]>> each = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    ToeSocket s = l.accept(20, TimeUnit.SECONDS);
                    each.add(pool.submit(() -> {
                        try (s) {
                            DataInputStream in = new DataInputStream(s.getInputStream());
                            int len = in.readInt();
                            byte[] b = new byte[len];
                            in.readFully(b);
                            s.getOutputStream().write(MessageDigest.getInstance("SHA-256").digest(b));
                            s.shutdownOutput();
                            assertEquals(-1, in.read());
                            return b;
                        }
                    }));
                }
                for (Future<byte[]> f : each) {
                    f.get(60, TimeUnit.SECONDS);
                }
                return new byte[0];
            }));
            List<Future<Boolean>> clients = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int seed = i;
                clients.add(Executors.newVirtualThreadPerTaskExecutor().submit(() -> {
                    byte[] data = new byte[100_000 + seed * 37_000];
                    new Random(seed).nextBytes(data);
                    try (ToeSocket c = toe.connect(l.getLocalSocketAddress())) {
                        OutputStream out = c.getOutputStream();
                        out.write(new byte[] {(byte) (data.length >>> 24), (byte) (data.length >>> 16),
                                (byte) (data.length >>> 8), (byte) data.length});
                        out.write(data);
                        byte[] sha = c.getInputStream().readNBytes(32);
                        c.shutdownOutput();
                        return java.util.Arrays.equals(sha, MessageDigest.getInstance("SHA-256").digest(data));
                    }
                }));
            }
            for (Future<Boolean> f : clients) {
                assertTrue(f.get(60, TimeUnit.SECONDS), "the server saw every byte");
            }
            served.get(0).get(60, TimeUnit.SECONDS);
            l.close();
        }
    }

    @Test
    void closingTheDeviceEndsEveryWaitingThreadWithAClearError() throws Exception {
        RdmaDevice d = device(JwarpConfig.ThreadingMode.DEDICATED);
        OffloadedSockets toe = OffloadedSockets.open(d);
        ToeServerSocket l = toe.listen(ANY, 4);
        ToeSocket c = toe.connect(l.getLocalSocketAddress());
        ToeSocket s = l.accept();
        try (ExecutorService pool = Executors.newSingleThreadExecutor()) {
            java.util.concurrent.atomic.AtomicReference<Thread> readerThread = new java.util.concurrent.atomic.AtomicReference<>();
            Future<Integer> reader = pool.submit(() -> {
                readerThread.set(Thread.currentThread());
                return s.read(new byte[10], 0, 10);
            });
            // the reader sleeps in the queue pair's wait, for the engine's interrupt
            while (readerThread.get() == null || readerThread.get().getState() != Thread.State.TIMED_WAITING
                    && readerThread.get().getState() != Thread.State.WAITING) {
                Thread.onSpinWait();
            }
            d.close();
            java.util.concurrent.ExecutionException x = assertThrows(java.util.concurrent.ExecutionException.class,
                    () -> reader.get(10, TimeUnit.SECONDS));
            assertTrue(x.getCause() instanceof IOException && x.getCause().getMessage().contains("offload engine stopped"),
                    String.valueOf(x.getCause()));
            IOException w = assertThrows(IOException.class, () -> c.write(new byte[1], 0, 1));
            assertTrue(w.getMessage().contains("offload engine stopped"), w.getMessage());
        }
        toe.close();
    }

    static byte[] send(OutputStream out, long total, int chunk, long seed) throws Exception {
        MessageDigest md = MessageDigest.getInstance("SHA-256");
        byte[] b = new byte[chunk];
        Random r = new Random(seed);
        for (long done = 0; done < total; done += chunk) {
            r.nextBytes(b);
            int n = (int) Math.min(chunk, total - done);
            md.update(b, 0, n);
            out.write(b, 0, n);
        }
        return md.digest();
    }

    static byte[] digest(InputStream in, long total) throws Exception {
        MessageDigest md = MessageDigest.getInstance("SHA-256");
        byte[] b = new byte[65536];
        long got = 0;
        for (int n; (n = in.read(b)) > 0; ) {
            md.update(b, 0, n);
            got += n;
        }
        assertEquals(total, got);
        return md.digest();
    }
}
