package org.jwarp.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.lang.foreign.MemorySegment;
import org.jwarp.verbs.CounterNames;
import org.jwarp.wire.Crc32c;
import org.jwarp.wire.Wire;
import org.jwarp.wire.fpdu.Seeds;
import org.jwarp.wire.rdmap.MpaError;
import org.junit.jupiter.api.Test;

/**
 * Terminates as Linux siw 6.1 sends them when it refuses our MPA Reply (here: a Send RTR it cannot
 * send): bit-field layout, and a CRC field of 0 although the connection negotiated CRC. The bytes
 * are those tcpdump captured from siw.
 */
class StreamSiwTerminateTest {

    /** siw's "no matching RTR" Terminate: layer/type nibbles swapped (0x02), CRC field 0. */
    private static final byte[] SIW_NO_MATCHING_RTR = Wire.unhex(
            "00164147" + "00000000" + "00000002" + "00000001" + "00000000" + "02070000" + "00000000");

    private static long counter(StreamPair.Side side, String name) {
        return side.counters.get(side.counters.require(name));
    }

    @Test
    void siwsSetupTerminateIsTakenAsTheTerminateItIs() {
        try (StreamPair p = new StreamPair(StreamPair.defaults(), StreamPair.defaults(), Seeds.random(21))) {
            p.b.stream.holdTransmitUntilFirstFpdu();
            p.b.stream.receive(MemorySegment.ofArray(SIW_NO_MATCHING_RTR), 0, SIW_NO_MATCHING_RTR.length);

            assertSame(RdmapStream.State.ERROR, p.b.stream.state());
            assertEquals(MpaError.NO_MATCHING_RTR.controlBits(), p.b.stream.peerTerminate());
            assertEquals(1, counter(p.b, CounterNames.TERMINATES_RX));
            assertEquals(0, counter(p.b, CounterNames.CRC_ERRORS));
            assertEquals(0, p.b.stream.transmit(p.b.sink), "a Terminate is not answered with a Terminate");
        }
    }

    @Test
    void aZeroCrcAfterTheFirstFpduIsStillACrcError() {
        try (StreamPair p = new StreamPair(StreamPair.defaults(), StreamPair.defaults(), Seeds.random(22))) {
            // a zero-length Write (reference §7.5, CRC good) first, then siw's Terminate
            byte[] write = Wire.unhex("000ec140000000010000000000000000ebd34c5f");
            p.b.stream.receive(MemorySegment.ofArray(write), 0, write.length);
            p.b.stream.receive(MemorySegment.ofArray(SIW_NO_MATCHING_RTR), 0, SIW_NO_MATCHING_RTR.length);

            assertEquals(1, counter(p.b, CounterNames.CRC_ERRORS));
            assertEquals(-1, p.b.stream.peerTerminate());
            assertSame(MpaError.CRC_ERROR, p.b.stream.terminateCause());
        }
    }

    @Test
    void aWrongNonZeroCrcOnAFirstTerminateIsACrcError() {
        byte[] fpdu = SIW_NO_MATCHING_RTR.clone();
        fpdu[fpdu.length - 1] = 1;
        try (StreamPair p = new StreamPair(StreamPair.defaults(), StreamPair.defaults(), Seeds.random(23))) {
            p.b.stream.receive(MemorySegment.ofArray(fpdu), 0, fpdu.length);
            assertEquals(1, counter(p.b, CounterNames.CRC_ERRORS));
            assertSame(MpaError.CRC_ERROR, p.b.stream.terminateCause());
        }
    }

    @Test
    void withAGoodCrcTheSiwLayoutIsReadToo() {
        byte[] fpdu = SIW_NO_MATCHING_RTR.clone();
        MemorySegment s = MemorySegment.ofArray(fpdu);
        Crc32c crc = new Crc32c();
        crc.update(s, 0, 24);
        Crc32c.putWire(s, 24, crc.value());
        try (StreamPair p = new StreamPair(StreamPair.defaults(), StreamPair.defaults(), Seeds.random(24))) {
            p.b.stream.receive(s, 0, fpdu.length);
            assertEquals(MpaError.NO_MATCHING_RTR.controlBits(), p.b.stream.peerTerminate());
            assertEquals(0, counter(p.b, CounterNames.CRC_ERRORS));
        }
    }

    /**
     * siw's MPA CRC error mid-stream (it mis-assembles a trailer that arrives in two TCP segments):
     * layer 2 / type 0 in its nibble order, no flags, its own CRC good. Read as MPA's CRC error
     * (RFC 5044 §8), not as RDMAP (0, 2, 0x02), which RFC 5040 §4.8 does not define.
     */
    @Test
    void siwsCrcErrorAfterOtherFpdusIsReadAsMpas() {
        byte[] fpdu = Wire.unhex("00164147" + "00000000" + "00000002" + "00000001" + "00000000" + "02020000" + "00000000");
        MemorySegment s = MemorySegment.ofArray(fpdu);
        Crc32c crc = new Crc32c();
        crc.update(s, 0, 24);
        Crc32c.putWire(s, 24, crc.value());
        try (StreamPair p = new StreamPair(StreamPair.defaults(), StreamPair.defaults(), Seeds.random(25))) {
            byte[] write = Wire.unhex("000ec140000000010000000000000000ebd34c5f");
            p.b.stream.receive(MemorySegment.ofArray(write), 0, write.length);
            p.b.stream.receive(s, 0, fpdu.length);
            assertSame(RdmapStream.State.ERROR, p.b.stream.state());
            assertEquals(MpaError.CRC_ERROR.controlBits(), p.b.stream.peerTerminate());
            assertEquals(0, counter(p.b, CounterNames.CRC_ERRORS));
        }
    }
}
