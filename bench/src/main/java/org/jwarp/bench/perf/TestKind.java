package org.jwarp.bench.perf;

/**
 * The perftest tests ({@code ib_send_lat}, {@code ib_write_bw}, ..., {@code ib_atomic_bw}), named as
 * the subcommands are. Each is a verb and a measure.
 */
public enum TestKind {
    SEND_LAT("send-lat", Verb.SEND, true),
    SEND_BW("send-bw", Verb.SEND, false),
    WRITE_LAT("write-lat", Verb.WRITE, true),
    WRITE_BW("write-bw", Verb.WRITE, false),
    READ_LAT("read-lat", Verb.READ, true),
    READ_BW("read-bw", Verb.READ, false),
    WRITE_IMM_LAT("write-imm-lat", Verb.WRITE_IMM, true),
    WRITE_IMM_BW("write-imm-bw", Verb.WRITE_IMM, false),
    ATOMIC_LAT("atomic-lat", Verb.ATOMIC, true),
    ATOMIC_BW("atomic-bw", Verb.ATOMIC, false);

    /** The operand size of the atomic tests (RFC 7306 §4: 64-bit). */
    public static final int ATOMIC_SIZE = 8;

    /** The RDMA operation a test exercises. */
    public enum Verb {
        SEND("Send"), WRITE("RDMA_Write"), READ("RDMA_Read"), WRITE_IMM("RDMA_Write_with_imm"), ATOMIC("Atomic");

        private final String title;

        Verb(String title) {
            this.title = title;
        }

        /** perftest's name in the banner ("RDMA_Write BW Test"). */
        public String title() {
            return title;
        }

        /**
         * Whether the operation is a request the peer's engine answers (RDMA READ, atomics): limited by
         * the ORD credits ({@code -o}), timed as a full round trip, and a request/response over sockets.
         */
        public boolean isRequestResponse() {
            return this == READ || this == ATOMIC;
        }
    }

    private final String command;
    private final Verb verb;
    private final boolean latency;

    TestKind(String command, Verb verb, boolean latency) {
        this.command = command;
        this.verb = verb;
        this.latency = latency;
    }

    /** The subcommand name, e.g. {@code write-bw}. */
    public String command() {
        return command;
    }

    public Verb verb() {
        return verb;
    }

    public boolean isLatency() {
        return latency;
    }

    /**
     * perftest reports READ latency as the full round trip (a READ is a request and its response);
     * the ping-pong tests report half the round trip.
     */
    public boolean halvesRoundTrip() {
        return latency && !verb.isRequestResponse();
    }

    /** perftest's banner, e.g. "RDMA_Write BW Test". */
    public String title() {
        return verb.title() + (latency ? " Latency Test" : " BW Test");
    }

    /**
     * What the same test is over plain sockets: a ping-pong, a one-way stream, or request/response
     * in place of RDMA READ (the way the seed papers ran their sockets baselines).
     */
    public String socketsWorkload() {
        if (verb.isRequestResponse()) {
            return latency ? "request/response round trip" : "pipelined request/response";
        }
        return latency ? "ping-pong" : "one-way stream";
    }

    /** By subcommand name, or {@code null}. */
    public static TestKind ofCommand(String command) {
        for (TestKind t : values()) {
            if (t.command.equals(command)) {
                return t;
            }
        }
        return null;
    }
}
