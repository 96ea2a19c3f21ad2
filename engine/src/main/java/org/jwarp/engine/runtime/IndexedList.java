package org.jwarp.engine.runtime;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.ObjIntConsumer;
import java.util.function.ToIntFunction;

/**
 * A list whose members know their place in it, so that removing any one is O(1) (the last member
 * moves into its place; the order is not kept). An engine thread's connections and a device's QPs
 * are such lists: with 100,000 of them, a removal that searched the list would cost each close
 * a scan of all the others. Not thread-safe: its owner confines or locks it.
 *
 * @param <T> the members
 */
public final class IndexedList<T> {

    private final ArrayList<T> items = new ArrayList<>();
    private final List<T> view = Collections.unmodifiableList(items);
    private final ToIntFunction<T> slotOf;
    private final ObjIntConsumer<T> setSlot;

    /** @param slotOf where a member keeps its index (-1: in no list); {@code setSlot} writes it */
    public IndexedList(ToIntFunction<T> slotOf, ObjIntConsumer<T> setSlot) {
        this.slotOf = slotOf;
        this.setSlot = setSlot;
    }

    public void add(T member) {
        setSlot.accept(member, items.size());
        items.add(member);
    }

    /** Removes {@code member} if it is here; whether it was. */
    public boolean remove(T member) {
        int i = slotOf.applyAsInt(member);
        if (i < 0 || i >= items.size() || items.get(i) != member) {
            return false;
        }
        T last = items.removeLast();
        if (last != member) {
            items.set(i, last);
            setSlot.accept(last, i);
        }
        setSlot.accept(member, -1);
        return true;
    }

    T get(int i) {
        return items.get(i);
    }

    public int size() {
        return items.size();
    }

    boolean isEmpty() {
        return items.isEmpty();
    }

    void clear() {
        for (T t : items) {
            setSlot.accept(t, -1);
        }
        items.clear();
    }

    /** The members, read-only and live (for loops that index it, and for copies). */
    public List<T> view() {
        return view;
    }
}
