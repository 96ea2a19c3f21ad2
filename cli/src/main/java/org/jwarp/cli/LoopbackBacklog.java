package org.jwarp.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalInt;

/**
 * Whether this host's loopback can carry the keepalive probes of a scale run. Both processes' sockets
 * live on one host, and the kernel fires keepalive timers of tens of seconds in coarse batches (its
 * timer wheel rounds them to seconds), so probes and their answers arrive in bursts of thousands;
 * loopback queues every packet in a per-CPU backlog of {@code net.core.netdev_max_backlog} packets
 * and drops the rest. A connection whose three probes are dropped is aborted as lost. Between two
 * hosts each NIC's own queue takes the bursts; on one host the backlog is the limit. Where the
 * user left the peer timeout at its default, such a run goes without keepalive and says so; an
 * asked-for timeout is kept, with the same warning.
 */
final class LoopbackBacklog {

    static final Path SYSCTL = Path.of("/proc/sys/net/core/netdev_max_backlog");
    /** Connected QPs per packet of backlog below which idle runs kept every connection (4,000 with 1,000). */
    static final int QPS_PER_PACKET = 4;

    private LoopbackBacklog() {
    }

    /** The peer timeout a run uses ({@code 0}: no keepalive), and the one line that explains it, or null. */
    record Choice(int peerTimeoutSeconds, String line) {
    }

    /**
     * The peer timeout for a run of {@code qps} QPs: {@code asked} if the user gave one (warned
     * about as {@link #warning} says); else {@code defaultSeconds}, unless its probes would overflow
     * the {@code backlog} (empty: unknown), in which case none, with a line that says why and how
     * to run with it.
     */
    static Choice choose(int qps, Integer asked, int defaultSeconds, OptionalInt backlog) {
        if (backlog.isEmpty()) {
            return new Choice(asked != null ? asked : defaultSeconds, null);
        }
        if (asked != null) {
            return new Choice(asked, warning(qps, asked, backlog.getAsInt()));
        }
        if (warning(qps, defaultSeconds, backlog.getAsInt()) == null) {
            return new Choice(defaultSeconds, null);
        }
        return new Choice(0, "jwarp scale: keepalive off for this run (--peer-timeout 0): " + qps
                + " QPs' keepalive probes would come in bursts that loopback's backlog of " + backlog.getAsInt()
                + " packets drops, ending idle connections as lost; to run with it, raise the backlog (sysctl -w"
                + " net.core.netdev_max_backlog=" + 2L * qps + ") and pass --peer-timeout " + defaultSeconds);
    }

    /** The backlog in packets, if this host says. */
    static OptionalInt read() {
        try {
            // one read of the whole value: a sysctl file reads as empty from any offset but 0, and
            // Files.readString, reading one byte first where the size says 0, would see "1" of "1000"
            try (java.io.BufferedReader r = Files.newBufferedReader(SYSCTL)) {
                String line = r.readLine();
                return line == null ? OptionalInt.empty() : OptionalInt.of(Integer.parseInt(line.trim()));
            }
        } catch (IOException | NumberFormatException e) {
            return OptionalInt.empty();
        }
    }

    /**
     * One line for a run of {@code qps} QPs with keepalive on ({@code peerTimeoutSeconds} > 0) over a
     * backlog of {@code backlog} packets that may end idle connections, or null.
     */
    static String warning(int qps, int peerTimeoutSeconds, int backlog) {
        if (peerTimeoutSeconds == 0 || (long) qps <= (long) backlog * QPS_PER_PACKET) {
            return null;
        }
        // room for a probe of every socket of both processes at once: no burst can be larger
        return "jwarp scale: " + qps + " QPs' keepalive probes come in bursts that loopback's backlog of " + backlog
                + " packets drops, and idle connections may end as lost: raise it (sysctl -w net.core.netdev_max_backlog="
                + 2L * qps + ") or run with --peer-timeout 0";
    }
}
