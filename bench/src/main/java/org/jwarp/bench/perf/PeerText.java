package org.jwarp.bench.perf;

/**
 * Text a peer sent (an error line, a report's note) made safe to print: control characters, among
 * them the ESC that starts a terminal escape sequence, are shown as {@code \\uXXXX} instead of
 * reaching the terminal, and the length is bounded.
 */
public final class PeerText {

    /** Longest peer text printed; the rest is cut with an ellipsis. */
    public static final int MAX_CHARS = 512;

    private PeerText() {
    }

    /** {@code text} with control characters escaped, at most {@link #MAX_CHARS} characters of it. */
    public static String printable(String text) {
        if (text == null) {
            return null;
        }
        StringBuilder sb = new StringBuilder(Math.min(text.length(), MAX_CHARS) + 8);
        for (int i = 0; i < text.length() && i < MAX_CHARS; i++) {
            char c = text.charAt(i);
            if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029' || (c >= '\u202A' && c <= '\u202E')) {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        if (text.length() > MAX_CHARS) {
            sb.append('…');
        }
        return sb.toString();
    }
}
