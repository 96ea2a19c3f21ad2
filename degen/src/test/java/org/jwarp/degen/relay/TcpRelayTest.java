package org.jwarp.degen.relay;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.SplittableRandom;
import org.jwarp.degen.LinkParams;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The relay over loopback: bytes arrive intact and in order, and never before the delay. */
class TcpRelayTest {

    private static final long DELAY = 20_000_000L;

    private ServerSocket echo;
    private Thread echoThread;

    @BeforeEach
    void startEcho() throws IOException {
        echo = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        echoThread = new Thread(() -> {
            try (Socket s = echo.accept()) {
                InputStream in = s.getInputStream();
                OutputStream out = s.getOutputStream();
                in.transferTo(out);
            } catch (IOException e) {
                if (!echo.isClosed()) {
                    throw new java.io.UncheckedIOException(e);
                }
            }
        }, "echo");
        echoThread.start();
    }

    @AfterEach
    void stopEcho() throws Exception {
        echo.close();
        echoThread.join(10_000);
    }

    private TcpRelay relay(LinkParams p) throws IOException {
        return TcpRelay.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                new InetSocketAddress(InetAddress.getLoopbackAddress(), echo.getLocalPort()), p, p, 1);
    }

    @Test
    void aRoundTripTakesAtLeastTwiceTheDelay() throws Exception {
        try (TcpRelay relay = relay(LinkParams.passThrough().withDelay(DELAY));
             Socket s = new Socket(InetAddress.getLoopbackAddress(), relay.localAddress().getPort())) {
            s.setTcpNoDelay(true);
            for (int i = 0; i < 3; i++) {
                long t0 = System.nanoTime();
                s.getOutputStream().write(i);
                int b = s.getInputStream().read();
                long rtt = System.nanoTime() - t0;
                assertTrue(b == i, "echoed byte");
                // A lower bound only: the relay may never deliver early; how late is a benchmark's question.
                assertTrue(rtt >= 2 * DELAY, "round trip " + rtt + " ns is shorter than 2 × delay");
            }
        }
    }

    @Test
    void aLargeTransferArrivesIntactAndInOrderUnderARateLimit() throws Exception {
        byte[] data = new byte[4 << 20];
        new SplittableRandom(5).nextBytes(data);
        LinkParams p = LinkParams.passThrough().withDelay(1_000_000L).withRate(2_000_000_000L);
        try (TcpRelay relay = relay(p);
             Socket s = new Socket(InetAddress.getLoopbackAddress(), relay.localAddress().getPort())) {
            byte[] back = new byte[data.length];
            Thread sender = new Thread(() -> {
                try {
                    s.getOutputStream().write(data);
                    s.shutdownOutput();
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            sender.start();
            int off = 0;
            InputStream in = s.getInputStream();
            int n;
            while (off < back.length && (n = in.read(back, off, back.length - off)) > 0) {
                off += n;
            }
            sender.join(30_000);
            assertArrayEquals(data, back);
            assertTrue(in.read() < 0, "EOF is relayed after the data");
        }
    }

    @Test
    void lossIsRefusedWithAReason() {
        var e = assertThrows(IllegalArgumentException.class, () -> relay(LinkParams.passThrough().withLoss(0.01)));
        assertTrue(e.getMessage().contains("cannot lose packets"));
    }
}
