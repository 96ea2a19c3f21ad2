package org.jwarp.bench.scale;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;

/**
 * {@code jwarp scale --json}, schema {@link #SCHEMA} (docs/json.md): N connected QPs between two
 * processes, what each costs, what the idle ones cost the busy one, the check of every byte, and
 * what was left after close.
 *
 * @param qps                   QPs asked for
 * @param qpsEstablished        QPs established on both sides (MPA Request/Reply, RTR, RTS)
 * @param addresses             the server's loopback addresses, the connections spread over them
 * @param socketIo              the socket I/O layer of both devices
 * @param threading             the threading mode of both devices
 * @param peerTimeoutSeconds    both devices' peer timeout (TCP keepalive and user timeout), 0 for none
 * @param setupSeconds          from the first to the last connection of the N
 * @param connectionsPerSecond  {@code qps / setupSeconds}
 * @param closeSeconds          from the first disconnect to the client's N-th Disconnected event
 * @param bytesPerQp            the larger side's heap and direct memory per connected QP
 * @param idleEngineCpuPercent  both processes' engine threads over the idle window, % of one CPU
 * @param idleWindowMs          the idle window
 * @param pingpongAloneUs       8 B WRITE ping-pong on QP 0 before the other QPs were connected, median one-way µs
 * @param pingpongBesideUs      the same beside the others, connected and idle
 * @param pingpongRatio         beside / alone
 * @param bytesVerified         bytes the server checked: each QP's 64 B WRITE and the 8 B SEND after it
 * @param leaked                both processes together, after every QP and the devices were closed
 * @param ok                    every QP established, every byte verified, nothing leaked
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record ScaleDocument(String schema, int qps, int qpsEstablished, List<String> addresses, String socketIo,
                            String threading, int peerTimeoutSeconds, double setupSeconds, double connectionsPerSecond, double closeSeconds,
                            long bytesPerQp,
                            double idleEngineCpuPercent, int idleWindowMs, double pingpongAloneUs,
                            double pingpongBesideUs, double pingpongRatio, double pingpongAloneP99Us,
                            double pingpongBesideP99Us, int pingpongRounds, long bytesVerified, Leaked leaked,
                            Side client, Side server, boolean ok) {

    public static final String SCHEMA = "jwarp-scale/1";

    /**
     * One process: what a connected QP adds to it (measured between QP 0 alone and all N
     * connected, divided by N - 1), its engine threads over the idle window, and its leaks.
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Side(long bytesPerQp, long heapBytesPerQp, long directBytesPerQp, long rssBytesPerQp,
                       double idleEngineCpuPercent, double idleProcessCpuPercent, Leaked leaked) {
    }

    /** What was left after close, against the process's start. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Leaked(int fds, int threads, long directBytes) {

        static Leaked of(Footprint delta) {
            return new Leaked(delta.fds(), delta.threads(), delta.directBytes());
        }

        Leaked plus(Leaked o) {
            return new Leaked(fds + o.fds, threads + o.threads, directBytes + o.directBytes);
        }

        @com.fasterxml.jackson.annotation.JsonIgnore
        boolean none() {
            return fds <= 0 && threads <= 0 && directBytes <= 0;
        }
    }
}
