package org.jwarp.bench.transport.jwarp;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.jwarp.bench.perf.Settings;

/**
 * What the two sides tell each other in MPA private data (RFC 5044 §7.1 carries it in the MPA
 * Request and Reply; here it takes the place of perftest's out-of-band TCP exchange):
 *
 * <pre>
 * every frame:    "JWPF" | kind (1)
 * CONTROL request: settings ({@link Settings#writeTo})               the first connection of a run
 * DATA request:    qp index (2) | Buffers                           one per data QP
 * OK reply:        Buffers (for DATA; empty for CONTROL)
 * ERROR reject:    UTF-8 text, one line                              sent in a Reply with R=1
 * Buffers:         in.addr (8) | in.rkey (4) | out.addr (8) | out.rkey (4) | length (8)
 * </pre>
 *
 * Kept under 252 bytes, what siw accepts in a revision 2 frame.
 */
public final class Rendezvous {

    static final byte[] MAGIC = {'J', 'W', 'P', 'F'};
    static final int CONTROL = 1;
    static final int DATA = 2;
    static final int OK = 3;
    static final int ERROR = 4;
    private static final int MAX_TEXT = 240;

    /** A side's buffers for one data QP: "in" takes WRITEs and SENDs, "out" is the source and the READ target. */
    public record Buffers(long inAddr, int inRkey, long outAddr, int outRkey, long length) {
        Buffers(RemoteBuffer in, RemoteBuffer out, long length) {
            this(in.addr(), in.rkey(), out.addr(), out.rkey(), length);
        }

        void writeTo(ByteBuffer b) {
            new RemoteBuffer(inAddr, inRkey).writeTo(b);
            new RemoteBuffer(outAddr, outRkey).writeTo(b).putLong(length);
        }

        static Buffers readFrom(ByteBuffer b) {
            return new Buffers(RemoteBuffer.readFrom(b), RemoteBuffer.readFrom(b), b.getLong());
        }
    }

    /** A decoded frame: {@code kind} and what that kind carries. */
    public record Frame(int kind, Settings settings, int qpIndex, Buffers buffers, String text) {
    }

    /** How a server's refusal for another test or transport starts: "server runs TEST --transport KIND". */
    public static final String SERVER_RUNS = "server runs ";

    private Rendezvous() {
    }

    /** The client's one line for a server's refusal {@code text}. */
    public static String mismatch(String text, String where, Settings mine) {
        if (text.startsWith(SERVER_RUNS)) {
            return "the server at " + where + " runs " + text.substring(SERVER_RUNS.length()) + ", this client runs "
                    + mine.test().command() + " --transport " + mine.transport().option() + ": run the same test,"
                    + " with the same --transport, on both sides";
        }
        return "the server at " + where + " refused: " + text;
    }

    public static byte[] control(Settings s) {
        ByteBuffer b = start(CONTROL);
        s.writeTo(b);
        return finish(b);
    }

    public static byte[] data(int qpIndex, Buffers buffers) {
        ByteBuffer b = start(DATA);
        b.putShort((short) qpIndex);
        buffers.writeTo(b);
        return finish(b);
    }

    public static byte[] ok(Buffers buffers) {
        ByteBuffer b = start(OK);
        if (buffers != null) {
            buffers.writeTo(b);
        }
        return finish(b);
    }

    public static byte[] error(String text) {
        ByteBuffer b = start(ERROR);
        byte[] t = text.getBytes(StandardCharsets.UTF_8);
        b.put(t, 0, Math.min(t.length, MAX_TEXT));
        return finish(b);
    }

    /**
     * Decodes private data.
     *
     * @return {@code null} if it is not ours (no magic): the peer is not a jwarp benchmark
     * @throws IllegalArgumentException if it is ours but malformed
     */
    public static Frame parse(byte[] privateData) {
        if (privateData.length < MAGIC.length + 1) {
            return null;
        }
        for (int i = 0; i < MAGIC.length; i++) {
            if (privateData[i] != MAGIC[i]) {
                return null;
            }
        }
        ByteBuffer b = ByteBuffer.wrap(privateData, MAGIC.length, privateData.length - MAGIC.length);
        try {
            int kind = b.get();
            return switch (kind) {
                case CONTROL -> new Frame(kind, Settings.readFrom(b), -1, null, null);
                case DATA -> new Frame(kind, null, b.getShort(), Buffers.readFrom(b), null);
                case OK -> new Frame(kind, null, -1, b.remaining() >= 32 ? Buffers.readFrom(b) : null, null);
                case ERROR -> new Frame(kind, null, -1, null, org.jwarp.bench.perf.PeerText.printable(
                        new String(privateData, b.position(), b.remaining(), StandardCharsets.UTF_8)));
                default -> throw new IllegalArgumentException("unknown rendezvous kind " + kind);
            };
        } catch (java.nio.BufferUnderflowException e) {
            throw new IllegalArgumentException("rendezvous frame truncated");
        }
    }

    private static ByteBuffer start(int kind) {
        ByteBuffer b = ByteBuffer.allocate(252);
        b.put(MAGIC).put((byte) kind);
        return b;
    }

    private static byte[] finish(ByteBuffer b) {
        byte[] out = new byte[b.position()];
        b.flip().get(out);
        return out;
    }
}
