package org.jwarp.cli;

import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.HexFormat;
import java.util.concurrent.Callable;
import org.jwarp.engine.rss.IndirectionTable;
import org.jwarp.engine.rss.Toeplitz;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code jwarp rss}: Receive-Side Scaling's hash and table, from the command line. */
@Command(name = "rss", mixinStandardHelpOptions = true,
        description = "Receive-Side Scaling (seed 004): how a connection is steered to an engine thread.",
        subcommands = RssCommand.Hash.class)
final class RssCommand extends GroupCommand {

    /** {@code jwarp rss hash SRC_IP SRC_PORT DST_IP DST_PORT}. */
    @Command(name = "hash", mixinStandardHelpOptions = true, sortOptions = false,
            description = {"Print the Toeplitz hash of a TCP connection's 4-tuple as the receiver sees its packets "
                    + "(source: the peer; destination: this side), in hex, with Microsoft's default RSS key unless "
                    + "--key gives another.",
                    "With --table: also the indirection-table entry the hash selects and the engine thread it names "
                            + "(a table spread round robin over --engines threads, as a device starts)."})
    static final class Hash implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Parameters(index = "0", paramLabel = "SRC_IP")
        String sourceIp;

        @Parameters(index = "1", paramLabel = "SRC_PORT")
        int sourcePort;

        @Parameters(index = "2", paramLabel = "DST_IP")
        String destinationIp;

        @Parameters(index = "3", paramLabel = "DST_PORT")
        int destinationPort;

        @Option(names = "--key", paramLabel = "HEX", description = "The secret key, 40 bytes or more, as hex digits "
                + "(default: the specification's 6d5a56da…01fa).")
        String key;

        @Option(names = "--no-ports", description = "Hash the two addresses only (RSS's IPv4/IPv6 hash without TCP).")
        boolean noPorts;

        @Option(names = "--table", paramLabel = "SIZE", arity = "0..1", fallbackValue = "" + IndirectionTable.DEFAULT_SIZE,
                description = "Also print the entry and engine thread of an indirection table of SIZE entries (a "
                        + "power of two; default " + IndirectionTable.DEFAULT_SIZE + ").")
        Integer table;

        @Option(names = "--engines", paramLabel = "N", defaultValue = "1",
                description = "With --table: the engine threads the table is spread over (default 1).")
        int engines;

        @Override
        public Integer call() {
            Toeplitz toeplitz = new Toeplitz(parseKey());
            InetSocketAddress src = endpoint(sourceIp, sourcePort, "SRC");
            InetSocketAddress dst = endpoint(destinationIp, destinationPort, "DST");
            if (src.getAddress().getAddress().length != dst.getAddress().getAddress().length) {
                throw new ParameterException(spec.commandLine(), "SRC_IP and DST_IP must both be IPv4 or both IPv6: "
                        + sourceIp + ", " + destinationIp);
            }
            int hash = toeplitz.hash(src, dst, !noPorts);
            PrintWriter out = spec.commandLine().getOut();
            if (table == null) {
                out.printf("0x%08x%n", hash);
            } else {
                IndirectionTable t = tableOrFail();
                out.printf("0x%08x entry %d of %d, engine thread %d of %d%n", hash, t.entry(hash), t.size(),
                        t.engineFor(hash), t.engines());
            }
            out.flush();
            return 0;
        }

        private byte[] parseKey() {
            if (key == null) {
                return Toeplitz.DEFAULT_KEY;
            }
            try {
                byte[] k = HexFormat.of().parseHex(key.replace(":", "").replace(" ", ""));
                if (k.length < Toeplitz.DEFAULT_KEY.length) {
                    throw new ParameterException(spec.commandLine(), "--key needs at least " + Toeplitz.DEFAULT_KEY.length
                            + " bytes (" + 2 * Toeplitz.DEFAULT_KEY.length + " hex digits), not " + k.length);
                }
                return k;
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), "--key takes hex digits, two per byte: " + key);
            }
        }

        private IndirectionTable tableOrFail() {
            try {
                return new IndirectionTable(table, engines);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), "--table/--engines: " + e.getMessage());
            }
        }

        private InetSocketAddress endpoint(String ip, int port, String which) {
            if (port < 0 || port > 65535) {
                throw new ParameterException(spec.commandLine(), which + "_PORT must be 0 to 65535, not " + port);
            }
            // IPv4 in four parts: the resolver would take "1.2.3" as 1.2.0.3 (inet_aton's shorthand)
            if (!ip.matches("(\\d{1,3}\\.){3}\\d{1,3}|[0-9a-fA-F:.]*:[0-9a-fA-F:.]*")) {
                throw new ParameterException(spec.commandLine(), which + "_IP must be an IPv4 or IPv6 address, not " + ip);
            }
            try {
                return new InetSocketAddress(InetAddress.getByName(ip), port);
            } catch (UnknownHostException e) {
                throw new ParameterException(spec.commandLine(), which + "_IP must be an IPv4 or IPv6 address, not " + ip);
            }
        }
    }
}
