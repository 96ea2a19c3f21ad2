package org.jwarp.degen.relay;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.jwarp.degen.LinkParams;

/**
 * The no-root fallback: a TCP relay that accepts connections on one address, connects each to a
 * target, and forwards the bytes of both directions after a delay (and at a rate, if given).
 *
 * <p>It is <b>not a router</b>. It terminates TCP on both sides: the client's handshake,
 * acknowledgements, window and retransmissions are exchanged with the relay, over loopback, not
 * with the server; only the byte stream is delayed. So a request/response sees the configured
 * round trip, but anything that depends on the end-to-end path — slow start, congestion control,
 * ACK clocking, loss recovery, MSS and MTU — behaves as on the local network. Use the testbed
 * (root) for a packet-level emulation.
 */
public final class TcpRelay implements AutoCloseable {

    private final ServerSocketChannel server;
    private final SocketAddress target;
    private final LinkParams toTarget;
    private final LinkParams toClient;
    private final long seed;
    private final Thread acceptor;
    private final List<RelayPipe> pipes = new CopyOnWriteArrayList<>();
    private final AtomicLong connections = new AtomicLong();
    private volatile boolean closed;
    private volatile Throwable failure;

    private TcpRelay(ServerSocketChannel server, SocketAddress target, LinkParams toTarget, LinkParams toClient, long seed) {
        this.server = server;
        this.target = target;
        this.toTarget = toTarget;
        this.toClient = toClient;
        this.seed = seed;
        this.acceptor = new Thread(this::acceptLoop, "relay-accept");
    }

    /** Listens on {@code listen} and starts accepting; loss is refused (TCP would hide it anyway). */
    public static TcpRelay start(InetSocketAddress listen, InetSocketAddress target, LinkParams toTarget,
                                 LinkParams toClient, long seed) throws IOException {
        for (LinkParams p : new LinkParams[] {toTarget, toClient}) {
            if (p.loss() > 0) {
                throw new IllegalArgumentException("a TCP relay cannot lose packets (it forwards a byte stream); use the testbed for loss");
            }
        }
        ServerSocketChannel ss = ServerSocketChannel.open();
        try {
            ss.bind(listen);
        } catch (IOException e) {
            ss.close();
            throw new IOException("cannot listen on " + listen + ": " + e.getMessage(), e);
        }
        TcpRelay relay = new TcpRelay(ss, target, toTarget, toClient, seed);
        relay.acceptor.start();
        return relay;
    }

    /** The address actually bound (useful with port 0). */
    public InetSocketAddress localAddress() throws IOException {
        return (InetSocketAddress) server.getLocalAddress();
    }

    public long connections() {
        return connections.get();
    }

    /** Why accepting stopped, if it stopped on an error. */
    public Throwable failure() {
        return failure;
    }

    private void acceptLoop() {
        while (!closed) {
            SocketChannel client;
            try {
                client = server.accept();
            } catch (ClosedChannelException e) {
                return; // close() was called
            } catch (IOException e) {
                failure = e;
                return;
            }
            long n = connections.incrementAndGet();
            try {
                SocketChannel upstream = SocketChannel.open(target);
                client.socket().setTcpNoDelay(true);
                upstream.socket().setTcpNoDelay(true);
                // Each direction half-closes on EOF; the second to finish closes both sockets.
                java.util.concurrent.atomic.AtomicInteger halves = new java.util.concurrent.atomic.AtomicInteger();
                RelayPipe[] both = new RelayPipe[2];
                Runnable finished = () -> {
                    if (halves.incrementAndGet() == 2) {
                        both[0].close();
                        pipes.remove(both[0]);
                        pipes.remove(both[1]);
                    }
                };
                both[0] = RelayPipe.start("relay-" + n + "-up", client, upstream, toTarget, seed + 2 * n, finished);
                both[1] = RelayPipe.start("relay-" + n + "-down", upstream, client, toClient, seed + 2 * n + 1, finished);
                pipes.add(both[0]);
                pipes.add(both[1]);
            } catch (IOException e) {
                System.err.println("jwarp relay: cannot connect to " + target + ": " + e.getMessage());
                try {
                    client.close();
                } catch (IOException closeFailure) {
                    e.addSuppressed(closeFailure);
                    System.err.println("jwarp relay: closing the client failed too: " + closeFailure.getMessage());
                }
            }
        }
    }

    @Override
    public void close() throws IOException {
        closed = true;
        server.close();
        for (RelayPipe p : pipes) {
            p.close();
        }
        try {
            acceptor.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
