package org.jwarp.verbs;

import java.util.List;

/**
 * Stable counter names (docs/design.md rule 9: tools such as {@code jwarp stat} read them by name).
 * Every engine-thread, queue-pair and device {@link Counters} holds at least {@link #STANDARD};
 * a provider may add more, named in the same dotted lower-case style.
 */
public final class CounterNames {

    /** FPDUs written to TCP (including Terminates and the RTR). */
    public static final String FPDUS_TX = "fpdus.tx";
    /** Bytes written to TCP in FPDUs (MPA header, DDP/RDMAP headers, payload, pad, CRC, markers). */
    public static final String BYTES_TX = "bytes.tx";
    /** Complete FPDUs read from TCP. */
    public static final String FPDUS_RX = "fpdus.rx";
    /** Bytes of FPDUs read from TCP. */
    public static final String BYTES_RX = "bytes.rx";
    /** Doorbells: posts that told the engine there is new work (one per post call, not per request). */
    public static final String DOORBELLS = "doorbells";
    /** Wake-ups: times a parked engine thread was unparked, or a completion channel woke a waiter. */
    public static final String WAKEUPS = "wakeups";
    /** Terminate messages sent (RFC 5040 §5.4). */
    public static final String TERMINATES_TX = "terminates.tx";
    /** Terminate messages received. */
    public static final String TERMINATES_RX = "terminates.rx";
    /** FPDUs whose MPA CRC32c did not match (RFC 5044 §8, error 0x02). */
    public static final String CRC_ERRORS = "crc.errors";

    /**
     * Payload bytes placed straight from TCP into registered memory, without a staging copy
     * (zero-copy receive). Not standard: a provider that places directly adds it.
     */
    public static final String RX_DIRECT_BYTES = "rx.direct.bytes";

    /**
     * System calls that wrote a connection's FPDUs to its socket (each may carry many FPDUs).
     * Not standard: a provider on kernel TCP adds it.
     */
    public static final String SOCKET_WRITES = "socket.writes";

    /**
     * System calls that read a connection's socket, empty ones (nothing had arrived) included.
     * Not standard: a provider on kernel TCP adds it.
     */
    public static final String SOCKET_READS = "socket.reads";

    /**
     * Clients a listener closed at once because its backlog of pending setups was full (a flood of
     * silent or slow clients). Not standard: the connection manager's group holds it.
     */
    public static final String SETUPS_REFUSED = "setups.refused";

    /** Engine thread: the queue pairs it owns now. Not standard: engine-thread groups hold it. */
    public static final String QPS = "qps";

    /**
     * Engine thread: the queue pairs among {@link #QPS} whose connections it parked now — quiet,
     * not visited by its duty cycle until a post, bytes from the peer or an end.
     */
    public static final String QPS_PARKED = "qps.parked";

    /** Engine thread: the RSS indirection-table entries that name it now. */
    public static final String RSS_ENTRIES = "rss.entries";

    /** Engine thread: the CPU time it has used, in ns (-1 where the JVM cannot tell, or no thread of its own). */
    public static final String CPU_NS = "cpu.ns";

    /** Engine thread: queue pairs moved to it by rebalancing, so far. */
    public static final String RSS_MOVES_IN = "rss.moves.in";

    /** The names every {@link Counters} of a provider holds, in this order. */
    public static final List<String> STANDARD = List.of(FPDUS_TX, BYTES_TX, FPDUS_RX, BYTES_RX, DOORBELLS, WAKEUPS,
            TERMINATES_TX, TERMINATES_RX, CRC_ERRORS);

    private CounterNames() {
    }
}
