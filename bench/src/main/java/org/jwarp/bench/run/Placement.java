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

    public boolean isEmpty() {
        return clientApp < 0 && serverApp < 0 && clientEngine.isEmpty() && serverEngine.isEmpty();
    }
}
