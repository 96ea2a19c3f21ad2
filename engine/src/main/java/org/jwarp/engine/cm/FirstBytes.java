package org.jwarp.engine.cm;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;

/**
 * The first bytes a listener's connection received, kept so that a client which does not speak
 * MPA (RFC 5044 §7.1: every MPA connection starts with the 16-byte key "MPA ID Req Frame") can be
 * named by what it sent instead, e.g. {@code 'GET / HT'}. Setup path only.
 */
final class FirstBytes {

    static final int KEPT = 8;
    private static final byte[] REQUEST_KEY = "MPA ID Req Frame".getBytes(StandardCharsets.US_ASCII);

    private final byte[] bytes = new byte[KEPT];
    private int length;

    /** Keeps what is still missing of the first {@link #KEPT} bytes from {@code in[offset, offset + n)}. */
    void add(MemorySegment in, long offset, long n) {
        int k = (int) Math.min(KEPT - length, n);
        if (k > 0) {
            MemorySegment.copy(in, ValueLayout.JAVA_BYTE, offset, bytes, length, k);
            length += k;
        }
    }

    /** Whether anything arrived. */
    boolean any() {
        return length > 0;
    }

    /** Whether what arrived so far is the start of an MPA Request's key. */
    boolean startsLikeMpa() {
        for (int i = 0; i < length; i++) {
            if (bytes[i] != REQUEST_KEY[i]) {
                return false;
            }
        }
        return true;
    }

    /** The bytes in quotes, printable ASCII as is and anything else as {@code \xNN}. */
    String quoted() {
        StringBuilder b = new StringBuilder("'");
        for (int i = 0; i < length; i++) {
            int c = bytes[i] & 0xFF;
            if (c >= 0x20 && c < 0x7F && c != '\\' && c != '\'') {
                b.append((char) c);
            } else {
                b.append(String.format("\\x%02x", c));
            }
        }
        return b.append('\'').toString();
    }
}
