package org.jwarp.cli;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import org.jwarp.bench.run.JvmProcess;

/**
 * A jwarp server in a process of its own ({@link JvmProcess}), started as a user would start it: a
 * {@code jwarp} command line. Its address is loopback and the port it announces.
 */
final class ServerProcess {

    private final JvmProcess process;
    private final InetSocketAddress address;

    private ServerProcess(JvmProcess process, InetSocketAddress address) {
        this.process = process;
        this.address = address;
    }

    /** Starts {@code jwarp ARGS...} and waits (up to 60 s) until it says where it listens. */
    static ServerProcess start(List<String> args) throws IOException, InterruptedException {
        JvmProcess p = JvmProcess.start(List.of(), JwarpCommand.class.getName(), args, args.getFirst()
                + " server process");
        return new ServerProcess(p, new InetSocketAddress(InetAddress.getLoopbackAddress(), p.port()));
    }

    InetSocketAddress address() {
        return address;
    }

    /** Waits (60 s) for it to end after its run; an exit other than 0 is an error with what it printed. */
    void awaitExit() throws InterruptedException, IOException {
        process.awaitOutput(60);
    }

    /** What it printed so far. */
    String output() {
        return process.output();
    }

    void destroy() {
        process.destroy();
    }
}
