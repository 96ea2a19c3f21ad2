package org.jwarp.cli.faults;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * The sockets baseline of {@link QpFlows} on the same link: a one-way stream of 64 KiB messages
 * (B checks every byte), a request/response in place of READ (8-byte request, 64 KiB answer that A
 * checks) and a 4 KiB ping-pong (both sides check), each on a blocking TCP socket with the
 * kernel's defaults (no user timeout, no keepalive), as an application that does nothing special
 * gets.
 */
public final class SocketFlows implements AutoCloseable {

    private final List<FlowRecord> records = new ArrayList<>();
    private final List<Socket> sockets = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();
    private final ServerSocket server;
    private volatile BooleanSupplier keepPosting = () -> true;

    private SocketFlows(String nsA, String nsB, String addrB) throws Exception {
        server = Netns.in(nsB, () -> new ServerSocket(0, 8, InetAddress.getByName(addrB)));
        InetSocketAddress at = new InetSocketAddress(InetAddress.getByName(addrB), server.getLocalPort());
        for (String name : new String[] {"stream", "request/response", "ping-pong"}) {
            Socket ca = Netns.in(nsA, () -> {
                Socket s = new Socket();
                s.setTcpNoDelay(true);
                s.connect(at, 10_000);
                return s;
            });
            Socket cb = server.accept();
            cb.setTcpNoDelay(true);
            sockets.add(ca);
            sockets.add(cb);
            records.add(new FlowRecord(name));
        }
    }

    public static SocketFlows open(String nsA, String nsB, String addrB) throws Exception {
        return new SocketFlows(nsA, nsB, addrB);
    }

    /** Runs the flows on threads of their own until {@code keep} says stop and every message is through. */
    public void run(BooleanSupplier keep, long drainMillis) throws InterruptedException {
        keepPosting = keep;
        long now = System.nanoTime();
        records.forEach(r -> r.start(now));
        start("stream-a", 0, this::streamA);
        start("stream-b", 0, this::streamB);
        start("rr-a", 1, this::requestA);
        start("rr-b", 1, this::requestB);
        start("pp-a", 2, this::pingA);
        start("pp-b", 2, this::pingB);
        while (keep.getAsBoolean()) {
            Thread.sleep(20);
        }
        long deadline = System.currentTimeMillis() + drainMillis;
        for (Thread t : threads) {
            t.join(Math.max(1, deadline - System.currentTimeMillis()));
        }
        for (int i = 0; i < records.size(); i++) {
            if (threads.get(2 * i).isAlive() || threads.get(2 * i + 1).isAlive()) {
                records.get(i).error("still blocked " + drainMillis / 1000 + " s after the end");
            }
        }
        close();
        for (Thread t : threads) {
            t.join();
        }
    }

    private interface Side {
        void run(FlowRecord rec, Socket s) throws IOException;
    }

    private void start(String name, int flow, Side side) {
        FlowRecord rec = records.get(flow);
        Socket s = sockets.get(2 * flow + (name.endsWith("-a") ? 0 : 1));
        threads.add(Thread.ofPlatform().name("faults-" + name).start(() -> {
            try {
                side.run(rec, s);
            } catch (IOException e) {
                synchronized (rec) {
                    rec.error(e.getClass().getSimpleName() + ": " + e.getMessage());
                }
            }
        }));
    }

    private void streamA(FlowRecord rec, Socket s) throws IOException {
        OutputStream out = s.getOutputStream();
        byte[] msg = new byte[QpFlows.SIZE];
        for (long seq = 0; keepPosting.getAsBoolean(); seq++) {
            Pattern.fill(msg, msg.length, seq);
            out.write(msg);
            synchronized (rec) {
                rec.posted++;
            }
        }
        s.shutdownOutput();
    }

    private void streamB(FlowRecord rec, Socket s) throws IOException {
        InputStream in = s.getInputStream();
        byte[] msg = new byte[QpFlows.SIZE];
        for (long seq = 0; ; seq++) {
            int n = in.readNBytes(msg, 0, msg.length);
            if (n == 0) {
                return;
            }
            synchronized (rec) {
                if (n == msg.length && Pattern.matches(msg, n, seq)) {
                    rec.verified(n);
                } else {
                    rec.mismatch("message " + seq + ": " + n + " bytes that are not the message sent");
                }
                rec.completed(seq, n == msg.length, false, System.nanoTime());
            }
        }
    }

    private void requestA(FlowRecord rec, Socket s) throws IOException {
        DataOutputStream out = new DataOutputStream(s.getOutputStream());
        InputStream in = s.getInputStream();
        byte[] answer = new byte[QpFlows.SIZE];
        for (long seq = 0; keepPosting.getAsBoolean(); seq++) {
            out.writeLong(seq);
            out.flush();
            synchronized (rec) {
                rec.posted++;
            }
            int n = in.readNBytes(answer, 0, answer.length);
            synchronized (rec) {
                if (n == answer.length && Pattern.matches(answer, n, seq)) {
                    rec.verified(n);
                } else {
                    rec.mismatch("answer " + seq + ": " + n + " bytes that are not the answer sent");
                }
                rec.completed(seq, n == answer.length, false, System.nanoTime());
            }
            if (n < answer.length) {
                return;
            }
        }
        s.shutdownOutput();
    }

    private void requestB(FlowRecord rec, Socket s) throws IOException {
        DataInputStream in = new DataInputStream(s.getInputStream());
        OutputStream out = s.getOutputStream();
        byte[] answer = new byte[QpFlows.SIZE];
        while (true) {
            long seq;
            try {
                seq = in.readLong();
            } catch (java.io.EOFException end) {
                return;
            }
            Pattern.fill(answer, answer.length, seq);
            out.write(answer);
        }
    }

    private void pingA(FlowRecord rec, Socket s) throws IOException {
        OutputStream out = s.getOutputStream();
        InputStream in = s.getInputStream();
        byte[] ping = new byte[QpFlows.PING];
        byte[] pong = new byte[QpFlows.PING];
        for (long seq = 0; keepPosting.getAsBoolean(); seq++) {
            Pattern.fill(ping, ping.length, seq);
            out.write(ping);
            synchronized (rec) {
                rec.posted++;
            }
            int n = in.readNBytes(pong, 0, pong.length);
            synchronized (rec) {
                if (n == pong.length && Pattern.matches(pong, n, seq)) {
                    rec.verified(n);
                } else {
                    rec.mismatch("echo " + seq + ": " + n + " bytes that are not the message sent");
                }
                rec.completed(seq, n == pong.length, false, System.nanoTime());
            }
            if (n < pong.length) {
                return;
            }
        }
        s.shutdownOutput();
    }

    private void pingB(FlowRecord rec, Socket s) throws IOException {
        InputStream in = s.getInputStream();
        OutputStream out = s.getOutputStream();
        byte[] msg = new byte[QpFlows.PING];
        for (long seq = 0; ; seq++) {
            int n = in.readNBytes(msg, 0, msg.length);
            if (n == 0) {
                return;
            }
            if (n < msg.length || !Pattern.matches(msg, n, seq)) {
                synchronized (rec) {
                    rec.mismatch("B: message " + seq + " arrived as " + n + " bytes that are not the message sent");
                }
            }
            out.write(msg, 0, n);
        }
    }

    /** WRITE-like stream, READ-like request/response, SEND-like ping-pong, in that order. */
    public List<FlowRecord> records() {
        return records;
    }

    @Override
    public void close() {
        for (Socket s : sockets) {
            try {
                s.close();
            } catch (IOException ignored) {
                // already closed
            }
        }
        try {
            server.close();
        } catch (IOException ignored) {
            // already closed
        }
    }
}
