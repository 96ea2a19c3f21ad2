package org.jwarp.wire.mpa;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import org.jwarp.wire.Wire;
import org.jwarp.wire.WireSelfCheck;

/**
 * The MPA connection-setup frames of the reference's §7.6 (raw TCP bytes: no CRC, no markers),
 * with the values they encode and the policies that produce them. The unit tests and
 * {@link WireSelfCheck} both run them, so a user can see that this build puts the right bytes on
 * the wire before it talks to siw or an RNIC.
 */
public final class MpaVectors {

    /** One frame: a name, its bytes in hex, and the message those bytes mean. */
    public record Vector(String name, String hex, MpaMessage message) {
        public byte[] bytes() {
            return Wire.unhex(hex);
        }
    }

    /** "MPA ID Req Frame". */
    public static final String REQUEST_KEY = "4d 50 41 20 49 44 20 52 65 71 20 46 72 61 6d 65";
    /** "MPA ID Rep Frame": byte 9 differs. */
    public static final String REPLY_KEY = "4d 50 41 20 49 44 20 52 65 70 20 46 72 61 6d 65";

    /** siw's default Request: Rev 2, S, C=0, IRD=1, ORD=1, no ULP private data. */
    public static final Vector SIW_DEFAULT_REQUEST = new Vector("siw default Request",
            REQUEST_KEY + " 10 02 00 04 00 01 00 01",
            MpaMessage.of(MpaFrameType.REQUEST, false, false, false, 2,
                    new MpaV2Header(false, false, 1, false, false, 1), new byte[0]));
    /** The recommended Java Request: Rev 2, S, C=1, IRD=16, ORD=16 ({@link MpaPolicy#defaults()}). */
    public static final Vector JAVA_REQUEST = new Vector("recommended Java Request",
            REQUEST_KEY + " 50 02 00 04 00 10 00 10",
            MpaMessage.of(MpaFrameType.REQUEST, false, true, false, 2,
                    new MpaV2Header(false, false, 16, false, false, 16), new byte[0]));
    /** The Reply a default responder sends to {@link #JAVA_REQUEST}. */
    public static final Vector JAVA_REPLY = new Vector("Reply matching the Java Request",
            REPLY_KEY + " 50 02 00 04 00 10 00 10",
            MpaMessage.of(MpaFrameType.REPLY, false, true, false, 2,
                    new MpaV2Header(false, false, 16, false, false, 16), new byte[0]));
    /** Peer-to-peer Request offering Write and Read RTR (A, C, D), IRD=ORD=4. */
    public static final Vector P2P_REQUEST = new Vector("peer-to-peer Request offering Write+Read RTR",
            REQUEST_KEY + " 50 02 00 04 80 04 c0 04",
            MpaMessage.of(MpaFrameType.REQUEST, false, true, false, 2,
                    new MpaV2Header(true, false, 4, true, true, 4), new byte[0]));
    /** The Reply to {@link #P2P_REQUEST} choosing the Write RTR. */
    public static final Vector P2P_REPLY_WRITE = new Vector("Reply choosing the Write RTR",
            REPLY_KEY + " 50 02 00 04 80 04 80 04",
            MpaMessage.of(MpaFrameType.REPLY, false, true, false, 2,
                    new MpaV2Header(true, false, 4, true, false, 4), new byte[0]));
    /** Rev-1 Request with C and two bytes of private data ab cd. */
    public static final Vector REV1_REQUEST = new Vector("Rev-1 Request with private data ab cd",
            REQUEST_KEY + " 40 01 00 02 ab cd",
            MpaMessage.of(MpaFrameType.REQUEST, false, true, false, 1, null,
                    new byte[] {(byte) 0xab, (byte) 0xcd}));
    /** Rev-1 reject Reply: R=1, C echoed, no private data. */
    public static final Vector REV1_REJECT = new Vector("Rev-1 reject Reply",
            REPLY_KEY + " 60 01 00 00",
            MpaMessage.of(MpaFrameType.REPLY, false, true, true, 1, null, new byte[0]));

    public static final List<Vector> ALL = List.of(SIW_DEFAULT_REQUEST, JAVA_REQUEST, JAVA_REPLY,
            P2P_REQUEST, P2P_REPLY_WRITE, REV1_REQUEST, REV1_REJECT);

    /** siw's compile-time defaults as a policy: Rev 2, S, C=0, IRD=ORD=1, no markers at all. */
    public static MpaPolicy siwPolicy() {
        return MpaPolicy.defaults().withCrc(MpaPolicy.CrcPolicy.NOT_WANTED)
                .withMarkers(false, false).withIrdOrd(1, 1, true);
    }

    /** The policy of {@link #P2P_REQUEST}: peer-to-peer, Write and Read RTR, IRD=ORD=4. */
    public static MpaPolicy p2pPolicy() {
        return MpaPolicy.defaults().withIrdOrd(4, 4, true)
                .withRtr(true, EnumSet.of(RtrType.WRITE, RtrType.READ));
    }

    /** A Rev-1 (RFC 5044 only) policy. */
    public static MpaPolicy rev1Policy() {
        return MpaPolicy.defaults().withRevision(1, false);
    }

    private MpaVectors() {
    }

    /**
     * Adds one result per vector (encode to the exact bytes, read back to the same message) and
     * per negotiation that must produce a vector.
     */
    public static void addTo(List<WireSelfCheck.Result> out) {
        for (Vector v : ALL) {
            out.add(bytesResult("MPA encode: " + v.name(), v.bytes(), v.message().toBytes()));
            out.add(decodeResult(v));
        }
        byte[] none = new byte[0];
        out.add(messageResult("MPA siw policy makes the siw default Request",
                SIW_DEFAULT_REQUEST, MpaNegotiation.request(siwPolicy(), none)));
        out.add(messageResult("MPA default policy makes the recommended Java Request",
                JAVA_REQUEST, MpaNegotiation.request(MpaPolicy.defaults(), none)));
        out.add(messageResult("MPA default responder answers the Java Request",
                JAVA_REPLY, MpaNegotiation.respond(MpaPolicy.defaults(), JAVA_REQUEST.message(),
                        true, none).reply()));
        out.add(messageResult("MPA peer-to-peer policy makes the Write+Read RTR Request",
                P2P_REQUEST, MpaNegotiation.request(p2pPolicy(), none)));
        out.add(messageResult("MPA responder chooses the Write RTR",
                P2P_REPLY_WRITE, MpaNegotiation.respond(p2pPolicy(), P2P_REQUEST.message(),
                        true, none).reply()));
        out.add(messageResult("MPA Rev-1 policy makes the Rev-1 Request", REV1_REQUEST,
                MpaNegotiation.request(rev1Policy(), new byte[] {(byte) 0xab, (byte) 0xcd})));
        out.add(messageResult("MPA ULP reject of the Rev-1 Request", REV1_REJECT,
                MpaNegotiation.respond(MpaPolicy.defaults(), REV1_REQUEST.message(), false, none)
                        .reply()));
    }

    private static WireSelfCheck.Result bytesResult(String name, byte[] expected, byte[] got) {
        boolean same = Arrays.equals(expected, got);
        return new WireSelfCheck.Result(name, same, "expected " + hex(expected) + ", got " + hex(got));
    }

    private static WireSelfCheck.Result decodeResult(Vector v) {
        byte[] bytes = v.bytes();
        MpaFrameReader reader = new MpaFrameReader(v.message().type());
        MpaFrameReader.Status status = reader.feed(MemorySegment.ofArray(bytes), 0, bytes.length);
        if (status != MpaFrameReader.Status.COMPLETE) {
            return new WireSelfCheck.Result("MPA decode: " + v.name(), false,
                    "reader says " + status + " " + reader.invalidReason());
        }
        MpaMessage got = MpaMessage.decode(reader.frame());
        return new WireSelfCheck.Result("MPA decode: " + v.name(),
                got.equals(v.message()) && reader.consumed() == bytes.length,
                "expected " + v.message() + ", decoded " + got + " from " + reader.consumed()
                        + " of " + bytes.length + " bytes");
    }

    private static WireSelfCheck.Result messageResult(String name, Vector expected, MpaMessage got) {
        return bytesResult(name, expected.bytes(), got.toBytes());
    }

    private static String hex(byte[] b) {
        return Wire.hex(MemorySegment.ofArray(b), 0, b.length);
    }
}
