package org.jwarp.verbs;

/**
 * A type 2 memory window ({@code ibv_mw}): an STag a peer may use for RDMA Read, Write or atomics
 * over part of a {@link MemoryRegion}, once a BIND_MW work request on a queue pair has bound it
 * ({@link SendWr#bindMw}); only that queue pair's stream may then use it (RFC 5040 §2.1: a type 2
 * window is associated with a stream). A tagged message naming it through another stream, outside
 * its range or beyond its rights gets a Terminate, as for a region. LOCAL_INV on this side, or the
 * peer's Send with Invalidate naming its rkey, unbinds it; bind again to reuse it.
 *
 * <p>Thread-safety: getters from any thread; {@link #rkey()} follows the last bind this window's
 * queue pair carried out.
 */
public interface MemoryWindow extends AutoCloseable {

    /** {@return the protection domain the window belongs to} */
    ProtectionDomain pd();

    /** {@return the window's STag as last bound (or as allocated, before any bind)} */
    int rkey();

    /** {@return the STag to give the next bind: the same index, the next key ({@code ibv_inc_rkey})} */
    default int nextRkey() {
        return Stag.withNextKey(rkey());
    }

    /** {@return whether the window is bound now (false before the first bind and after an invalidation)} */
    boolean isBound();

    /** {@code ibv_dealloc_mw}: the STag is freed; a peer using it gets a Terminate. */
    @Override
    void close();
}
