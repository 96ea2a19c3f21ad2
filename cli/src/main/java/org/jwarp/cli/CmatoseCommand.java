package org.jwarp.cli;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.Callable;
import org.jwarp.cli.librdmacm.Cmatose;
import org.jwarp.cli.librdmacm.LibrdmacmException;
import org.jwarp.verbs.RdmaDevice;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code jwarp cmatose}: librdmacm's cmatose (ucmatose) on jwarp, interoperating with it in either role. */
@Command(name = "cmatose", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"librdmacm's cmatose (ucmatose): N rdma_cm connections, C messages of S bytes each way on every one, "
                + "then the server disconnects them all. Without -s: the server.",
                "Examples: jwarp cmatose -c 4 -C 10      jwarp cmatose -s 10.0.0.2 -c 4 -C 10"})
final class CmatoseCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "-s", paramLabel = "SERVER", description = "Server address: run as the client.")
    String server;

    @Option(names = "-b", paramLabel = "ADDR", defaultValue = "0.0.0.0", description = "Server: the address to listen on "
            + "(default: ${DEFAULT-VALUE}).")
    String bind;

    @Option(names = "-p", paramLabel = "PORT", defaultValue = "7471", description = "Port (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "-c", paramLabel = "N", defaultValue = "1", description = "Connections (default: ${DEFAULT-VALUE}).")
    int connections;

    @Option(names = "-C", paramLabel = "COUNT", defaultValue = "10", description = "Messages each way per connection "
            + "(default: ${DEFAULT-VALUE}).")
    int count;

    @Option(names = "-S", paramLabel = "SIZE", defaultValue = "100", description = "Message size in bytes "
            + "(default: ${DEFAULT-VALUE}).")
    int size;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "30", description = "Longest wait for any one step "
            + "(the MPA Reply at most 10 s; default: ${DEFAULT-VALUE}). A server waits for its clients without limit.")
    int timeoutSeconds;

    @Mixin
    DeviceOptions device;

    @Override
    public Integer call() {
        Validate.port(spec, "-p", port, server == null);
        Validate.range(spec, "-c", connections, 1, 1024);
        Validate.range(spec, "-C", count, 0, 1 << 16);
        Validate.range(spec, "-S", size, 0, 1 << 24);
        Validate.range(spec, "--timeout", timeoutSeconds, 1, 3600);
        Cmatose.Options o = new Cmatose.Options(connections, count, size, Duration.ofSeconds(timeoutSeconds));
        try (RdmaDevice dev = RdmaDevice.open(device.toConfig(spec))) {
            Cmatose c = new Cmatose(dev, o, spec.commandLine().getOut());
            if (server != null) {
                c.client(Validate.address(spec, "-s", server, port));
            } else {
                c.server(Validate.address(spec, "-b", bind, port));
            }
            spec.commandLine().getOut().println("return status 0");
            return 0;
        } catch (LibrdmacmException e) {
            spec.commandLine().getErr().println("jwarp cmatose: " + e.getMessage());
            return 1;
        }
    }
}
