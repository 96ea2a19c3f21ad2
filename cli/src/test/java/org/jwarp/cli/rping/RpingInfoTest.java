package org.jwarp.cli.rping;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.MemorySegment;
import org.jwarp.wire.Wire;
import org.junit.jupiter.api.Test;

class RpingInfoTest {

    @Test
    void sixteenBytesInNetworkOrder() {
        MemorySegment s = MemorySegment.ofArray(new byte[RpingInfo.LENGTH]);
        new RpingInfo(0x00007f4eec2578c0L, 0x00000401, 100).writeTo(s, 0);
        assertEquals("00007f4eec2578c0" + "00000401" + "00000064", Wire.hex(s, 0, 16).replace(" ", ""));
    }

    @Test
    void readsWhatItWrites() {
        MemorySegment s = MemorySegment.ofArray(new byte[RpingInfo.LENGTH + 3]);
        RpingInfo info = new RpingInfo(0x8000_0000_0000_0001L, 0xFFFF_FF01, 0xFFFF_FFFE);
        info.writeTo(s, 3);
        RpingInfo back = RpingInfo.read(s, 3);
        assertEquals(info, back);
        assertEquals(0xFFFF_FFFEL, back.sizeUnsigned());
    }

    @Test
    void goAheadIsSixteenZeroBytes() {
        MemorySegment s = MemorySegment.ofArray(new byte[RpingInfo.LENGTH]);
        s.fill((byte) 0x55);
        RpingInfo.GO_AHEAD.writeTo(s, 0);
        assertEquals(-1, s.mismatch(MemorySegment.ofArray(new byte[RpingInfo.LENGTH])));
    }
}
