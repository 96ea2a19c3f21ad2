package org.jwarp.bench.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * A server takes its workload from the client, so what a client may ask for is bounded on the
 * wire, and what a peer writes is printed safely.
 */
class PeerLimitsTest {

    /** Settings as a client would send them; {@code q} QPs, {@code tx} send depth, {@code size} bytes. */
    static Settings settings(int q, int tx, int size) {
        return new Settings(TestKind.WRITE_BW, TransportKind.JWARP, false, size, 100, true, 0, tx, 512, 0, false, 1,
                Math.min(100, tx), q, 16);
    }

    static Settings decoded(Settings s) {
        ByteBuffer b = ByteBuffer.allocate(Settings.ENCODED_LENGTH);
        s.writeTo(b);
        return Settings.readFrom(b.flip());
    }

    @Test
    void whatAClientMayAskForIsBoundedWithTheBoundInTheError() {
        assertEquals(settings(Settings.MAX_QPS, 128, 65536), decoded(settings(Settings.MAX_QPS, 128, 65536)));
        IllegalArgumentException qps = assertThrows(IllegalArgumentException.class,
                () -> decoded(settings(2000, 128, 65536)));
        assertEquals("QPs (-q) 2000 is above the limit of " + Settings.MAX_QPS, qps.getMessage());
        IllegalArgumentException depth = assertThrows(IllegalArgumentException.class,
                () -> decoded(settings(1, Integer.MAX_VALUE, 65536)));
        assertEquals("tx depth (-t) " + Integer.MAX_VALUE + " is above the limit of " + Settings.MAX_DEPTH,
                depth.getMessage());
        IllegalArgumentException memory = assertThrows(IllegalArgumentException.class,
                () -> decoded(settings(4, 128, 512 << 20)));
        assertTrue(memory.getMessage().contains("need more than the 1024 MiB a side may use"), memory.getMessage());
    }

    @Test
    void aControlMessageWithANegativeTextLengthIsRefusedNotThrownAsAnotherError() {
        ByteBuffer b = ByteBuffer.allocate(64);
        b.put((byte) ControlMessage.Type.ERROR.ordinal()).putInt(0).put((byte) 0).putShort((short) -32768);
        b.put("short".getBytes(StandardCharsets.US_ASCII));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ControlMessage.readFrom(b.flip()));
        assertEquals("control message text of 32768 bytes, 5 present", e.getMessage());
    }

    @Test
    void peerTextReachesTheTerminalWithoutItsControlCharacters() {
        String hostile = "bad\u001b[2J\u001b]0;owned\u0007 news\r\nmore\u202e";
        ByteBuffer b = ByteBuffer.allocate(ControlMessage.MAX_LENGTH);
        ControlMessage.error(hostile).writeTo(b);
        String shown = ControlMessage.readFrom(b.flip()).text();
        assertEquals("bad\\u001b[2J\\u001b]0;owned\\u0007 news\\u000d\\u000amore\\u202e", shown);
        assertEquals(PeerText.MAX_CHARS + 1, PeerText.printable("x".repeat(10_000)).length(), "long text is cut");
    }
}
