package org.jwarp.engine.io;

import static org.jwarp.engine.io.Setsockopt.SOL_SOCKET;
import static org.jwarp.engine.io.Setsockopt.SO_KEEPALIVE;
import static org.jwarp.engine.io.Setsockopt.IPPROTO_TCP;
import static org.jwarp.engine.io.Setsockopt.TCP_KEEPIDLE;
import static org.jwarp.engine.io.Setsockopt.TCP_KEEPINTVL;
import static org.jwarp.engine.io.Setsockopt.TCP_KEEPCNT;
import static org.jwarp.engine.io.Setsockopt.TCP_USER_TIMEOUT;

import java.io.IOException;
import java.net.StandardSocketOptions;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.random.RandomGenerator;
import jdk.net.ExtendedSocketOptions;
import org.jwarp.sys.Errno;

/**
 * How long a connection whose peer has vanished — its host died or its link went away, so no FIN
 * and no RST will come — may live. An RNIC bounds this with its own timers; over kernel TCP the
 * same bound is two socket options:
 *
 * <ul>
 *   <li>{@code TCP_USER_TIMEOUT} (RFC 5482, Linux): data sent and not acknowledged for longer than
 *       the bound ends the connection with ETIMEDOUT, instead of TCP's retransmission limit (about
 *       15 minutes with Linux's defaults). It covers a QP with work outstanding.</li>
 *   <li>TCP keepalive, probing an idle connection from a quarter to half of the bound on, every
 *       sixth of it, three times: a QP with nothing outstanding learns within the bound that its
 *       peer is gone. Each socket draws its idle time in that range: connections set up or used
 *       together would otherwise probe together, and tens of thousands of probes and replies in
 *       one burst overflow a host's backlog (loopback's {@code netdev_max_backlog}), so that
 *       probes are lost three times in a row and live connections end as lost ones.</li>
 * </ul>
 *
 * Either way the socket fails, the engine's next read or write sees it, and the connection ends as
 * a lost one: its work requests flush once and one CM event goes out. Set on every connection of
 * the device, in both roles, before the MPA exchange.
 */
public final class TcpLiveness {

    private TcpLiveness() {
    }

    /**
     * The options that bound a peer's silence to {@code bound}: keepalive idle time, probe
     * interval and count (seconds), and {@code TCP_USER_TIMEOUT} (milliseconds). The idle time is
     * drawn from {@code random}.
     */
    record Options(int keepIdle, int keepInterval, int keepCount, int userTimeoutMillis) {

        static Options of(Duration bound, RandomGenerator random) {
            int seconds = (int) Math.max(3, Math.min(Integer.MAX_VALUE, bound.toSeconds()));
            int latestIdle = Math.max(1, seconds / 2);
            int earliestIdle = Math.max(1, seconds / 4);
            int idle = earliestIdle == latestIdle ? latestIdle : random.nextInt(earliestIdle, latestIdle + 1);
            return new Options(idle, Math.max(1, seconds / 6), 3, (int) Math.min(Integer.MAX_VALUE, bound.toMillis()));
        }
    }

    /**
     * Bounds how long {@code channel}'s peer may stay silent, or does nothing for a zero bound.
     * Returns null, or one line on what could not be set (the keepalive half still holds).
     */
    public static String apply(SocketChannel channel, Duration bound) throws IOException {
        if (bound.isZero()) {
            return null;
        }
        Options o = Options.of(bound, ThreadLocalRandom.current());
        channel.setOption(StandardSocketOptions.SO_KEEPALIVE, true);
        channel.setOption(ExtendedSocketOptions.TCP_KEEPIDLE, o.keepIdle());
        channel.setOption(ExtendedSocketOptions.TCP_KEEPINTERVAL, o.keepInterval());
        channel.setOption(ExtendedSocketOptions.TCP_KEEPCOUNT, o.keepCount());
        return setUserTimeout(channel, o.userTimeoutMillis());
    }

    /** As {@link #apply(SocketChannel, Duration)}, on a direct socket (through its ring): null, or what failed. */
    public static String apply(DirectSocket socket, Duration bound) throws IOException {
        if (bound.isZero()) {
            return null;
        }
        Options o = Options.of(bound, ThreadLocalRandom.current());
        socket.setOption(SOL_SOCKET, SO_KEEPALIVE, 1);
        socket.setOption(IPPROTO_TCP, TCP_KEEPIDLE, o.keepIdle());
        socket.setOption(IPPROTO_TCP, TCP_KEEPINTVL, o.keepInterval());
        socket.setOption(IPPROTO_TCP, TCP_KEEPCNT, o.keepCount());
        socket.setOption(IPPROTO_TCP, TCP_USER_TIMEOUT, o.userTimeoutMillis());
        return null;
    }

    private static String setUserTimeout(SocketChannel channel, int millis) {
        if (SocketDescriptor.why() != null) {
            return "TCP_USER_TIMEOUT not set: " + SocketDescriptor.why();
        }
        if (!Setsockopt.available()) {
            return "TCP_USER_TIMEOUT not set: libc has no setsockopt()";
        }
        try {
            int errno = Setsockopt.set(SocketDescriptor.of(channel), IPPROTO_TCP, TCP_USER_TIMEOUT, millis);
            return errno == 0 ? null : "TCP_USER_TIMEOUT not set: " + Errno.describe(errno);
        } catch (RuntimeException e) {
            return "TCP_USER_TIMEOUT not set: " + e;
        }
    }
}
