package org.jwarp.engine.provider;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Test harness: a TCP relay on loopback between a client and a server, with one bit error to
 * order — a byte that TCP's own checksum let through, for MPA's CRC to catch (RFC 5044 §4.4). It
 * relays one connection, both directions on threads of their own, and keeps what the server sent
 * after {@link #arm} for assertions on the wire.
 */
final class FlippingRelay implements AutoCloseable {

    private final ServerSocket server;
    private final InetSocketAddress target;
    private final AtomicLong toServer = new AtomicLong();
    private final ByteArrayOutputStream fromServerAfterArm = new ByteArrayOutputStream();
    private volatile long flipAt = Long.MAX_VALUE;
    private volatile boolean armed;
    private Socket in;
    private Socket out;
    private Thread up;
    private Thread down;

    FlippingRelay(InetSocketAddress target) throws IOException {
        this.target = target;
        this.server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        Thread acceptor = Thread.ofPlatform().name("relay-accept").daemon().start(this::acceptOne);
        acceptor.setUncaughtExceptionHandler((t, e) -> e.printStackTrace());
    }

    InetSocketAddress address() {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort());
    }

    /**
     * Flips bit 4 of the byte {@code offset} bytes after everything relayed to the server so far,
     * and starts keeping what the server sends.
     */
    synchronized void arm(long offset) {
        flipAt = toServer.get() + offset;
        armed = true;
    }

    /** What the server sent after {@link #arm}. */
    synchronized byte[] fromServer() {
        return fromServerAfterArm.toByteArray();
    }

    private void acceptOne() {
        try {
            in = server.accept();
            out = new Socket(target.getAddress(), target.getPort());
            in.setTcpNoDelay(true);
            out.setTcpNoDelay(true);
            up = Thread.ofPlatform().name("relay-up").daemon().start(() -> pump(in, out, true));
            down = Thread.ofPlatform().name("relay-down").daemon().start(() -> pump(out, in, false));
        } catch (IOException e) {
            throw new IllegalStateException("relay could not connect to " + target, e);
        }
    }

    private void pump(Socket from, Socket to, boolean upstream) {
        byte[] buf = new byte[64 * 1024];
        // the streams stay open when a pump ends (closing one closes its socket): a direction that
        // failed (the server reset the rest of a Write) must not cut the other short, which may still
        // carry the server's Terminate to the client; close() closes both sockets
        try {
            InputStream is = from.getInputStream();
            OutputStream os = to.getOutputStream();
            int n;
            while ((n = is.read(buf)) > 0) {
                if (upstream) {
                    long start = toServer.get();
                    long at = flipAt;
                    if (at >= start && at < start + n) {
                        buf[(int) (at - start)] ^= 0x10;
                    }
                    toServer.addAndGet(n);
                } else if (armed) {
                    synchronized (this) {
                        fromServerAfterArm.write(buf, 0, n);
                    }
                }
                os.write(buf, 0, n);
            }
            to.shutdownOutput();
        } catch (SocketException e) {
            // the other end closed or reset: the relay's job is over
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        for (Socket s : new Socket[] {in, out}) {
            if (s != null) {
                s.close();
            }
        }
    }
}
