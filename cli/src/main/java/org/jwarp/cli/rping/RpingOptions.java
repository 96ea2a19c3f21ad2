package org.jwarp.cli.rping;

import java.net.InetSocketAddress;
import java.time.Duration;

/**
 * What one {@code jwarp rping} run does; the options of rdma-core's rping plus a timeout (rping
 * itself waits forever).
 *
 * @param server     {@code -s} (true) or {@code -c}
 * @param address    {@code -a}/{@code -p}: where the server listens or the client connects
 * @param count      {@code -C}: pings per connection (client), 0 = until interrupted
 * @param size       {@code -S}: ping data size, {@link RpingPattern#MIN_SIZE}..{@link RpingPattern#MAX_SIZE}
 * @param verbose    {@code -v}: print each ping's data as rping does
 * @param validate   {@code -V}: the client compares what came back with what it sent; the server
 *                   checks what it read against rping's data pattern
 * @param persistent {@code -P}: the server keeps accepting connections
 * @param debug      {@code -d}: progress lines, and a rate line per connection
 * @param timeout    the longest wait for any one step (connection setup, a completion)
 */
public record RpingOptions(boolean server, InetSocketAddress address, int count, int size, boolean verbose,
                           boolean validate, boolean persistent, boolean debug, Duration timeout) {

    public RpingOptions {
        if (address == null) {
            throw new IllegalArgumentException("an address is needed");
        }
        if (count < 0) {
            throw new IllegalArgumentException("count must be >= 0: " + count);
        }
        if (size < RpingPattern.MIN_SIZE || size > RpingPattern.MAX_SIZE) {
            throw new IllegalArgumentException("size " + size + " outside rping's range " + RpingPattern.MIN_SIZE
                    + ".." + RpingPattern.MAX_SIZE);
        }
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be > 0: " + timeout);
        }
    }
}
