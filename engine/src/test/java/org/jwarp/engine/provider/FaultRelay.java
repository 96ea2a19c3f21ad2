package org.jwarp.engine.provider;

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
 * Test harness: a TCP relay on loopback for one connection, with faults to order — both ends reset
 * (a peer killed), the relay stops reading from the client (a peer that stops reading: the client
 * meets a zero window), or the relay forwards only part of what the client sends and then closes
 * towards the server (a peer that stops in the middle of an FPDU).
 */
final class FaultRelay implements AutoCloseable {

    private final ServerSocket server;
    private final InetSocketAddress target;
    private final AtomicLong toServer = new AtomicLong();
    private volatile long cutAt = Long.MAX_VALUE;
    private volatile boolean frozen;
    private volatile Socket in;
    private volatile Socket out;

    FaultRelay(InetSocketAddress target) throws IOException {
        this.target = target;
        this.server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        Thread.ofPlatform().name("fault-relay-accept").daemon().start(this::acceptOne);
    }

    InetSocketAddress address() {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort());
    }

    /** Both ends get a reset, as when the peer's host dies with the connection open. */
    void reset() throws IOException {
        for (Socket s : new Socket[] {in, out}) {
            if (!s.isClosed()) {
                try {
                    s.setSoLinger(true, 0);
                } catch (java.net.SocketException closedMeanwhile) {
                    // the relay's pump closed it between the check and the call: it is gone either way
                }
            }
            s.close();
        }
    }

    /** The relay stops reading what the client sends: its send window closes. */
    void freeze() {
        frozen = true;
    }

    /** Forwards {@code bytes} more bytes to the server, then closes towards it (mid-FPDU, most likely). */
    void cutAfter(long bytes) {
        cutAt = toServer.get() + bytes;
    }

    private void acceptOne() {
        try {
            in = server.accept();
            out = new Socket(target.getAddress(), target.getPort());
            in.setTcpNoDelay(true);
            out.setTcpNoDelay(true);
            Thread.ofPlatform().name("fault-relay-up").daemon().start(() -> pump(in, out, true));
            Thread.ofPlatform().name("fault-relay-down").daemon().start(() -> pump(out, in, false));
        } catch (IOException e) {
            throw new IllegalStateException("relay could not connect to " + target, e);
        }
    }

    private void pump(Socket from, Socket to, boolean upstream) {
        byte[] buf = new byte[16 * 1024];
        try (InputStream is = from.getInputStream(); OutputStream os = to.getOutputStream()) {
            int n;
            while (true) {
                while (upstream && frozen) {
                    Thread.sleep(1);          // not reading: the kernel's buffers fill, the window closes
                }
                n = is.read(buf);
                if (n <= 0) {
                    break;
                }
                if (upstream) {
                    long start = toServer.getAndAdd(n);
                    if (start + n > cutAt) {
                        os.write(buf, 0, (int) Math.max(0, cutAt - start));
                        to.close();           // the peer stops here, partway through what was sent
                        return;
                    }
                }
                os.write(buf, 0, n);
            }
            to.shutdownOutput();
        } catch (SocketException e) {
            // an end closed or was reset: the relay's job is over
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() throws IOException {
        frozen = false;
        server.close();
        for (Socket s : new Socket[] {in, out}) {
            if (s != null) {
                s.close();
            }
        }
    }
}
