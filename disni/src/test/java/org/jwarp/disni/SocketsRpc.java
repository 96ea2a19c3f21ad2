package org.jwarp.disni;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Locale;

/**
 * DaRPC's example request/response loop over plain Java sockets, the baseline its figures are
 * compared with: the same message sizes (a 16-byte request of command, parameter and time stamp, a
 * 24-byte response), the same service (the result is the parameter plus one), one blocking
 * {@link SocketChannel} with {@code TCP_NODELAY} per side, {@code batch} requests written before
 * their responses are read (1: one at a time, as DaRPC's {@code future-poll}). The client prints
 * {@code executionTime} and {@code ops} as DaRPC's client does, and checks every response's value.
 * A request's first field is the response's length, so the same loop stands in for an RDMA READ
 * of that many bytes ({@code RESPONSE}, default 24).
 *
 * <pre>
 * SocketsRpc server PORT [ADDRESS]
 * SocketsRpc client HOST PORT LOOPS BATCH [RESPONSE]
 * </pre>
 */
final class SocketsRpc {

    static final int REQUEST = 16;
    static final int RESPONSE = 24;
    static final int MAX_RESPONSE = 64 * 1024;

    private SocketsRpc() {
    }

    public static void main(String[] args) throws IOException {
        if ((args.length == 2 || args.length == 3) && args[0].equals("server")) {
            serve(args.length == 3 ? args[2] : "127.0.0.1", Integer.parseInt(args[1]));
        } else if ((args.length == 5 || args.length == 6) && args[0].equals("client")) {
            call(new InetSocketAddress(args[1], Integer.parseInt(args[2])), Integer.parseInt(args[3]),
                    Integer.parseInt(args[4]), args.length == 6 ? Integer.parseInt(args[5]) : RESPONSE);
        } else {
            System.err.println("usage: SocketsRpc server PORT [ADDRESS] | client HOST PORT LOOPS BATCH [RESPONSE]");
            System.exit(2);
        }
    }

    /** Serves one client at a time, for ever. */
    static void serve(String address, int port) throws IOException {
        try (ServerSocketChannel listener = ServerSocketChannel.open()) {
            listener.bind(new InetSocketAddress(address, port));
            System.out.println("listening on " + port);
            ByteBuffer req = ByteBuffer.allocateDirect(REQUEST);
            ByteBuffer resp = ByteBuffer.allocateDirect(MAX_RESPONSE);
            while (true) {
                try (SocketChannel ch = listener.accept()) {
                    ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                    while (readFully(ch, req.clear())) {
                        int length = Math.clamp(req.getInt(0), RESPONSE, MAX_RESPONSE);
                        resp.clear().limit(length);
                        resp.putInt(0, length).putInt(4, req.getInt(4) + 1).putLong(8, req.getLong(8))
                                .putLong(16, 0);
                        writeFully(ch, resp);
                    }
                }
            }
        }
    }

    static void call(InetSocketAddress server, int loops, int batch, int response) throws IOException {
        try (SocketChannel ch = SocketChannel.open(server)) {
            ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
            ByteBuffer req = ByteBuffer.allocateDirect(REQUEST * batch);
            ByteBuffer resp = ByteBuffer.allocateDirect(response * batch);
            long t0 = System.nanoTime();
            int done = 0;
            while (done < loops) {
                int n = Math.min(batch, loops - done);
                req.clear().limit(n * REQUEST);
                for (int i = 0; i < n; i++) {
                    req.putInt(i * REQUEST, response).putInt(i * REQUEST + 4, done + i).putLong(i * REQUEST + 8, System.nanoTime());
                }
                writeFully(ch, req);
                resp.clear().limit(n * response);
                if (!readFully(ch, resp)) {
                    throw new IOException("the server closed the connection after " + done + " calls");
                }
                for (int i = 0; i < n; i++) {
                    if (resp.getInt(i * response + 4) != done + i + 1) {
                        throw new IOException("wrong response to call " + (done + i) + ": " + resp.getInt(i * response + 4));
                    }
                }
                done += n;
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            System.out.println(String.format(Locale.ROOT, "executionTime %.3f", seconds));
            System.out.println(String.format(Locale.ROOT, "ops %.1f", (double) done));
        }
    }

    private static boolean readFully(SocketChannel ch, ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            if (ch.read(b) < 0) {
                return false;
            }
        }
        return true;
    }

    /** Writes {@code b} from its position to its limit. */
    private static void writeFully(SocketChannel ch, ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            ch.write(b);
        }
    }
}
