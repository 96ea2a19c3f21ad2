package org.jwarp.engine.io;

import static org.jwarp.engine.io.Setsockopt.SOL_SOCKET;
import static org.jwarp.engine.io.Setsockopt.SO_KEEPALIVE;
import static org.jwarp.engine.io.Setsockopt.IPPROTO_TCP;
import static org.jwarp.engine.io.Setsockopt.TCP_NODELAY;
import static org.jwarp.engine.io.Setsockopt.TCP_KEEPIDLE;
import static org.jwarp.engine.io.Setsockopt.TCP_KEEPINTVL;
import static org.jwarp.engine.io.Setsockopt.TCP_KEEPCNT;
import static org.jwarp.engine.io.Setsockopt.TCP_USER_TIMEOUT;

import java.io.IOException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.random.RandomGenerator;
import jdk.net.ExtendedSocketOptions;

/**
 * The options every accepted socket needs — no delay, and the peer timeout's keepalive and
 * {@code TCP_USER_TIMEOUT} ({@link TcpLiveness}) — set once on the listening socket. Linux makes
 * each accepted socket a clone of its listener's, options included (and arms the keepalive timer
 * of a socket born with {@code SO_KEEPALIVE}), so a connection accepted there makes one option
 * call of its own: the keepalive idle time each socket draws ({@link #drawIdle}), which re-arms
 * that timer, so that connections accepted together do not probe together. Elsewhere, or where a
 * call fails, {@link #inherit} says no and each accepted socket gets all its options itself.
 */
public final class ListeningOptions {

    private ListeningOptions() {
    }

    /**
     * Sets on {@code server} what its accepted sockets need (the peer timeout {@code bound}, none
     * for zero); returns whether they inherit it, so that each needs only its idle time ({@link #drawIdle}).
     */
    public static boolean inherit(ServerSocketChannel server, Duration bound) {
        if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux")
                || SocketDescriptor.why() != null || !Setsockopt.available()) {
            return false;
        }
        int fd = SocketDescriptor.of(server);
        boolean set = set(fd, IPPROTO_TCP, TCP_NODELAY, 1);
        if (set && !bound.isZero()) {
            // the latest idle time the range allows, for a socket whose own draw fails
            TcpLiveness.Options o = TcpLiveness.Options.of(bound, LATEST);
            set = set(fd, SOL_SOCKET, SO_KEEPALIVE, 1)
                    && set(fd, IPPROTO_TCP, TCP_KEEPIDLE, o.keepIdle())
                    && set(fd, IPPROTO_TCP, TCP_KEEPINTVL, o.keepInterval())
                    && set(fd, IPPROTO_TCP, TCP_KEEPCNT, o.keepCount())
                    && set(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, o.userTimeoutMillis());
        }
        return set;
    }

    /** An accepted socket that inherited the rest: its own keepalive idle time, drawn as {@link TcpLiveness} draws it. */
    public static void drawIdle(SocketChannel ch, Duration bound) throws IOException {
        if (!bound.isZero()) {
            ch.setOption(ExtendedSocketOptions.TCP_KEEPIDLE,
                    TcpLiveness.Options.of(bound, ThreadLocalRandom.current()).keepIdle());
        }
    }

    /** As {@link #drawIdle(SocketChannel, Duration)}, on a direct socket (through its ring). */
    public static void drawIdle(DirectSocket s, Duration bound) throws IOException {
        if (!bound.isZero()) {
            s.setOption(IPPROTO_TCP, TCP_KEEPIDLE, TcpLiveness.Options.of(bound, ThreadLocalRandom.current()).keepIdle());
        }
    }

    /** Draws the top of every range: the listener's idle time is the latest a socket may have. */
    private static final RandomGenerator LATEST = new RandomGenerator() {
        @Override
        public long nextLong() {
            throw new UnsupportedOperationException();
        }

        @Override
        public int nextInt(int origin, int bound) {
            return bound - 1;
        }
    };

    private static boolean set(int fd, int level, int option, int value) {
        try {
            return Setsockopt.set(fd, level, option, value) == 0;
        } catch (RuntimeException e) {
            return false;
        }
    }
}
