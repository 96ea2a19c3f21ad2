package org.jwarp.bench.run;

import java.util.ArrayList;
import java.util.List;

/**
 * Where a run's threads go ({@code --pin}): CPUs are handed out in the order client application
 * thread, server application thread ({@code --loopback} only), then the client device's engine
 * threads, then the server device's; the list wraps around. In client or server mode the list
 * starts with this side's application thread, then its engine threads. Empty: nothing pinned.
 *
 * @param clientApp    CPU of the client's application thread, or -1
 * @param serverApp    CPU of the server's application thread, or -1
 * @param clientEngine CPUs of the client device's engine threads (empty: not pinned)
 * @param serverEngine CPUs of the server device's engine threads (empty: not pinned)
 */
public record Placement(int clientApp, int serverApp, List<Integer> clientEngine, List<Integer> serverEngine) {

    public static final Placement NONE = new Placement(-1, -1, List.of(), List.of());

    public Placement {
        clientEngine = List.copyOf(clientEngine);
        serverEngine = List.copyOf(serverEngine);
    }

    /** The placement for {@code loopback} (two sides) or one side, each with {@code engineThreads}. */
    public static Placement of(List<Integer> cpus, boolean loopback, int engineThreads) {
        if (cpus.isEmpty()) {
            return NONE;
        }
        int[] next = {0};
        java.util.function.IntSupplier take = () -> cpus.get(next[0]++ % cpus.size());
        int clientApp = take.getAsInt();
        int serverApp = loopback ? take.getAsInt() : -1;
        List<Integer> ce = new ArrayList<>();
        for (int i = 0; i < engineThreads; i++) {
            ce.add(take.getAsInt());
        }
        List<Integer> se = new ArrayList<>();
        if (loopback) {
            for (int i = 0; i < engineThreads; i++) {
                se.add(take.getAsInt());
            }
        }
        return new Placement(clientApp, serverApp, ce, se);
    }

    /**
     * The TOAD arrangement (seed 001; {@code --threading toad}): every engine thread on a CPU of its
     * own and every application thread on another, as the paper's host and offload engine ran on
     * separate processors. {@code cpus} are the CPUs this process may use (at least two), in order.
     * With both ends here ({@code loopback}) the application threads take the first CPUs and the
     * engine threads the next ones, wrapping: on two CPUs each CPU carries one side's application
     * and the other side's engine. One side alone takes opposite ends of the list by role, so that
     * a client and a server process on the same machine cross the same way: the client's
     * application on the first CPU and its engine on the last, the server's the other way round
     * (with four or more CPUs: client 0 and 1, server n-2 and n-1).
     *
     * @throws IllegalArgumentException with fewer than two CPUs
     */
    public static Placement toad(List<Integer> cpus, boolean loopback, boolean server, int engineThreads) {
        int n = cpus.size();
        if (n < 2) {
            throw new IllegalArgumentException("the TOAD arrangement needs two CPUs (an application CPU and an"
                    + " engine CPU); this process may use " + n);
        }
        if (!loopback) {
            int app = n >= 4 ? (server ? cpus.get(n - 2) : cpus.get(0)) : server ? cpus.get(n - 1) : cpus.get(0);
            int engine = n >= 4 ? (server ? cpus.get(n - 1) : cpus.get(1)) : server ? cpus.get(0) : cpus.get(n - 1);
            return new Placement(app, -1, java.util.Collections.nCopies(engineThreads, engine), List.of());
        }
        List<Integer> clientEngines = new ArrayList<>();
        List<Integer> serverEngines = new ArrayList<>();
        for (int i = 0; i < engineThreads; i++) {
            // on two CPUs the client's engine shares the server's application CPU, and the other way round
            clientEngines.add(n > 2 ? cpus.get(2 + (2 * i) % (n - 2)) : cpus.get(1));
            serverEngines.add(n > 2 ? cpus.get(2 + (2 * i + 1) % (n - 2)) : cpus.get(0));
        }
        return new Placement(cpus.get(0), cpus.get(1), clientEngines, serverEngines);
    }

    public boolean isEmpty() {
        return clientApp < 0 && serverApp < 0 && clientEngine.isEmpty() && serverEngine.isEmpty();
    }
}
