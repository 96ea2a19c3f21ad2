package org.jwarp.engine.provider;

import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicInteger;
import org.jwarp.engine.rss.IndirectionTable;
import org.jwarp.engine.rss.Toeplitz;

/**
 * Which engine thread serves a new connection, in both roles (seed 004's Receive-Side Scaling):
 * the Toeplitz hash of the 4-tuple as this side receives it (source: the peer, destination: this
 * side) picks an entry of the indirection table, and the entry names the engine thread. The
 * thread owns the connection and its QP from the first byte. A connection whose addresses are not
 * known, or of two families, goes round robin.
 */
final class RssSteering {

    private final Toeplitz toeplitz = new Toeplitz();
    private final IndirectionTable table;
    private final EngineWorker[] workers;
    private final AtomicInteger roundRobin = new AtomicInteger();

    RssSteering(EngineWorker[] workers, int tableSize) {
        this.workers = workers;
        this.table = new IndirectionTable(tableSize, workers.length);
    }

    IndirectionTable table() {
        return table;
    }

    /** The engine thread for a connection with {@code peer} arriving at {@code local}. */
    EngineWorker workerFor(InetSocketAddress peer, InetSocketAddress local) {
        if (workers.length == 1) {
            return workers[0];
        }
        if (peer == null || local == null || peer.getAddress() == null || local.getAddress() == null
                || peer.getAddress().getAddress().length != local.getAddress().getAddress().length) {
            return workers[Math.floorMod(roundRobin.getAndIncrement(), workers.length)];
        }
        return workers[table.engineFor(toeplitz.hash(peer, local, true))];
    }
}
