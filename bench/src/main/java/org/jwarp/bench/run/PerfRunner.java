package org.jwarp.bench.run;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.jwarp.bench.perf.PendingServer;
import org.jwarp.bench.perf.PerfDriver;
import org.jwarp.bench.perf.PerfException;
import org.jwarp.bench.perf.ResultRow;
import org.jwarp.bench.perf.Session;
import org.jwarp.bench.perf.Settings;
import org.jwarp.bench.perf.SideReport;
import org.jwarp.bench.perf.TestKind;
import org.jwarp.bench.perf.TransportKind;
import org.jwarp.bench.transport.jwarp.JwarpOptions;
import org.jwarp.engine.affinity.AffinityException;
import org.jwarp.engine.affinity.ThreadAffinity;
import org.jwarp.engine.provider.JwarpConfig;

/**
 * Runs a test in one of perftest's three ways: as a server (no host), as a client (a host), or
 * both ends here ({@code --loopback}).
 *
 * <p><b>Loopback is two devices in one process.</b> The client and the server each run on a
 * thread of their own ({@code jwarp-perf-client}, {@code jwarp-perf-server}), each with its own
 * device (and, in dedicated mode, its own engine threads), talking over a real kernel TCP
 * connection on 127.0.0.1 exactly as two processes would (the same connection setup, control
 * messages and data path). One process gives one command one result, lets each side's CPU be
 * read per thread from one place, and lets {@code --pin} place every thread; two processes
 * would add only a second JVM's noise (JIT, GC) to a 2-core machine.
 */
public final class PerfRunner {

    /** How long a loopback server waits for its client, and the threads for each other at the end. */
    private static final Duration LOOPBACK_WAIT = Duration.ofSeconds(60);

    /** What a run tells its caller as it goes. */
    public interface Listener extends PerfDriver.Listener {
        /** Connected: the settings in force and the session's description lines. */
        void connected(Settings settings, List<String> description);
    }

    /** The outcome: rows and where the threads ran. */
    public record Outcome(Settings settings, List<ResultRow> rows, List<String> threads) {
    }

    private PerfRunner() {
    }

    /** Client and server in this process over 127.0.0.1 ({@code port} 0: any free port). */
    public static Outcome loopback(Settings settings, JwarpOptions options, int port, Placement placement,
                                   Listener listener) {
        JwarpOptions serverOptions = engineCpus(options, placement.serverEngine(), placement.serverApp());
        JwarpOptions clientOptions = engineCpus(options, placement.clientEngine(), placement.clientApp());
        InetSocketAddress bind = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
        PendingServer pending = Endpoints.listen(settings.transport(), serverOptions, settings.test(), bind);
        AtomicReference<RuntimeException> serverError = new AtomicReference<>();
        AtomicReference<RuntimeException> first = new AtomicReference<>();
        AtomicReference<Session> serverSession = new AtomicReference<>();
        List<ResultRow> serverRows = new ArrayList<>();
        Thread server = Thread.ofPlatform().name("jwarp-perf-server").start(() -> {
            try {
                pin(placement.serverApp());
                Session s = pending.accept(LOOPBACK_WAIT);
                serverSession.set(s);
                try {
                    serverRows.addAll(PerfDriver.runServer(s, row -> { }));
                } finally {
                    s.close();
                }
            } catch (RuntimeException e) {
                serverError.set(e);
                first.compareAndSet(null, e);
            }
        });
        AtomicReference<RuntimeException> clientError = new AtomicReference<>();
        List<ResultRow> rows = new ArrayList<>();
        InetSocketAddress target = pending.localAddress();
        Thread client = Thread.ofPlatform().name("jwarp-perf-client").start(() -> {
            Session s = null;
            try {
                pin(placement.clientApp());
                s = Endpoints.connect(clientOptions, settings, target);
                List<String> description = new ArrayList<>(s.describe());
                description.add(0, "Mode            : loopback: " + (settings.transport() == TransportKind.JWARP
                        ? "two devices" : "both ends") + " in one process, client and server threads, over 127.0.0.1");
                listener.connected(settings, description);
                rows.addAll(PerfDriver.runClient(s, listener));
            } catch (RuntimeException e) {
                clientError.set(e);
                first.compareAndSet(null, e);
                pending.close();
            } finally {
                if (s != null) {
                    s.close();
                }
            }
        });
        join(client);
        if (clientError.get() != null) {
            server.interrupt();
        }
        join(server);
        RuntimeException failure = pick(first.get(), clientError.get(), serverError.get());
        if (failure != null) {
            throw failure;
        }
        List<String> threads = new ArrayList<>();
        SideReport c = rows.isEmpty() ? null : rows.getLast().client();
        SideReport sv = rows.isEmpty() ? null : rows.getLast().server();
        threads.add(appThread("client", "jwarp-perf-client", placement.clientApp(), c));
        threads.add(appThread("server", "jwarp-perf-server", placement.serverApp(), sv));
        if (settings.transport() == TransportKind.JWARP) {
            engineThreads(threads, "client", clientOptions);
            engineThreads(threads, "server", serverOptions);
        }
        return new Outcome(settings, rows, threads);
    }

    /** Client mode: connects to {@code server}. */
    public static Outcome client(Settings settings, JwarpOptions options, InetSocketAddress server,
                                 Placement placement, Listener listener) {
        JwarpOptions o = engineCpus(options, placement.clientEngine(), placement.clientApp());
        pin(placement.clientApp());
        try (Session s = Endpoints.connect(o, settings, server)) {
            List<String> description = new ArrayList<>(s.describe());
            description.add(0, "Mode            : client");
            listener.connected(settings, description);
            List<ResultRow> rows = PerfDriver.runClient(s, listener);
            List<String> threads = new ArrayList<>();
            threads.add(appThread("client", Thread.currentThread().getName(), placement.clientApp(),
                    rows.isEmpty() ? null : rows.getLast().client()));
            if (settings.transport() == TransportKind.JWARP) {
                engineThreads(threads, "client", o);
            }
            return new Outcome(settings, rows, threads);
        }
    }

    /** Server mode: listens on {@code bind}, serves one client run, returns. */
    public static Outcome server(TestKind test, TransportKind transport, JwarpOptions options,
                                 InetSocketAddress bind, Placement placement, Listener listener,
                                 java.util.function.Consumer<InetSocketAddress> listening) {
        JwarpOptions o = engineCpus(options, placement.clientEngine(), placement.clientApp());
        pin(placement.clientApp());
        PendingServer pending = Endpoints.listen(transport, o, test, bind);
        listening.accept(pending.localAddress());
        try (Session s = pending.accept(Duration.ofDays(365))) {
            List<String> description = new ArrayList<>(s.describe());
            description.add(0, "Mode            : server (the workload options are the client's)");
            listener.connected(s.settings(), description);
            List<ResultRow> rows = PerfDriver.runServer(s, listener);
            List<String> threads = new ArrayList<>();
            threads.add(appThread("server", Thread.currentThread().getName(), placement.clientApp(),
                    rows.isEmpty() ? null : rows.getLast().server()));
            if (transport == TransportKind.JWARP) {
                engineThreads(threads, "server", o);
            }
            return new Outcome(s.settings(), rows, threads);
        }
    }

    private static String appThread(String side, String name, int cpu, SideReport r) {
        String where = cpu >= 0 ? "CPU " + cpu + " (pinned)"
                : "not pinned" + (r != null && r.appCpu() >= 0 ? " (on CPU " + r.appCpu() + " at the end)" : "");
        return side + " application thread " + name + ": " + where;
    }

    /**
     * Where a side's engine threads go: the placement's CPUs; in hybrid mode, with the side's
     * application thread pinned, its standby engine thread joins it there, since it runs the
     * engine only while that thread does not.
     */
    private static JwarpOptions engineCpus(JwarpOptions options, List<Integer> engines, int app) {
        if (engines.isEmpty() && app >= 0 && options.engine()
                && options.threading() == JwarpConfig.ThreadingMode.HYBRID) {
            return options.withEngineCpus(List.of(app));
        }
        return options.withEngineCpus(engines);
    }

    private static void engineThreads(List<String> out, String side, JwarpOptions o) {
        if (!o.engine()) {
            out.add(side + " engine: none (provider " + o.device().providerName() + ": the kernel's RDMA stack)");
            return;
        }
        if (o.threading() == JwarpConfig.ThreadingMode.INVOKER) {
            out.add(side + " engine: none (invoker mode: the application thread runs it)");
            return;
        }
        if (o.threading() == JwarpConfig.ThreadingMode.HYBRID) {
            out.add(side + " engine: the application thread while it polls; standby thread jwarp-engine-standby"
                    + (o.engineCpus().isEmpty() ? " (not pinned)" : " (pinned beside it, CPU " + o.engineCpus().getFirst() + ")")
                    + " otherwise");
            return;
        }
        for (int i = 0; i < o.engineThreads(); i++) {
            out.add(side + " engine thread jwarp-engine-" + i + ": " + (o.engineCpus().size() > i
                    ? "CPU " + o.engineCpus().get(i) + " (pinned)"
                    : o.jwarp().numa() ? "pinned by NUMA placement (--numa)" : "not pinned"));
        }
    }

    /** Pins the calling thread, or fails with one line. */
    static void pin(int cpu) {
        if (cpu < 0) {
            return;
        }
        try {
            if (!ThreadAffinity.pinCurrentThread(cpu)) {
                throw new PerfException("cannot pin threads here: " + ThreadAffinity.unsupportedReason());
            }
        } catch (AffinityException | IllegalArgumentException e) {
            throw new PerfException("cannot pin a thread to CPU " + cpu + ": " + e.getMessage());
        }
    }

    private static void join(Thread t) {
        try {
            t.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PerfException("interrupted");
        }
    }

    /**
     * The root cause: a side's own failure rather than the other side's report of it, and the
     * first failure rather than what it caused on the other side (a lost connection).
     */
    private static RuntimeException pick(RuntimeException first, RuntimeException client, RuntimeException server) {
        if (first != null && !(first instanceof PerfDriver.PeerFailedException)) {
            return first;
        }
        if (client != null && !(client instanceof PerfDriver.PeerFailedException)) {
            return client;
        }
        if (server != null && !(server instanceof PerfDriver.PeerFailedException)) {
            return server;
        }
        return client != null ? client : server;
    }
}
