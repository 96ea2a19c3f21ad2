package org.jwarp.engine.counters;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;

import org.jwarp.verbs.Counters;

/**
 * The in-process registry of a device's counter groups, by scope name (see {@link CounterScopes}):
 * the engine registers each engine thread's {@link EngineCounters#view()} when it starts and each
 * queue pair's counters when the QP is created, and unregisters them when they go away; readers
 * ({@code jwarp stat}) list and read them at any time.
 *
 * <p>Registration is a setup-path operation (it allocates); reading a registered {@link Counters}
 * is as cheap as the counters themselves. Thread-safe. Scopes are listed in a stable order:
 * {@code device} first, then by kind and by number ({@code engine-2} before {@code engine-10}).
 */
public final class CounterRegistry {

    private final ConcurrentSkipListMap<String, Counters> groups = new ConcurrentSkipListMap<>(CounterRegistry::compare);

    /**
     * Adds a group under its {@link Counters#scope()}.
     *
     * @throws IllegalArgumentException if a group of that scope is already registered
     */
    public void register(Counters counters) {
        if (counters == null) {
            throw new IllegalArgumentException("counters must not be null");
        }
        Counters previous = groups.putIfAbsent(counters.scope(), counters);
        if (previous != null) {
            throw new IllegalArgumentException("counter scope '" + counters.scope() + "' is already registered");
        }
    }

    /**
     * Removes the group of {@code scope}.
     *
     * @return true if it was registered
     */
    public boolean unregister(String scope) {
        return groups.remove(scope) != null;
    }

    /** The group of {@code scope}, or {@code null}. */
    public Counters get(String scope) {
        return groups.get(scope);
    }

    /** The registered scopes in their stable order. */
    public List<String> scopes() {
        return new ArrayList<>(groups.keySet());
    }

    /** Every group's {@link Counters#snapshot()}, by scope in stable order (not atomic across groups). */
    public Map<String, Map<String, Long>> snapshot() {
        Map<String, Map<String, Long>> all = new LinkedHashMap<>();
        for (Map.Entry<String, Counters> e : groups.entrySet()) {
            all.put(e.getKey(), e.getValue().snapshot());
        }
        return all;
    }

    /** Number of registered groups. */
    public int size() {
        return groups.size();
    }

    /**
     * Orders scopes as {@code jwarp stat} lists them: {@link CounterScopes#DEVICE} first, then by
     * the part before the last {@code '-'}, then numerically by the number after it (numbered
     * scopes before any other suffix), then as strings.
     */
    static int compare(String a, String b) {
        boolean da = CounterScopes.DEVICE.equals(a);
        boolean db = CounterScopes.DEVICE.equals(b);
        if (da || db) {
            return da == db ? 0 : da ? -1 : 1;
        }
        int ia = a.lastIndexOf('-');
        int ib = b.lastIndexOf('-');
        String ka = ia < 0 ? a : a.substring(0, ia);
        String kb = ib < 0 ? b : b.substring(0, ib);
        int c = ka.compareTo(kb);
        if (c != 0) {
            return c;
        }
        long na = number(a, ia);
        long nb = number(b, ib);
        if ((na >= 0) != (nb >= 0)) {
            return na >= 0 ? -1 : 1;                   // numbered scopes before other names of the kind
        }
        if (na != nb) {
            return Long.compare(na, nb);
        }
        return a.compareTo(b);
    }

    private static long number(String s, int dash) {
        if (dash < 0 || dash == s.length() - 1 || s.length() - dash > 19) {
            return -1;
        }
        long n = 0;
        for (int i = dash + 1; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (ch < '0' || ch > '9') {
                return -1;
            }
            n = n * 10 + (ch - '0');
        }
        return n;
    }
}
