package org.jwarp.verbs;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntToLongFunction;

/**
 * A read-only view of a group of 64-bit counters with stable names ({@link CounterNames}): one
 * group per engine thread, per queue pair, and for the whole device.
 *
 * <p>Any thread may read at any time; each value is read with acquire semantics, so it is one the
 * owner has published, never a torn one. A {@link #snapshot()} is not atomic across counters.
 * Counters only increase, except that a queue pair's counters restart when it is reset.
 */
public interface Counters {

    /** {@return what this group counts, e.g. {@code device}, {@code engine-0}, {@code qp-17}} */
    String scope();

    /** {@return the counter names, in a stable order} */
    List<String> names();

    /**
     * Index of {@code name} for {@link #get(int)}, or -1 if this group has no such counter.
     *
     * @param name a counter name
     * @return its index, or -1
     */
    int indexOf(String name);

    /**
     * The value of the counter at {@code index} (from {@link #indexOf}); allocation-free.
     *
     * @param index the counter's index
     * @return its value
     */
    long get(int index);

    /**
     * The value of the counter {@code name}.
     *
     * @throws IllegalArgumentException if this group has no counter of that name
     * @param name a counter name
     * @return its value
     */
    default long get(String name) {
        int i = indexOf(name);
        if (i < 0) {
            throw new IllegalArgumentException("no counter '" + name + "' in " + scope() + "; names: " + names());
        }
        return get(i);
    }

    /** {@return name to value, in {@link #names()} order} */
    default Map<String, Long> snapshot() {
        List<String> names = names();
        Map<String, Long> map = new LinkedHashMap<>();
        for (int i = 0; i < names.size(); i++) {
            map.put(names.get(i), get(i));
        }
        return map;
    }

    /**
     * A live view summing the counters of the same name across {@code parts} (e.g. the device
     * total over its engine threads). Its names are those of the first part, in order; a part
     * lacking a name contributes 0.
     *
     * @throws IllegalArgumentException if {@code parts} is empty
     * @param scope the view's scope
     * @param parts the groups to sum
     * @return the view
     */
    static Counters sum(String scope, Collection<? extends Counters> parts) {
        if (parts.isEmpty()) {
            throw new IllegalArgumentException("Counters.sum needs at least one part");
        }
        List<Counters> list = List.copyOf(parts);
        List<String> names = list.getFirst().names();
        int[][] map = new int[list.size()][names.size()];
        for (int p = 0; p < list.size(); p++) {
            for (int n = 0; n < names.size(); n++) {
                map[p][n] = list.get(p).indexOf(names.get(n));
            }
        }
        return view(scope, names, index -> {
            long total = 0;
            for (int p = 0; p < map.length; p++) {
                int i = map[p][index];
                if (i >= 0) {
                    total += list.get(p).get(i);
                }
            }
            return total;
        });
    }

    /**
     * A live view of counters whose values {@code values} reads by index into {@code names} (it
     * throws IndexOutOfBoundsException for an index out of range).
     *
     * @param scope  the view's scope
     * @param names  the counter names
     * @param values reads the value of the counter at an index
     * @return the view
     */
    static Counters view(String scope, List<String> names, IntToLongFunction values) {
        return new Counters() {
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
                return names.indexOf(name);
            }

            @Override
            public long get(int index) {
                return values.applyAsLong(index);
            }

            @Override
            public String toString() {
                return scope + snapshot();
            }
        };
    }
}
