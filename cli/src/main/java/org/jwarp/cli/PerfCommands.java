package org.jwarp.cli;

import org.jwarp.bench.perf.TestKind;
import picocli.CommandLine.Command;

/** The perftest tests, one subcommand each; all options are {@link PerfCommand}'s. */
final class PerfCommands {

    private static final String FOOTER = "%nModes (perftest's): `jwarp TEST` waits for a client; `jwarp TEST HOST` runs"
            + " against it; `jwarp TEST --loopback` runs both ends here.%n"
            + "Latency is half the round trip (READ: the whole round trip), in microseconds, from HdrHistogram.%n"
            + "MB/sec is 2^20 bytes per second; Gb/sec (--report_gbits) 10^9 bits per second.%n"
            + "Examples:%n"
            + "  jwarp write-bw --loopback -a --cpu_util%n"
            + "  jwarp write-bw --loopback -a --cpu_util --transport sockets-nio%n"
            + "  jwarp send-lat --loopback -s 64 -n 10000 --threading invoker --pin 0,1%n"
            + "  jwarp read-bw -q 2 -D 5 10.77.2.1";

    private PerfCommands() {
    }

    @Command(name = "send-lat", description = "SEND/RECV ping-pong latency (perftest's ib_send_lat).",
            footer = FOOTER, sortOptions = false)
    static final class SendLat extends PerfCommand {
        @Override
        TestKind test() {
            return TestKind.SEND_LAT;
        }
    }

    @Command(name = "send-bw", description = "SEND bandwidth (perftest's ib_send_bw).", footer = FOOTER,
            sortOptions = false)
    static final class SendBw extends PerfCommand {
        @Override
        TestKind test() {
            return TestKind.SEND_BW;
        }
    }

    @Command(name = "write-lat", description = "RDMA WRITE ping-pong latency, each side polling its buffer"
            + " (perftest's ib_write_lat).", footer = FOOTER, sortOptions = false)
    static final class WriteLat extends PerfCommand {
        @Override
        TestKind test() {
            return TestKind.WRITE_LAT;
        }
    }

    @Command(name = "write-bw", description = "RDMA WRITE bandwidth (perftest's ib_write_bw).", footer = FOOTER,
            sortOptions = false)
    static final class WriteBw extends PerfCommand {
        @Override
        TestKind test() {
            return TestKind.WRITE_BW;
        }
    }

    @Command(name = "read-lat", description = "RDMA READ latency, the full round trip (perftest's ib_read_lat).",
            footer = FOOTER, sortOptions = false)
    static final class ReadLat extends PerfCommand {
        @Override
        TestKind test() {
            return TestKind.READ_LAT;
        }
    }

    @Command(name = "read-bw", description = "RDMA READ bandwidth (perftest's ib_read_bw).", footer = FOOTER,
            sortOptions = false)
    static final class ReadBw extends PerfCommand {
        @Override
        TestKind test() {
            return TestKind.READ_BW;
        }
    }

    @Command(name = "write-imm-lat", description = "RDMA WRITE with immediate data ping-pong latency (RFC 7306;"
            + " the immediate completes a RECV).", footer = FOOTER, sortOptions = false)
    static final class WriteImmLat extends PerfCommand {
        @Override
        TestKind test() {
            return TestKind.WRITE_IMM_LAT;
        }
    }

    @Command(name = "write-imm-bw", description = "RDMA WRITE with immediate data bandwidth (RFC 7306).",
            footer = FOOTER, sortOptions = false)
    static final class WriteImmBw extends PerfCommand {
        @Override
        TestKind test() {
            return TestKind.WRITE_IMM_BW;
        }
    }

    @Command(name = "atomic-lat", description = "RFC 7306 atomic latency, the full round trip, 8-byte operands"
            + " (perftest's ib_atomic_lat; -A FETCH_AND_ADD or CMP_AND_SWAP).", footer = FOOTER, sortOptions = false)
    static final class AtomicLat extends PerfCommand {
        @Override
        TestKind test() {
            return TestKind.ATOMIC_LAT;
        }
    }

    @Command(name = "atomic-bw", description = "RFC 7306 atomic operations per second, -o in flight per QP"
            + " (perftest's ib_atomic_bw; -A FETCH_AND_ADD or CMP_AND_SWAP).", footer = FOOTER, sortOptions = false)
    static final class AtomicBw extends PerfCommand {
        @Override
        TestKind test() {
            return TestKind.ATOMIC_BW;
        }
    }
}
