package org.jwarp.bench.scale;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.jwarp.bench.json.JsonCodec;
import org.jwarp.bench.perf.PerfException;

/** The scale run's control connection: {@link ScaleMessage}s as JSON lines over a TCP socket. */
final class ScaleLink implements AutoCloseable {

    private final Socket socket;
    private final BufferedReader in;
    private final OutputStream out;

    ScaleLink(Socket socket) throws IOException {
        this.socket = socket;
        socket.setTcpNoDelay(true);
        this.in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
        this.out = socket.getOutputStream();
    }

    void send(ScaleMessage m) {
        try {
            out.write((JsonCodec.line(m) + "\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
        } catch (IOException e) {
            throw new PerfException("the scale peer's control connection failed: " + e.getMessage());
        }
    }

    /** The next message, within {@code timeout}; an error from the peer becomes a PerfException. */
    ScaleMessage receive(Duration timeout) {
        String line;
        try {
            socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, timeout.toMillis()));
            line = in.readLine();
        } catch (SocketTimeoutException e) {
            throw new PerfException("the scale peer sent nothing for " + timeout.toSeconds() + " s");
        } catch (IOException e) {
            throw new PerfException("the scale peer's control connection failed: " + e.getMessage());
        }
        if (line == null) {
            throw new PerfException("the scale peer closed its control connection");
        }
        ScaleMessage m = JsonCodec.convert(JsonCodec.tree(line, "the scale peer's line"), ScaleMessage.class,
                "the scale peer's line");
        if ("error".equals(m.op())) {
            throw new PerfException("the scale server failed: " + m.error());
        }
        return m;
    }

    /** Sends {@code m} and returns the answer, which must name the same op. */
    ScaleMessage ask(ScaleMessage m, Duration timeout) {
        send(m);
        ScaleMessage a = receive(timeout);
        if (!m.op().equals(a.op())) {
            throw new PerfException("the scale server answered " + a.op() + " to " + m.op());
        }
        return a;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
