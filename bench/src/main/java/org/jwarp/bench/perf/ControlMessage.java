package org.jwarp.bench.perf;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The messages the two sides exchange between sizes (perftest's out-of-band synchronisation),
 * on the control connection: the client announces a size ({@link Type#PREPARE}), the server
 * answers when its buffers are ready ({@link Type#READY}), both send a {@link Type#REPORT} at
 * the end of the size, the client ends the run ({@link Type#BYE}); either side may send
 * {@link Type#ERROR} instead of what is expected.
 */
public record ControlMessage(Type type, int size, boolean warmup, SideReport report, String text) {

    /** Largest encoded message. */
    public static final int MAX_LENGTH = 1024;

    public enum Type { PREPARE, READY, REPORT, BYE, ERROR }

    public static ControlMessage prepare(int size, boolean warmup) {
        return new ControlMessage(Type.PREPARE, size, warmup, null, null);
    }

    public static ControlMessage ready(int size) {
        return new ControlMessage(Type.READY, size, false, null, null);
    }

    public static ControlMessage report(SideReport r) {
        return new ControlMessage(Type.REPORT, r.size(), false, r, null);
    }

    public static ControlMessage bye() {
        return new ControlMessage(Type.BYE, 0, false, null, null);
    }

    public static ControlMessage error(String text) {
        return new ControlMessage(Type.ERROR, 0, false, null, text);
    }

    /** Encodes into {@code b} (from its position); returns the length. */
    public int writeTo(ByteBuffer b) {
        int start = b.position();
        b.put((byte) type.ordinal());
        b.putInt(size);
        b.put((byte) (warmup ? 1 : 0));
        if (type == Type.REPORT) {
            report.writeTo(b);
        } else if (type == Type.ERROR) {
            byte[] t = text.getBytes(StandardCharsets.UTF_8);
            int len = Math.min(t.length, 500);
            b.putShort((short) len);
            b.put(t, 0, len);
        }
        return b.position() - start;
    }

    /**
     * Decodes a message.
     *
     * @throws IllegalArgumentException if the bytes are not a control message
     */
    public static ControlMessage readFrom(ByteBuffer b) {
        try {
            int t = b.get() & 0xFF;
            if (t >= Type.values().length) {
                throw new IllegalArgumentException("unknown control message type " + t);
            }
            Type type = Type.values()[t];
            int size = b.getInt();
            boolean warmup = b.get() != 0;
            SideReport r = type == Type.REPORT ? SideReport.readFrom(b) : null;
            String text = null;
            if (type == Type.ERROR) {
                int length = b.getShort() & 0xFFFF;
                if (length > b.remaining()) {
                    throw new IllegalArgumentException("control message text of " + length + " bytes, "
                            + b.remaining() + " present");
                }
                byte[] d = new byte[length];
                b.get(d);
                text = PeerText.printable(new String(d, StandardCharsets.UTF_8));
            }
            return new ControlMessage(type, size, warmup, r, text);
        } catch (BufferUnderflowException e) {
            throw new IllegalArgumentException("control message truncated");
        }
    }
}
