package org.jwarp.cli;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.concurrent.Callable;
import org.jwarp.cli.rping.Rping;
import org.jwarp.cli.rping.RpingOptions;
import org.jwarp.cli.rping.RpingPattern;
import org.jwarp.verbs.DeviceConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code jwarp rping}: rdma-core's rping, on jwarp; interoperates with rping on siw or an RNIC. */
@Command(name = "rping", sortOptions = false,
        description = {"RDMA ping-pong with the protocol of rdma-core's rping: the client advertises a buffer with a Send, "
                + "the server RDMA READs it and RDMA WRITEs it back, and the client compares the two.",
                "Examples: jwarp rping -s -a 0.0.0.0 -v      jwarp rping -c -a 10.0.0.2 -C 10 -S 4096 -V"})
final class RpingCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    // rping's -V is "validate", so the help options are spelled out instead of picocli's standard
    // mixin (whose -V is --version)
    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    boolean help;

    @Option(names = "-s", description = "Server side.")
    boolean server;

    @Option(names = "-c", description = "Client side.")
    boolean client;

    @Option(names = "-a", paramLabel = "ADDR", description = "Address: the server's to connect to (client), to listen on (server; default 0.0.0.0).")
    String address;

    @Option(names = "-p", paramLabel = "PORT", defaultValue = "7174", description = "Port (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "-C", paramLabel = "COUNT", defaultValue = "0", description = "Pings (client; default: until interrupted).")
    int count;

    @Option(names = "-S", paramLabel = "SIZE", defaultValue = "" + RpingPattern.DEFAULT_SIZE,
            description = "Ping data size in bytes, " + RpingPattern.MIN_SIZE + ".." + RpingPattern.MAX_SIZE
                    + " (default: ${DEFAULT-VALUE}); a server needs at least its clients' size.")
    int size;

    @Option(names = "-v", description = "Print the ping data (as rping does).")
    boolean verbose;

    @Option(names = "-V", description = "Validate the ping data (client: the echo; server: rping's pattern).")
    boolean validate;

    @Option(names = "-P", description = "Persistent server: keep accepting connections.")
    boolean persistent;

    @Option(names = "-d", description = "Debug output, and each connection's ping rate.")
    boolean debug;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "30",
            description = "Longest wait for any one step: connecting (the MPA Reply at most 10 s, as siw),"
                    + " a completion (default: ${DEFAULT-VALUE}). A server waits for its client without limit.")
    int timeoutSeconds;

    @Mixin
    DeviceOptions device;

    @Override
    public Integer call() throws Exception {
        if (server == client) {
            throw new ParameterException(spec.commandLine(), "give exactly one of -s (server) and -c (client)");
        }
        if (client && address == null) {
            throw new ParameterException(spec.commandLine(), "the client needs the server's address: -a ADDR");
        }
        if (client && persistent) {
            throw new ParameterException(spec.commandLine(), "-P is for the server (-s)");
        }
        if (port < 1 || port > 65535) {
            throw new ParameterException(spec.commandLine(), "-p must be a port in 1..65535, not " + port);
        }
        if (count < 0) {
            throw new ParameterException(spec.commandLine(), "Invalid count " + count + " (-C must be >= 0)");
        }
        if (size < RpingPattern.MIN_SIZE || size > RpingPattern.MAX_SIZE) {
            throw new ParameterException(spec.commandLine(), "Invalid size " + size + " (valid range is "
                    + RpingPattern.MIN_SIZE + " to " + RpingPattern.MAX_SIZE + ")");
        }
        if (timeoutSeconds < 1) {
            throw new ParameterException(spec.commandLine(), "--timeout must be at least 1 second");
        }
        InetAddress addr;
        try {
            addr = InetAddress.getByName(address == null ? "0.0.0.0" : address);
        } catch (UnknownHostException e) {
            throw new ParameterException(spec.commandLine(), "-a: cannot resolve '" + address + "'");
        }
        DeviceConfig config = device.toConfig(spec);
        RpingOptions o = new RpingOptions(server, new InetSocketAddress(addr, port), count, size, verbose, validate,
                persistent, debug, Duration.ofSeconds(timeoutSeconds));
        Rping.run(config, o, spec.commandLine().getOut());
        return 0;
    }
}
