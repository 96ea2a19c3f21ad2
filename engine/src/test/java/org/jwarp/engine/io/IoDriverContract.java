package org.jwarp.engine.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.jwarp.engine.testing.AllocationMeter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link IoDriver} does, over real loopback TCP connections (the layers' suites extend
 * this one): readiness reports exactly the channels with bytes, a sleep ends on bytes, on a wake-up
 * from another thread and at its timeout, a cancelled registration is reported no more, a closed
 * peer reads as readable (the end of the stream), interest changes take effect, connects and
 * accepts are reported, a poll allocates nothing, close releases the descriptors, and bytes make
 * the round trip exactly through the driver's {@link SocketIo}. Waits are bounded loops on the
 * driver's own sleep, never fixed sleeps.
 */
abstract class IoDriverContract {

    /** Longest a test waits for an event before it fails. */
    static final long PATIENCE_NANOS = TimeUnit.SECONDS.toNanos(10);

    protected abstract IoDriver newDriver();

    protected abstract String layer();

    private final List<SocketChannel> channels = new ArrayList<>();
    private IoDriver driver;

    final IoDriver driver() {
        if (driver == null) {
            driver = newDriver();
        }
        return driver;
    }

    @AfterEach
    void closeAll() throws IOException {
        for (SocketChannel c : channels) {
            c.close();
        }
        if (driver != null) {
            driver.close();
        }
    }

    /** A connected pair: [0] the non-blocking side the driver watches, [1] its blocking peer. */
    final SocketChannel[] pair() throws IOException {
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

    /** Polls (sleeping on the driver between polls) until {@code enough} attachments were reported. */
    final Map<Object, Integer> pollUntil(int enough) throws IOException {
        Map<Object, Integer> seen = new HashMap<>();
        long end = System.nanoTime() + PATIENCE_NANOS;
        while (seen.size() < enough && System.nanoTime() - end < 0) {
            driver().pollNow((a, ops) -> seen.merge(a, ops, (x, y) -> x | y));
            if (seen.size() < enough) {
                driver().sleep(TimeUnit.MILLISECONDS.toNanos(50));
            }
        }
        return seen;
    }

    static void send(SocketChannel peer, int n) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(n);
        while (b.hasRemaining()) {
            peer.write(b);
        }
    }

    @Test
    void theLayerIsNamed() {
        assertEquals(layer(), driver().layer());
    }

    @Test
    void readinessReportsExactlyTheChannelsWithBytes() throws IOException {
        SocketChannel[][] p = {pair(), pair(), pair(), pair()};
        String[] names = {"a", "b", "c", "d"};
        for (int i = 0; i < p.length; i++) {
            driver().register(p[i][0], IoDriver.OP_READ, names[i]);
        }
        assertEquals(0, driver().pollNow((a, ops) -> { }), "nothing is ready before bytes come");
        send(p[1][1], 10);
        send(p[3][1], 1);
        Map<Object, Integer> seen = pollUntil(2);
        assertEquals(Map.of("b", IoDriver.OP_READ, "d", IoDriver.OP_READ), seen);
        // level-triggered: bytes not read are reported again, and only they
        Map<Object, Integer> again = new HashMap<>();
        driver().pollNow((a, ops) -> again.put(a, ops));
        assertEquals(seen, again);
    }

    @Test
    void aSleepEndsWhenBytesArrive() throws Exception {
        SocketChannel[] p = pair();
        driver().register(p[0], IoDriver.OP_READ, "x");
        Thread writer = Thread.ofPlatform().start(() -> {
            try {
                send(p[1], 100);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        long sleeps = driver().sleeps();
        long start = System.nanoTime();
        driver().sleep(TimeUnit.SECONDS.toNanos(30));    // the bytes end it, whether they came before or during
        assertTrue(System.nanoTime() - start < PATIENCE_NANOS, "bytes ended the sleep");
        assertEquals(sleeps + 1, driver().sleeps(), "the sleep was counted");
        writer.join();
        assertEquals(Map.of("x", IoDriver.OP_READ), pollUntil(1));
    }

    @Test
    void aSleepEndsOnAWakeUpFromAnotherThread() throws Exception {
        driver();
        Thread waker = Thread.ofPlatform().start(driver()::wakeup);
        long start = System.nanoTime();
        driver().sleep(TimeUnit.SECONDS.toNanos(30));
        assertTrue(System.nanoTime() - start < PATIENCE_NANOS, "the wake-up ended the sleep");
        waker.join();
        // after a wake-up spent, a sleep lasts again
        long t = System.nanoTime();
        driver().sleep(TimeUnit.MILLISECONDS.toNanos(20));
        assertTrue(System.nanoTime() - t >= TimeUnit.MILLISECONDS.toNanos(15), "a spent wake-up ends no other sleep");
    }

    @Test
    void aWakeUpBeforeTheSleepEndsItAtOnce() {
        driver().wakeup();
        long start = System.nanoTime();
        driver().sleep(TimeUnit.SECONDS.toNanos(30));
        assertTrue(System.nanoTime() - start < PATIENCE_NANOS);
    }

    @Test
    void aSleepEndsAtItsTimeout() throws IOException {
        SocketChannel[] p = pair();
        driver().register(p[0], IoDriver.OP_READ, "quiet");
        // a short sleep may be a plain park, which may return early; a long one lasts its time
        for (long nanos : new long[] {TimeUnit.MICROSECONDS.toNanos(50), TimeUnit.MILLISECONDS.toNanos(30)}) {
            long sleeps = driver().sleeps();
            long start = System.nanoTime();
            driver().sleep(nanos);
            long took = System.nanoTime() - start;
            if (nanos >= TimeUnit.MILLISECONDS.toNanos(1)) {
                assertTrue(took >= nanos * 9 / 10, "slept " + took + " ns of " + nanos);
            }
            assertTrue(took < PATIENCE_NANOS);
            assertEquals(sleeps + 1, driver().sleeps());
        }
    }

    @Test
    void aCancelledRegistrationIsReportedNoMore() throws IOException {
        SocketChannel[] p = pair();
        SocketChannel[] q = pair();
        IoRegistration r = driver().register(p[0], IoDriver.OP_READ, "gone");
        driver().register(q[0], IoDriver.OP_READ, "stays");
        send(p[1], 5);
        send(q[1], 5);
        assertEquals(2, pollUntil(2).size());
        r.cancel();
        r.cancel();                                 // idempotent
        assertFalse(r.isValid());
        Map<Object, Integer> seen = new HashMap<>();
        driver().pollNow((a, ops) -> seen.put(a, ops));
        assertEquals(Map.of("stays", IoDriver.OP_READ), seen);
    }

    @Test
    void aRegistrationCancelledByAHandlerOfTheSamePollIsNotReported() throws IOException {
        SocketChannel[] p = pair();
        SocketChannel[] q = pair();
        IoRegistration[] regs = new IoRegistration[2];
        regs[0] = driver().register(p[0], IoDriver.OP_READ, 0);
        regs[1] = driver().register(q[0], IoDriver.OP_READ, 1);
        send(p[1], 5);
        send(q[1], 5);
        assertEquals(2, pollUntil(2).size());
        List<Object> seen = new ArrayList<>();
        driver().pollNow((a, ops) -> {
            seen.add(a);
            regs[1 - (Integer) a].cancel();         // the first reported cancels the other
        });
        assertEquals(1, seen.size());
    }

    @Test
    void interestChangesTakeEffect() throws IOException {
        SocketChannel[] p = pair();
        IoRegistration r = driver().register(p[0], 0, "x");
        send(p[1], 3);
        p[1].close();                               // a hang-up too: still nothing without interest
        driver().sleep(TimeUnit.MILLISECONDS.toNanos(20));
        assertEquals(0, driver().pollNow((a, ops) -> { }));
        r.interestOps(IoDriver.OP_READ | IoDriver.OP_WRITE);
        assertEquals(IoDriver.OP_READ | IoDriver.OP_WRITE, r.interestOps());
        assertEquals(IoDriver.OP_READ | IoDriver.OP_WRITE, pollUntil(1).get("x") & (IoDriver.OP_READ | IoDriver.OP_WRITE));
        r.interestOps(IoDriver.OP_WRITE);
        Map<Object, Integer> seen = pollUntil(1);
        assertEquals(IoDriver.OP_WRITE, seen.get("x"), "a write interest alone reports room, not bytes");
    }

    @Test
    void aClosedPeerIsReportedReadableAndReadsAsTheEnd() throws IOException {
        SocketChannel[] p = pair();
        driver().register(p[0], IoDriver.OP_READ, "x");
        SocketIo io = driver().open(p[0], 4);
        p[1].close();
        assertEquals(Map.of("x", IoDriver.OP_READ), pollUntil(1));
        IoVector v = new IoVector(4);
        v.add(MemorySegment.ofBuffer(ByteBuffer.allocateDirect(64)), 0, 64);
        assertEquals(-1, io.read(v));
    }

    /** The duty cycle learns of a connection to accept from a sleep it ended, or a poll, without a call of its own. */
    @Test
    void aSleepOrAPollThatFindsAListenerReadySaysSoOnce() throws IOException {
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            server.configureBlocking(false);
            SocketChannel[] p = pair();
            driver().register(p[0], IoDriver.OP_READ, "reader");
            driver().register(server, IoDriver.OP_ACCEPT, "listener");
            send(p[1], 1);
            driver().sleep(TimeUnit.MILLISECONDS.toNanos(200));
            driver().pollNow((a, ops) -> { });
            assertFalse(driver().takeAcceptReady(), "a readable connection is no listener");
            SocketChannel c = SocketChannel.open(server.getLocalAddress());
            channels.add(c);
            boolean seen = false;
            for (long end = System.nanoTime() + PATIENCE_NANOS; !seen && System.nanoTime() - end < 0; ) {
                driver().sleep(TimeUnit.MILLISECONDS.toNanos(50));
                seen = driver().takeAcceptReady();
            }
            assertTrue(seen, "the sleep that the client's connect ended says a listener is ready");
            assertFalse(driver().takeAcceptReady(), "once");
            driver().pollNow((a, ops) -> { });
            assertTrue(driver().takeAcceptReady(), "a poll finds it again: nobody accepted");
            SocketChannel accepted = server.accept();
            channels.add(accepted);
            driver().pollNow((a, ops) -> { });
            assertFalse(driver().takeAcceptReady(), "accepted: nothing more");
        }
    }

    @Test
    void aCompletedConnectAndAPendingAcceptAreReported() throws IOException {
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            server.configureBlocking(false);
            IoRegistration listening = driver().register(server, IoDriver.OP_ACCEPT, "listener");
            SocketChannel c = SocketChannel.open();
            channels.add(c);
            c.configureBlocking(false);
            boolean connected = c.connect(server.getLocalAddress());
            IoRegistration connecting = driver().register(c, connected ? IoDriver.OP_READ : IoDriver.OP_CONNECT, "client");
            Map<Object, Integer> seen = pollUntil(connected ? 1 : 2);
            assertEquals(IoDriver.OP_ACCEPT, seen.get("listener"));
            if (!connected) {
                assertEquals(IoDriver.OP_CONNECT, seen.get("client"));
                assertTrue(c.finishConnect());
            }
            SocketChannel accepted = server.accept();
            channels.add(accepted);
            connecting.cancel();
            listening.cancel();
        }
    }

    @Test
    void aPollAllocatesNothing() throws IOException {
        assertTrue(AllocationMeter.calibrate() >= 64, "the meter sees allocation");
        SocketChannel[][] p = {pair(), pair(), pair()};
        for (int i = 0; i < p.length; i++) {
            driver().register(p[i][0], IoDriver.OP_READ, i);
            send(p[i][1], 1);
        }
        assertEquals(3, pollUntil(3).size());
        long[] count = new long[1];
        IoDriver.ReadyHandler h = (a, ops) -> count[0]++;
        IoDriver d = driver();
        long best = Long.MAX_VALUE;
        for (int round = 0; round < 5 && best > 0; round++) {
            for (int i = 0; i < 20_000; i++) {
                d.pollNow(h);
            }
            long before = AllocationMeter.allocatedBytes();
            for (int i = 0; i < 10_000; i++) {
                d.pollNow(h);
            }
            best = Math.min(best, AllocationMeter.allocatedBytes() - before);
        }
        assertEquals(0, best, "bytes allocated by 10000 polls");
        assertTrue(count[0] > 0);
    }

    @Test
    void closeReleasesTheDescriptors() throws IOException {
        SocketChannel[] p = pair();
        long before = openDescriptors();
        IoDriver d = newDriver();
        IoRegistration r = d.register(p[0], IoDriver.OP_READ, "x");
        SocketIo io = d.open(p[0], 4);
        send(p[1], 8);
        IoVector v = new IoVector(4);
        Staging s = Staging.allocate(64);
        v.add(s, 0, 64);
        long got = 0;
        long end = System.nanoTime() + PATIENCE_NANOS;
        while (got < 8 && System.nanoTime() - end < 0) {
            d.sleep(TimeUnit.MILLISECONDS.toNanos(20));
            long n = io.read(v);
            got += Math.max(0, n);
        }
        assertEquals(8, got);
        assertTrue(openDescriptors() > before, "the driver holds descriptors of its own");
        r.cancel();
        d.close();
        assertEquals(before, openDescriptors());
    }

    static long openDescriptors() throws IOException {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.count();
        }
    }

    @Test
    void bytesMakeTheRoundTripExactly() throws Exception {
        SocketChannel[] p = pair();
        IoRegistration r = driver().register(p[0], IoDriver.OP_READ, "x");
        SocketIo io = driver().open(p[0], 8);
        assertEquals(layer(), io.layer());
        byte[] out = new byte[3 << 20];
        new Random(28).nextBytes(out);
        // the peer echoes what it reads
        Thread echo = Thread.ofPlatform().start(() -> {
            ByteBuffer b = ByteBuffer.allocate(64 * 1024);
            try {
                for (long left = out.length; left > 0; ) {
                    b.clear();
                    int n = p[1].read(b);
                    if (n < 0) {
                        return;
                    }
                    left -= n;
                    b.flip();
                    while (b.hasRemaining()) {
                        p[1].write(b);
                    }
                }
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        Staging tx = Staging.allocate(out.length);
        tx.segment().copyFrom(MemorySegment.ofArray(out));
        Staging rx = Staging.allocate(out.length);
        IoVector w = new IoVector(8);
        IoVector rv = new IoVector(8);
        long sent = 0;
        long received = 0;
        long[] laterResult = {Long.MIN_VALUE};
        long end = System.nanoTime() + PATIENCE_NANOS * 3;
        while (received < out.length && System.nanoTime() - end < 0) {
            if (sent < out.length) {
                w.clear();
                // two pieces: a gathered write
                long n = Math.min(out.length - sent, 100_000);
                w.add(tx, sent, n / 2);
                w.add(tx, sent + n / 2, n - n / 2);
                if (io.writeLater(w, res -> laterResult[0] = res)) {
                    driver().flush();
                    sent += io.written(w, laterResult[0]);
                } else {
                    sent += io.write(w);
                }
            }
            rv.clear();
            long room = out.length - received;
            rv.add(rx, received, Math.min(room, 7_000));
            if (room > 7_000) {
                rv.add(rx, received + 7_000, Math.min(room - 7_000, 50_000));
            }
            long n = io.read(rv);
            assertTrue(n >= 0, "no end of stream in the middle");
            received += n;
            if (n == 0 && sent == out.length) {
                driver().sleep(TimeUnit.MILLISECONDS.toNanos(50));
            }
        }
        echo.join(TimeUnit.NANOSECONDS.toMillis(PATIENCE_NANOS));
        assertEquals(out.length, received);
        byte[] back = new byte[out.length];
        MemorySegment.ofArray(back).copyFrom(rx.segment());
        assertArrayEquals(out, back);
        r.cancel();
    }
}
