package org.jwarp.verbs;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * A fixed group of single-writer counters that providers reuse for their engine threads and queue
 * pairs: one owner thread updates them with {@link #increment(int)} / {@link #add(int, long)}
 * (a plain read of its own last value, then a release store: no atomic read-modify-write, no lock,
 * no allocation), and any thread reads them through {@link Counters} (acquire loads).
 *
 * <p>Only the owner may call {@link #increment} and {@link #add}; two writers would lose updates.
 * A counter that several threads must update uses {@link #addAtomic(int, long)} instead (an atomic
 * add, slower). The values are packed in one {@code long[]} without padding: a group belongs to
 * one writer, so no two writers share a cache line, and readers are rare (monitoring).
 */
public final class CounterSet implements Counters {

    private static final VarHandle VALUES = MethodHandles.arrayElementVarHandle(long[].class);

    private final String scope;
    private final List<String> names;
    private final Map<String, Integer> index;
    private final long[] values;

    /**
     * A group with the given counter names, all 0.
     *
     * @throws IllegalArgumentException if a name is blank or repeated
     * @param scope what the group counts, e.g. {@code engine-0}
     * @param names the counter names, in order
     */
    public CounterSet(String scope, List<String> names) {
        if (scope == null || scope.isBlank()) {
            throw new IllegalArgumentException("counter scope must not be blank");
        }
        // every QP of a provider has a group of the same names: the index is built once for them
        Layout l = lastLayout;
        if (l == null || l.names() != names) {
            l = Layout.of(names);
            lastLayout = l;
        }
        this.scope = scope;
        this.names = l.names();
        this.index = l.index();
        this.values = new long[l.names().size()];
    }

    /** The names of a group and their index, checked; immutable, so groups of the same names share it. */
    private record Layout(List<String> names, Map<String, Integer> index) {

        static Layout of(List<String> names) {
            if (new LinkedHashSet<>(names).size() != names.size()) {
                throw new IllegalArgumentException("counter names repeat: " + names);
            }
            Map<String, Integer> idx = new HashMap<>();
            for (int i = 0; i < names.size(); i++) {
                String n = names.get(i);
                if (n == null || n.isBlank()) {
                    throw new IllegalArgumentException("counter name at " + i + " is blank");
                }
                idx.put(n, i);
            }
            return new Layout(List.copyOf(names), Map.copyOf(idx));
        }
    }

    /**
     * The layout last built; a group whose names are that layout's own (immutable) list reuses it.
     * Threads may race to replace it: each sees a whole layout.
     */
    private static volatile Layout lastLayout;

    /**
     * A group holding {@link CounterNames#STANDARD}.
     *
     * @param scope what the group counts
     * @return the group
     */
    public static CounterSet standard(String scope) {
        return new CounterSet(scope, CounterNames.STANDARD);
    }

    /**
     * Owner only: adds 1 to the counter at {@code index}.
     *
     * @param index the counter's index
     */
    public void increment(int index) {
        add(index, 1);
    }

    /**
     * Owner only: adds {@code delta} to the counter at {@code index}.
     *
     * @param index the counter's index
     * @param delta the amount
     */
    public void add(int index, long delta) {
        VALUES.setRelease(values, index, values[index] + delta);
    }

    /**
     * Any thread: atomically adds {@code delta} (for the rare counter with several writers).
     *
     * @param index the counter's index
     * @param delta the amount
     */
    public void addAtomic(int index, long delta) {
        VALUES.getAndAddRelease(values, index, delta);
    }

    /**
     * Owner only, with no concurrent {@link #addAtomic}: sets every counter to 0 (a queue pair that
     * is reset restarts its counts).
     */
    public void clear() {
        for (int i = 0; i < values.length; i++) {
            VALUES.setRelease(values, i, 0L);
        }
    }

    @Override
    public String scope() {
        return scope;
    }

    @Override
    public List<String> names() {
        return names;
    }

    @Override
    public int indexOf(String name) {
        Integer i = index.get(name);
        return i == null ? -1 : i;
    }

    /**
     * Index of {@code name}, for an owner that resolves its counters once at setup.
     *
     * @throws IllegalArgumentException if there is no such counter
     * @param name a counter name
     * @return its index
     */
    public int require(String name) {
        int i = indexOf(name);
        if (i < 0) {
            throw new IllegalArgumentException("no counter '" + name + "' in " + scope + "; names: " + names);
        }
        return i;
    }

    @Override
    public long get(int index) {
        return (long) VALUES.getAcquire(values, index);
    }

    @Override
    public String toString() {
        long[] copy = new long[values.length];
        for (int i = 0; i < copy.length; i++) {
            copy[i] = get(i);
        }
        return scope + names + Arrays.toString(copy);
    }
}
