package org.jwarp.wire.fpdu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

/**
 * The decoder's whole-FPDU path (an FPDU that lies whole in the window, decoded in one step) must
 * be invisible: for any stream, any split into windows and any corruption, it yields exactly the
 * frames and the error the general path yields.
 */
class WholeFpduPathTest {

    @Test
    void validStreamsDecodeTheSameOnBothPaths() {
        for (int i = 0; i < FpduPropertiesTest.CASES; i++) {
            long seed = Seeds.caseSeed("whole-valid", i);
            RandomGenerator r = Seeds.random(seed);
            boolean crc = r.nextBoolean();
            boolean markers = r.nextInt(4) == 0;
            FrameStream s = FpduPropertiesTest.randomStream(r, crc, markers, 0, r.nextInt(1, 12));
            byte[] wire = s.bytes();
            long splitSeed = r.nextLong();
            int maxWindow = r.nextBoolean() ? wire.length : r.nextInt(1, wire.length + 1);
            StreamDecoding.Outcome whole = decode(wire, crc, markers, splitSeed, maxWindow, true);
            StreamDecoding.Outcome general = decode(wire, crc, markers, splitSeed, maxWindow, false);
            String msg = "seed " + seed;
            assertNull(whole.error(), msg);
            assertTrue(whole.atBoundary(), msg);
            assertEquals(s.frames(), whole.frames(), msg);
            assertEquals(general, whole, msg);
        }
    }

    @Test
    void corruptedStreamsFailTheSameOnBothPaths() {
        for (int i = 0; i < FpduPropertiesTest.CASES; i++) {
            long seed = Seeds.caseSeed("whole-corrupt", i);
            RandomGenerator r = Seeds.random(seed);
            boolean crc = r.nextInt(4) != 0;
            FrameStream s = FpduPropertiesTest.randomStream(r, crc, false, 0, r.nextInt(1, 8));
            byte[] wire = s.bytes();
            for (int flips = r.nextInt(1, 3); flips > 0; flips--) {
                wire[r.nextInt(wire.length)] ^= (byte) (1 << r.nextInt(8));
            }
            long splitSeed = r.nextLong();
            int maxWindow = r.nextBoolean() ? wire.length : r.nextInt(1, wire.length + 1);
            assertEquals(decode(wire, crc, false, splitSeed, maxWindow, false),
                    decode(wire, crc, false, splitSeed, maxWindow, true), "seed " + seed);
        }
    }

    /** Decodes with windows drawn from {@code splitSeed}, so that both paths see the same split. */
    private static StreamDecoding.Outcome decode(byte[] wire, boolean crc, boolean markers, long splitSeed,
                                                 int maxWindow, boolean wholeFpduPath) {
        RandomGenerator split = Seeds.random(splitSeed);
        return StreamDecoding.decode(wire, crc, markers, 0, fed -> split.nextInt(1, maxWindow + 1), wholeFpduPath);
    }
}
