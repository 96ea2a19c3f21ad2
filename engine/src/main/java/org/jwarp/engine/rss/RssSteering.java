package org.jwarp.engine.rss;

import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicInteger;
import org.jwarp.engine.rss.RssConfig;
import org.jwarp.engine.runtime.EngineWorker;

/**
 * Which engine thread serves a new connection, in both roles (seed 004's Receive-Side Scaling):
 * the Toeplitz hash of the 4-tuple as this side receives it (source: the peer, destination: this
 * side) picks an entry of the indirection table, and the entry names the engine thread. The
 * thread owns the connection and its QP from the first byte. A connection whose addresses are not
 * known, or of two families, goes round robin.
 */
public final class RssSteering {

    private final Toeplitz toeplitz;
    private final IndirectionTable table;
    private final EngineWorker[] workers;
    private final AtomicInteger roundRobin = new AtomicInteger();
    private final RssConfig.Steering steering;

    public RssSteering(EngineWorker[] workers, RssConfig config) {
        this.workers = workers;
        this.steering = config.steering();
        this.table = new IndirectionTable(config.tableSize(), workers.length);
        byte[] key = config.keyBytes();
        this.toeplitz = key == null ? new Toeplitz() : new Toeplitz(key);
    }

    /** Table entries that name engine thread {@code engine} now. */
    public int entriesOf(int engine) {
        int n = 0;
        for (int i = 0; i < table.size(); i++) {
            if (table.engineOf(i) == engine) {
                n++;
            }
        }
        return n;
    }

    /** Where a connection goes: its engine thread, and its table entry (-1: steered round robin). */
    public record Choice(EngineWorker worker, int entry) {
    }

    /** The engine thread for a connection with {@code peer} arriving at {@code local}. */
    public Choice choose(InetSocketAddress peer, InetSocketAddress local) {
        if (steering == RssConfig.Steering.ONE) {
            return new Choice(workers[0], -1);
        }
        if (steering == RssConfig.Steering.ROUND_ROBIN || peer == null || local == null || peer.getAddress() == null || local.getAddress() == null
                || peer.getAddress().getAddress().length != local.getAddress().getAddress().length) {
            return new Choice(workers[Math.floorMod(roundRobin.getAndIncrement(), workers.length)], -1);
        }
        int entry = table.entry(toeplitz.hash(peer, local, true));
        return new Choice(workers[table.engineOf(entry)], entry);
    }

    /**
     * Rebalancing: entry {@code entry} names engine thread {@code engine} from now on; the
     * connections of that entry are moved by the caller.
     */
    public void assign(int entry, int engine) {
        table.assign(entry, engine);
    }

    public EngineWorker worker(int engine) {
        return workers[engine];
    }
}
