package org.jwarp.degen.testbed;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The background degen process that {@code jwarp testbed up} starts: runs the router between the
 * hosts described in {@code STATE_DIR/config}, writes {@code STATE_DIR/ready} once it forwards,
 * and on exit (normal, SIGTERM or SIGINT) prints its final statistics and removes the hosts.
 * While it runs it takes the link down when asked ({@link Testbed#cut}: a file {@code STATE_DIR/cut}
 * holding the nanoseconds, which it reads and removes).
 */
public final class TestbedDaemon {

    private TestbedDaemon() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: TestbedDaemon STATE_DIR (started by 'jwarp testbed up')");
            System.exit(2);
        }
        Path dir = Path.of(args[0]);
        RouterConfig config = RouterConfig.load(dir.resolve("config"));
        Topology t = config.topology();
        RouterSession[] session = new RouterSession[1];
        Thread cleanup = new Thread(() -> shutdown(session[0], t, dir), "degen-shutdown");
        Runtime.getRuntime().addShutdownHook(cleanup);
        try {
            session[0] = RouterSession.start(config);
        } catch (IOException | RuntimeException e) {
            System.out.println("degen: setup failed: " + e.getMessage());
            e.printStackTrace(System.out);
            System.exit(1);
        }
        System.out.println("degen: forwarding between " + t.nsA() + " (" + t.addrA() + ") and " + t.nsB() + " (" + t.addrB() + ")");
        System.out.println("degen: A->B " + config.a2b().describe());
        System.out.println("degen: B->A " + config.b2a().describe());
        System.out.println("degen: " + config.tuning());
        System.out.flush();
        // The router thread reports its scheduling once it runs; waiting for that proves it forwards.
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!session[0].forwarding() && System.nanoTime() - deadline < 0) {
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000L);
        }
        System.out.println("degen: router thread: " + session[0].schedulingReport());
        System.out.flush();
        RouterSession running = session[0];
        Thread control = new Thread(() -> watchCuts(running, dir), "degen-control");
        control.setDaemon(true);
        control.start();
        Files.writeString(dir.resolve("ready"), Long.toString(ProcessHandle.current().pid()));
        Throwable failure = session[0].awaitRouterExit();
        if (failure != null) {
            System.out.println("degen: router stopped: " + failure);
            failure.printStackTrace(System.out);
            System.exit(1);
        }
    }

    /** Polls for cut requests: a few milliseconds of latency on a cut of a second or more is nothing. */
    private static void watchCuts(RouterSession session, Path dir) {
        Path request = dir.resolve(Testbed.CUT_FILE);
        while (true) {
            java.util.concurrent.locks.LockSupport.parkNanos(5_000_000L);
            try {
                if (!Files.exists(request)) {
                    continue;
                }
                long nanos = Long.parseLong(Files.readString(request).trim());
                session.cut(nanos);
                Files.delete(request);
                System.out.println("degen: link down for " + org.jwarp.degen.Units.formatNanos(nanos));
                System.out.flush();
            } catch (IOException | RuntimeException e) {
                System.out.println("degen: a cut request failed: " + e);
                try {
                    Files.deleteIfExists(request);
                } catch (IOException ignored) {
                    // the next poll reports it again
                }
            }
        }
    }

    private static void shutdown(RouterSession session, Topology t, Path dir) {
        try {
            if (session != null) {
                session.close();
                System.out.print(session.finalStats().render());
            }
        } catch (IOException | RuntimeException e) {
            System.out.println("degen: stopping the router failed: " + e);
        }
        try {
            HostNetwork.deleteNamespace(t.nsA());
            HostNetwork.deleteNamespace(t.nsB());
            Files.deleteIfExists(dir.resolve("ready"));
            System.out.println("degen: hosts " + t.nsA() + ", " + t.nsB() + " removed");
        } catch (IOException | RuntimeException e) {
            System.out.println("degen: removing the hosts failed: " + e.getMessage());
        }
        System.out.flush();
    }
}
