package org.jwarp.engine.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.jwarp.engine.testing.FakeNanoClock;
import org.jwarp.verbs.CmEvent;
import org.jwarp.verbs.ConnectParams;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.Listener;
import org.jwarp.verbs.MpaTimeouts;
import org.jwarp.verbs.QpState;
import org.jwarp.verbs.RdmaDevice;
import org.junit.jupiter.api.Test;

/**
 * A whole device on a fake clock ({@link JwarpConfig#clock()}): its MPA setup timers fire exactly
 * when the clock passes their deadline and not a nanosecond before, with no sleep. The device runs
 * in invoker mode, so the test thread runs each duty cycle; only the sockets are real.
 */
class FakeClockDeviceTest {

    static final InetAddress LO = InetAddress.getLoopbackAddress();
    /** Duty cycles run at each step: far more than any rule needs to act on what it sees. */
    static final int CYCLES = 64;
    static final long START = 7_000_000_000L;

    private static DeviceConfig config(FakeNanoClock clock, MpaTimeouts timeouts) {
        return DeviceConfig.builder().mpaTimeouts(timeouts)
                .provider(SuiteConfig.jwarp().threadingMode(JwarpConfig.ThreadingMode.INVOKER).clock(clock).build())
                .build();
    }

    private static void cycles(RdmaDevice device) {
        for (int i = 0; i < CYCLES; i++) {
            device.invoke();
        }
    }

    /** Runs duty cycles until {@code done}: a real event (bytes over loopback), bounded in real time. */
    private static void runUntil(RdmaDevice device, String what, BooleanSupplier done) {
        long deadline = System.nanoTime() + LoopbackPair.WAIT.toNanos();
        while (!done.getAsBoolean()) {
            device.invoke();
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("no " + what + " within " + LoopbackPair.WAIT);
            }
        }
    }

    @Test
    void anMpaReplyThatNeverComesTimesOutExactlyAtTheDeadline() throws Exception {
        FakeNanoClock clock = new FakeNanoClock(START);
        Duration awaitReply = Duration.ofSeconds(2);
        DeviceConfig cfg = config(clock, new MpaTimeouts(Duration.ofSeconds(5), awaitReply, Duration.ofSeconds(10),
                Duration.ofSeconds(10)));
        try (ServerSocket silent = new ServerSocket(0, 1, LO);
             LoopbackPair.End client = new LoopbackPair.End(cfg)) {
            assertSame(clock, ((JwarpDevice) client.device).clock(), "the device reads the configured clock");
            client.device.connectionManager().connect(new InetSocketAddress(LO, silent.getLocalPort()), client.qp,
                    ConnectParams.of(new byte[0]).withTimeout(Duration.ofSeconds(60)), client.events);
            try (Socket peer = silent.accept()) {
                InputStream in = peer.getInputStream();
                runUntil(client.device, "MPA Request", () -> available(in) >= 16);
                assertEquals("MPA ID Req Frame", new String(in.readNBytes(16)), "a valid MPA Request went out");

                clock.advance(awaitReply.toNanos() - 1, TimeUnit.NANOSECONDS);
                cycles(client.device);
                assertNull(client.events.poll(), "1 ns before the deadline: still waiting for the Reply");
                assertNotSame(QpState.ERROR, client.qp.state());

                clock.advance(1, TimeUnit.NANOSECONDS);
                cycles(client.device);
                CmEvent e = client.events.poll();
                assertTrue(e instanceof CmEvent.ConnectError, "at the deadline: " + e);
                assertSame(CmEvent.ConnectError.Kind.TIMEOUT, ((CmEvent.ConnectError) e).kind());
                assertSame(QpState.ERROR, client.qp.state());
                assertNull(client.events.poll(), "one event for one timeout");
                peer.setSoTimeout(1);
                runUntil(client.device, "the connection's close", () -> read(in) < 0);
            }
        }
    }

    @Test
    void aClientThatSendsNoMpaRequestTimesOutExactlyAtTheDeadline() throws Exception {
        FakeNanoClock clock = new FakeNanoClock(START);
        Duration awaitRequest = Duration.ofSeconds(3);
        DeviceConfig cfg = config(clock, new MpaTimeouts(awaitRequest, Duration.ofSeconds(10), Duration.ofSeconds(10),
                Duration.ofSeconds(10)));
        try (LoopbackPair.End server = new LoopbackPair.End(cfg);
             Listener l = server.device.connectionManager().listen(new InetSocketAddress(LO, 0), 4, server.events);
             Socket raw = new Socket(LO, l.localAddress().getPort())) {
            raw.getOutputStream().write("MPA ID".getBytes());       // the start of a key, and then silence
            JwarpDevice device = (JwarpDevice) server.device;
            runUntil(device, "the accepted connection on the engine", () -> connections(device) == 1);

            clock.advance(awaitRequest.toNanos() - 1, TimeUnit.NANOSECONDS);
            cycles(device);
            assertNull(server.events.poll(), "1 ns before the deadline: still waiting for the Request");
            assertEquals(1, connections(device));

            clock.advance(1, TimeUnit.NANOSECONDS);
            cycles(device);
            CmEvent e = server.events.poll();
            assertTrue(e instanceof CmEvent.ConnectError, "at the deadline: " + e);
            assertSame(CmEvent.ConnectError.Kind.TIMEOUT, ((CmEvent.ConnectError) e).kind());
            assertTrue(((CmEvent.ConnectError) e).reason().matches("no MPA Request arrived in time from .*"),
                    ((CmEvent.ConnectError) e).reason());
            assertEquals(0, connections(device), "the connection is gone");
            InputStream in = raw.getInputStream();
            raw.setSoTimeout(1);
            runUntil(device, "the connection's close", () -> read(in) < 0);
        }
    }

    /** Connections the duty cycle visits (the test thread runs the cycles: no command needed to ask). */
    private static int connections(JwarpDevice device) {
        return device.engines().workers()[0].activeCount();
    }

    private static int available(InputStream in) {
        try {
            return in.available();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** A read of at most 1 ms (the socket's timeout): -1 once the peer closed, else 0 or the byte. */
    private static int read(InputStream in) {
        try {
            return in.read();
        } catch (java.net.SocketTimeoutException e) {
            return 0;
        } catch (java.io.IOException e) {
            return -1;                                              // a reset is the connection's end too
        }
    }
}
