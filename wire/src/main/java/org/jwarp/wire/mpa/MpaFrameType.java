package org.jwarp.wire.mpa;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import org.jwarp.wire.Wire;

/**
 * The two MPA connection-setup frames and their 16-byte keys (RFC 5044 §7.1.1).
 *
 * <p>The keys are ASCII "MPA ID Req Frame" and "MPA ID Rep Frame"; they differ in byte 9 only
 * ('q' 0x71 versus 'p' 0x70). RFC 5044 §7.1.2 chose two keys so that two sides that both act as
 * initiator can tell: each receives a Request where it expected a Reply.
 */
public enum MpaFrameType {
    /** Sent by the initiator: key "MPA ID Req Frame". */
    REQUEST("MPA ID Req Frame"),
    /** Sent by the responder: key "MPA ID Rep Frame". */
    REPLY("MPA ID Rep Frame");

    /** Length of the key field at the start of every Request and Reply. */
    public static final int KEY_LENGTH = 16;

    private final byte[] key;

    MpaFrameType(String key) {
        this.key = key.getBytes(StandardCharsets.US_ASCII);
        if (this.key.length != KEY_LENGTH) {
            throw new AssertionError("MPA key must be 16 bytes: " + key);
        }
    }

    /** Key byte {@code index} (0..15) as an unsigned value; no copy of the key escapes. */
    public int keyByte(int index) {
        return key[index] & 0xFF;
    }

    /** The other frame type: what the peer sends in answer to, or instead of, this one. */
    public MpaFrameType other() {
        return this == REQUEST ? REPLY : REQUEST;
    }

    /** Writes the 16-byte key at {@code offset}. */
    public void writeKey(MemorySegment s, long offset) {
        for (int i = 0; i < KEY_LENGTH; i++) {
            Wire.put8(s, offset + i, key[i]);
        }
    }

    /** True if the 16 bytes at {@code offset} are exactly this type's key. */
    public boolean matchesKey(MemorySegment s, long offset) {
        for (int i = 0; i < KEY_LENGTH; i++) {
            if (Wire.u8(s, offset + i) != keyByte(i)) {
                return false;
            }
        }
        return true;
    }

    /** The type whose key is at {@code offset}, or {@code null} if neither key is there. */
    public static MpaFrameType ofKey(MemorySegment s, long offset) {
        if (REQUEST.matchesKey(s, offset)) {
            return REQUEST;
        }
        return REPLY.matchesKey(s, offset) ? REPLY : null;
    }
}
