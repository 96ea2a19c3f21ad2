package org.jwarp.bench.transport.sockets;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.jwarp.bench.perf.PerfException;
import org.jwarp.bench.perf.Settings;
import org.jwarp.bench.transport.jwarp.Rendezvous;
import org.jwarp.wire.mpa.MpaFrame;
import org.jwarp.wire.mpa.MpaFrameType;

/**
 * The first bytes on every connection of a sockets test, before it turns into a plain byte
 * stream (the sockets counterpart of the jwarp rendezvous in MPA private data):
 *
 * <pre>
 * client: "jwarp-perf hello" (16 bytes) | version (1) | connection index (1) | settings length (2) | settings
 * server: "jwarp-perf ready" (16 bytes) | status (1: 0 ok, 1 refused) | text length (2) | text
 * </pre>
 *
 * The 16-byte keys sit where MPA's "MPA ID Req Frame" / "MPA ID Rep Frame" keys would (RFC 5044
 * §7.1.1), so each side can tell a jwarp (MPA) peer from a sockets peer by the first 16 bytes: a
 * sockets server that receives an MPA Request answers with an MPA Reply with R=1 carrying the
 * reason, which the jwarp client reports as one line; a jwarp server closes a connection whose
 * first bytes are not an MPA Request, which the sockets client reports as one line.
 */
final class SocketHello {

    static final byte[] HELLO = "jwarp-perf hello".getBytes(StandardCharsets.US_ASCII);
    static final byte[] READY = "jwarp-perf ready".getBytes(StandardCharsets.US_ASCII);
    static final int VERSION = 1;
    static final int TIMEOUT_MILLIS = 30_000;

    private SocketHello() {
    }

    /** Client: sends the hello; returns null if the server accepted, else its reason. */
    static String clientHello(Socket s, int index, Settings settings, String where) {
        try {
            s.setSoTimeout(TIMEOUT_MILLIS);
            ByteBuffer b = ByteBuffer.allocate(16 + 4 + Settings.ENCODED_LENGTH);
            b.put(HELLO).put((byte) VERSION).put((byte) index).putShort((short) Settings.ENCODED_LENGTH);
            settings.writeTo(b);
            OutputStream out = s.getOutputStream();
            out.write(b.array(), 0, b.position());
            out.flush();
            DataInputStream in = new DataInputStream(s.getInputStream());
            byte[] key = new byte[16];
            int got = readAtMost(in, key);
            if (got < 16 || !java.util.Arrays.equals(key, READY)) {
                if (got <= 0) {
                    throw new PerfException("the peer at " + where + " closed the connection after the hello: it does"
                            + " not speak jwarp's sockets protocol (a jwarp server with --transport jwarp? run both"
                            + " sides with the same --transport)");
                }
                throw new PerfException("the peer at " + where + " does not speak jwarp's sockets protocol (it answered '"
                        + printable(key, got) + "')");
            }
            int status = in.readUnsignedByte();
            byte[] text = new byte[in.readUnsignedShort()];
            in.readFully(text);
            s.setSoTimeout(0);
            return status == 0 ? null : org.jwarp.bench.perf.PeerText.printable(new String(text, StandardCharsets.UTF_8));
        } catch (SocketTimeoutException e) {
            throw new PerfException("the peer at " + where + " did not answer the hello in " + TIMEOUT_MILLIS / 1000
                    + " s: it does not speak jwarp's sockets protocol");
        } catch (IOException e) {
            throw new PerfException("the connection to " + where + " failed during the hello (" + e.getMessage() + ")");
        }
    }

    /** What a client said in its hello. */
    record Greeting(int index, Settings settings) {
    }

    /**
     * Server: reads a hello.
     *
     * @param transportOption this server's {@code --transport}, for the answer to an MPA client
     * @throws PerfException if the client speaks MPA or something else (an MPA client is answered
     *                       with an MPA reject first)
     */
    static Greeting serverHello(Socket s, String who, String test, String transportOption) {
        try {
            s.setSoTimeout(TIMEOUT_MILLIS);
            DataInputStream in = new DataInputStream(s.getInputStream());
            byte[] key = new byte[16];
            int got = readAtMost(in, key);
            if (got == 16 && !java.util.Arrays.equals(key, HELLO)) {
                java.lang.foreign.MemorySegment k = java.lang.foreign.MemorySegment.ofArray(key);
                if (MpaFrameType.ofKey(k, 0) == MpaFrameType.REQUEST) {
                    rejectMpa(s, in, Rendezvous.SERVER_RUNS + test + " --transport " + transportOption);
                    throw new PerfException("a client at " + who + " speaks MPA (--transport jwarp), this server runs"
                            + " --transport " + transportOption + ": run both sides with the same --transport");
                }
            }
            if (got < 16 || !java.util.Arrays.equals(key, HELLO)) {
                throw new PerfException("a client at " + who + " is not a jwarp benchmark client (it sent '"
                        + printable(key, got) + "')");
            }
            int version = in.readUnsignedByte();
            int index = in.readUnsignedByte();
            byte[] settings = new byte[in.readUnsignedShort()];
            in.readFully(settings);
            if (version != VERSION) {
                answer(s, "hello version " + version + ", this server speaks " + VERSION);
                throw new PerfException("the client at " + who + " speaks hello version " + version + ", this jwarp "
                        + VERSION);
            }
            Settings st;
            try {
                st = Settings.readFrom(ByteBuffer.wrap(settings));
            } catch (IllegalArgumentException e) {
                answer(s, "malformed settings: " + e.getMessage());
                throw new PerfException("the client at " + who + " sent settings this jwarp does not understand: "
                        + e.getMessage());
            }
            return new Greeting(index, st);
        } catch (SocketTimeoutException e) {
            throw new PerfException("a client at " + who + " sent no hello in " + TIMEOUT_MILLIS / 1000 + " s");
        } catch (EOFException e) {
            throw new PerfException("a client at " + who + " closed the connection in the middle of its hello");
        } catch (IOException e) {
            throw new PerfException("the connection from " + who + " failed during the hello (" + e.getMessage() + ")");
        }
    }

    /** Server: accepts ({@code refusal == null}) or refuses a hello. */
    static void answer(Socket s, String refusal) throws IOException {
        byte[] text = refusal == null ? new byte[0] : refusal.getBytes(StandardCharsets.UTF_8);
        ByteBuffer b = ByteBuffer.allocate(16 + 3 + text.length);
        b.put(READY).put((byte) (refusal == null ? 0 : 1)).putShort((short) text.length).put(text);
        OutputStream out = s.getOutputStream();
        out.write(b.array(), 0, b.position());
        out.flush();
        s.setSoTimeout(0);
    }

    /**
     * Answers an MPA Request (whose key was read) with an MPA Reply, R=1, carrying
     * {@code reason} in jwarp's rendezvous format, in the Request's revision (RFC 5044 §7.1.2;
     * RFC 6581 §5 adds the 4-byte IRD/ORD header in revision 2).
     */
    private static void rejectMpa(Socket s, DataInputStream in, String reason) throws IOException {
        int flags = in.readUnsignedByte();
        int revision = in.readUnsignedByte();
        int pdLength = in.readUnsignedShort();
        in.readNBytes(Math.min(pdLength, MpaFrame.MAX_PRIVATE_DATA_LENGTH));
        byte[] pd = Rendezvous.error(reason);
        boolean enhanced = revision == 2 && (flags & MpaFrame.FLAG_ENHANCED) != 0;
        int length = pd.length + (enhanced ? 4 : 0);
        byte[] frame = new byte[MpaFrame.HEADER_LENGTH + length];
        MpaFrame f = new MpaFrame().wrap(java.lang.foreign.MemorySegment.ofArray(frame), 0);
        f.encode(MpaFrameType.REPLY, MpaFrame.FLAG_REJECT | (enhanced ? MpaFrame.FLAG_ENHANCED : 0),
                revision == 2 ? 2 : 1, length);
        // revision 2: the enhanced header (IRD/ORD 0, no RTR) precedes the private data (RFC 6581 §6)
        System.arraycopy(pd, 0, frame, MpaFrame.HEADER_LENGTH + (enhanced ? 4 : 0), pd.length);
        OutputStream out = s.getOutputStream();
        out.write(frame);
        out.flush();
    }

    private static int readAtMost(InputStream in, byte[] b) throws IOException {
        int n = 0;
        while (n < b.length) {
            int r = in.read(b, n, b.length - n);
            if (r < 0) {
                break;
            }
            n += r;
        }
        return n;
    }

    private static String printable(byte[] b, int n) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            int c = b[i] & 0xFF;
            sb.append(c >= 0x20 && c < 0x7F ? (char) c : '.');
        }
        return sb.toString();
    }
}
