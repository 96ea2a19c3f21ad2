package org.jwarp.bench.loopback;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.CountDownLatch;
import org.jwarp.engine.affinity.ThreadAffinity;

/**
 * The plain-sockets baselines the jwarp figures are compared with, on loopback: a one-way stream
 * of fixed-size messages, and a busy-polling ping-pong (non-blocking sockets, the reader spins on
 * {@code read}), each side on its own thread and CPU.
 */
final class NioBaseline {

    private NioBaseline() {
    }

    /** Streams {@code size}-byte messages for {@code seconds}; returns bits/s and per-side CPU. */
    static Result stream(int size, double seconds, int senderCpu, int receiverCpu) throws Exception {
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            SocketChannel client = SocketChannel.open(server.getLocalAddress());
            SocketChannel accepted = server.accept();
            client.setOption(StandardSocketOptions.TCP_NODELAY, true);
            long[] received = new long[1];
            long[] receiverCpuNs = new long[1];
            CountDownLatch done = new CountDownLatch(1);
            Thread rx = Thread.ofPlatform().name("nio-rx").start(() -> {
                ThreadAffinity.pinCurrentThread(receiverCpu);
                long c0 = CpuTime.thread();
                ByteBuffer b = ByteBuffer.allocateDirect(size);
                try {
                    long n;
                    while ((n = accepted.read(b.clear())) >= 0) {
                        received[0] += n;
                    }
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                } finally {
                    receiverCpuNs[0] = CpuTime.thread() - c0;
                    done.countDown();
                }
            });
            ThreadAffinity.pinCurrentThread(senderCpu);
            ByteBuffer m = ByteBuffer.allocateDirect(size);
            long end = System.nanoTime() + (long) (seconds * 1e9);
            long c0 = CpuTime.thread();
            long t0 = System.nanoTime();
            long sent = 0;
            while (System.nanoTime() < end) {
                m.clear();
                while (m.hasRemaining()) {
                    sent += client.write(m);
                }
            }
            long senderCpuNs = CpuTime.thread() - c0;
            client.shutdownOutput();
            done.await();
            long t1 = System.nanoTime();
            rx.join();
            client.close();
            accepted.close();
            return new Result(received[0] * 8e9 / (t1 - t0), senderCpuNs, receiverCpuNs[0], t1 - t0);
        }
    }

    /** Busy-poll ping-pong of {@code size} bytes; returns the median one-way latency in µs (half RTT). */
    static double[] pingPong(int size, int iterations, int clientCpu, int serverCpu) throws Exception {
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            SocketChannel client = SocketChannel.open(server.getLocalAddress());
            SocketChannel accepted = server.accept();
            for (SocketChannel ch : new SocketChannel[] {client, accepted}) {
                ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                ch.configureBlocking(false);
            }
            int total = iterations + iterations / 10;
            Thread echo = Thread.ofPlatform().name("nio-echo").start(() -> {
                ThreadAffinity.pinCurrentThread(serverCpu);
                ByteBuffer b = ByteBuffer.allocateDirect(size);
                try {
                    for (int i = 0; i < total; i++) {
                        exchange(accepted, b, false);
                    }
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            ThreadAffinity.pinCurrentThread(clientCpu);
            ByteBuffer b = ByteBuffer.allocateDirect(size);
            long[] rtt = new long[iterations];
            for (int i = 0; i < total; i++) {
                long t0 = System.nanoTime();
                exchange(client, b, true);
                long t1 = System.nanoTime();
                if (i >= total - iterations) {
                    rtt[i - (total - iterations)] = t1 - t0;
                }
            }
            echo.join();
            client.close();
            accepted.close();
            return Stats.halfRttMicros(rtt);
        }
    }

    /** Client: write then spin-read; echo: spin-read then write. */
    private static void exchange(SocketChannel ch, ByteBuffer b, boolean writeFirst) throws IOException {
        if (writeFirst) {
            b.clear();
            while (b.hasRemaining()) {
                ch.write(b);
            }
        }
        b.clear();
        while (b.hasRemaining()) {
            if (ch.read(b) < 0) {
                throw new IOException("peer closed");
            }
        }
        if (!writeFirst) {
            b.flip();
            while (b.hasRemaining()) {
                ch.write(b);
            }
        }
    }
}
