package org.jwarp.engine.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

/** The I/O vector's bookkeeping: merging, partial transfers, capacity. */
class IoVectorTest {

    @Test
    void piecesThatContinueOneAnotherMerge() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment a = arena.allocate(100);
            MemorySegment b = arena.allocate(100);
            IoVector v = new IoVector(4);
            v.add(a, 0, 10);
            v.add(a, 10, 5);     // continues: merged
            v.add(b, 15, 5);     // same offsets, other segment: a piece of its own
            v.add(a, 40, 5);     // same segment, not adjacent
            v.add(a, 45, 0);     // empty: ignored
            assertEquals(3, v.pieces());
            assertEquals(15, v.length(0));
            assertSame(b, v.segment(1));
            assertEquals(25, v.remaining());
        }
    }

    @Test
    void aPartialTransferResumesInsideAPiece() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment a = arena.allocate(100);
            MemorySegment b = arena.allocate(100);
            IoVector v = new IoVector(4);
            v.add(a, 0, 10);
            v.add(b, 20, 30);
            v.advance(15);
            assertEquals(1, v.start());
            assertEquals(1, v.pieces());
            assertEquals(25, v.offset(1));
            assertEquals(25, v.length(1));
            assertNull(v.segment(0), "a piece that went through releases its memory");
            v.advance(25);
            assertTrue(v.isEmpty());
            assertEquals(0, v.end(), "an emptied vector starts again at the front");
        }
    }

    @Test
    void aFullVectorRefusesANewPiece() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment a = arena.allocate(100);
            IoVector v = new IoVector(2);
            v.add(a, 0, 1);
            v.add(a, 2, 1);
            assertTrue(!v.hasRoom(1));
            v.add(a, 3, 1);      // merges: still fits
            assertEquals(2, v.length(1));
            assertThrows(IllegalStateException.class, () -> v.add(a, 50, 1));
            v.clear();
            assertTrue(v.isEmpty() && v.hasRoom(2));
        }
    }

    @Test
    void aVectorGrowsToItsCapacityKeepingEveryPiece() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment a = arena.allocate(1000);
            int capacity = IoVector.FIRST_PIECES * 4 + 1;
            IoVector v = new IoVector(capacity);
            for (int i = 0; i < capacity; i++) {
                assertTrue(v.hasRoom(1));
                v.add(a, i * 10L, 3);            // gaps between: a piece each
            }
            assertEquals(capacity, v.pieces());
            for (int i = 0; i < capacity; i++) {
                assertEquals(i * 10L, v.offset(i));
                assertEquals(3, v.length(i));
                assertSame(a, v.segment(i));
            }
            assertTrue(!v.hasRoom(1));
            assertThrows(IllegalStateException.class, () -> v.add(a, 999, 1));
        }
    }
}
