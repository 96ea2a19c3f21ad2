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
 * hosts each NIC's own queue takes the bursts; on one host the backlog is the limit.
 */
final class LoopbackBacklog {

    static final Path SYSCTL = Path.of("/proc/sys/net/core/netdev_max_backlog");
    /** Connected QPs per packet of backlog below which idle runs kept every connection (4,000 with 1,000). */
    static final int QPS_PER_PACKET = 4;

    private LoopbackBacklog() {
    }

    /** The backlog in packets, if this host says. */
    static OptionalInt read() {
        try {
            return OptionalInt.of(Integer.parseInt(Files.readString(SYSCTL).trim()));
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
