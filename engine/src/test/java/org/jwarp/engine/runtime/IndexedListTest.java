package org.jwarp.engine.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Removal from the middle, the end and twice keeps every other member, each at the index it knows. */
class IndexedListTest {

    /** A member: its index lives in it, as a Connection's and a JwarpQp's do. */
    static final class Member {
        final int id;
        int slot = -1;

        Member(int id) {
            this.id = id;
        }
    }


    @Test
    void removalsInAnyOrderKeepTheOthersAndTheirIndexes() {
        IndexedList<Member> list = new IndexedList<>(m -> m.slot, (m, i) -> m.slot = i);
        List<Member> all = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            Member m = new Member(i);
            all.add(m);
            list.add(m);
        }
        Random random = new Random(7);
        Set<Member> left = new HashSet<>(all);
        for (int k = 0; k < 700; k++) {
            Member m = all.get(random.nextInt(all.size()));
            assertEquals(left.remove(m), list.remove(m), "remove " + m.id + " reports whether it was there");
            assertEquals(-1, m.slot);
        }
        assertEquals(left.size(), list.size());
        for (int i = 0; i < list.size(); i++) {
            Member m = list.get(i);
            assertSame(m, list.view().get(m.slot));
            assertTrue(left.contains(m));
        }
        Member stranger = new Member(-1);
        assertFalse(list.remove(stranger));
        list.clear();
        assertTrue(list.isEmpty());
        for (Member m : left) {
            assertEquals(-1, m.slot);
        }
    }
}
