package org.jwarp.cli;

import java.time.Duration;
import java.util.concurrent.Callable;
import org.jwarp.cli.librdmacm.LibrdmacmException;
import org.jwarp.cli.librdmacm.RdmaExample;
import org.jwarp.verbs.RdmaDevice;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code jwarp rdma-server} and {@code jwarp rdma-client}: librdmacm's rdma_server and rdma_client on jwarp. */
final class RdmaExampleCommands {

    private RdmaExampleCommands() {
    }

    /** What both take. */
    abstract static class Base implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "-p", paramLabel = "PORT", defaultValue = "7471", description = "Port (default: ${DEFAULT-VALUE}).")
        int port;

        @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "30", description = "Longest wait for any one "
                + "step (the MPA Reply at most 10 s; default: ${DEFAULT-VALUE}). A server waits for its client without"
                + " limit.")
        int timeoutSeconds;

        @Mixin
        DeviceOptions device;

        @Override
        public Integer call() {
            Validate.port(spec, "-p", port, isServer());
            Validate.range(spec, "--timeout", timeoutSeconds, 1, 3600);
            try (RdmaDevice dev = RdmaDevice.open(device.toConfig(spec))) {
                run(dev, Duration.ofSeconds(timeoutSeconds));
                return 0;
            } catch (LibrdmacmException e) {
                spec.commandLine().getErr().println("jwarp " + spec.name() + ": " + e.getMessage());
                return 1;
            }
        }

        abstract void run(RdmaDevice dev, Duration timeout);

        abstract boolean isServer();
    }

    @Command(name = "rdma-server", mixinStandardHelpOptions = true, description = "librdmacm's rdma_server: accepts one "
            + "client, receives its 16-byte message and answers with one.")
    static final class Server extends Base {
        @Option(names = "-b", paramLabel = "ADDR", defaultValue = "0.0.0.0", description = "Address to listen on "
                + "(default: ${DEFAULT-VALUE}).")
        String bind;

        @Override
        boolean isServer() {
            return true;
        }

        @Override
        void run(RdmaDevice dev, Duration timeout) {
            RdmaExample.server(dev, Validate.address(spec, "-b", bind, port), timeout, spec.commandLine().getOut());
        }
    }

    @Command(name = "rdma-client", mixinStandardHelpOptions = true, description = "librdmacm's rdma_client: connects, "
            + "sends a 16-byte message and waits for the answer.")
    static final class Client extends Base {
        @Option(names = "-s", paramLabel = "SERVER", required = true, description = "Server address.")
        String server;

        @Override
        boolean isServer() {
            return false;
        }

        @Override
        void run(RdmaDevice dev, Duration timeout) {
            RdmaExample.client(dev, Validate.address(spec, "-s", server, port), timeout, spec.commandLine().getOut());
        }
    }
}
