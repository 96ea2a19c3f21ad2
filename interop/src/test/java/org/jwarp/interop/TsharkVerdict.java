package org.jwarp.interop;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What tshark's iWARP dissectors ({@code iwarp_mpa}, {@code iwarp_ddp_rdmap}) make of a capture:
 * every TCP segment that carries bytes must decode as MPA (a Request, a Reply or FPDUs, or be part
 * of a PDU tshark reassembled), every FPDU must carry DDP/RDMAP, and every CRC check must be good.
 * A TCP retransmission is counted, not judged: tshark does not hand bytes it has already dissected
 * to the iWARP dissectors again, and the emulated guest's slow TCP does retransmit.
 * And the startup order of RFC 5044 §7.1.2: after its Request the initiator sends nothing until the
 * Reply has come, and after its Reply the responder sends nothing until the initiator's first FPDU.
 *
 * <p>A capture can miss segments that were on the wire (tcpdump under load): tshark then marks the
 * sender's next segment "previous segment not captured" ({@code tcp.analysis.lost_segment}) or the
 * peer's ACK "ACKed unseen segment" ({@code tcp.analysis.ack_lost_segment}). A PDU whose rest was in
 * the missing segment, or a segment that starts inside a PDU whose head was missed, cannot decode;
 * such a frame is listed as cut by the capture, not as a fault of the wire. An undecodable frame
 * that no loss in its direction explains stays a problem.
 *
 * <p>Inputs are two tshark outputs: the per-frame fields
 * {@code frame.number|tcp.srcport|tcp.len|frame.protocols|tcp.reassembled_in|iwarp_mpa.ulpdulength|
 * tcp.analysis.retransmission|tcp.analysis.spurious_retransmission|tcp.analysis.lost_segment|
 * tcp.analysis.ack_lost_segment} (separator '|'), and the "CRC check:" lines of the verbose output.
 *
 * @param frames       frames in the capture
 * @param dataFrames   frames with TCP payload
 * @param mpaFrames    MPA Request and Reply frames
 * @param fpdus        FPDUs decoded
 * @param goodCrcs     "Good CRC32" verdicts
 * @param retransmissions frames TCP sent again (not dissected as iWARP)
 * @param captureLosses frames tshark marks as following or acknowledging a segment the capture missed
 * @param cutByCapture one line per frame that does not decode because the capture missed a segment next to it
 * @param problems     one line per frame or FPDU that breaks a rule
 */
record TsharkVerdict(int frames, int dataFrames, int mpaFrames, int fpdus, int goodCrcs, int retransmissions,
        int captureLosses, List<String> cutByCapture, List<String> problems) {

    /** The field list {@link #of} reads, in order, for {@code tshark -T fields -E separator=|}. */
    static final List<String> FIELDS = List.of("frame.number", "tcp.srcport", "tcp.len", "frame.protocols",
            "tcp.reassembled_in", "iwarp_mpa.ulpdulength", "tcp.analysis.retransmission",
            "tcp.analysis.spurious_retransmission", "tcp.analysis.lost_segment", "tcp.analysis.ack_lost_segment");

    static TsharkVerdict of(String fields, String verbose) {
        int frames = 0;
        int data = 0;
        int mpa = 0;
        int fpdus = 0;
        int retransmissions = 0;
        int losses = 0;
        List<String> cut = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        List<String> senders = new ArrayList<>();
        // per sending port: undecodable frames not yet explained, and whether a loss was seen since
        // that direction's last decodable frame
        Map<String, List<String>> undecoded = new LinkedHashMap<>();
        Map<String, Boolean> afterLoss = new LinkedHashMap<>();
        for (String line : fields.strip().split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            String[] f = line.split("\\|", -1);
            if (f.length < FIELDS.size()) {
                problems.add("unreadable tshark line: " + line);
                continue;
            }
            frames++;
            String sender = f[1];
            undecoded.putIfAbsent(sender, new ArrayList<>());
            if (!f[8].isEmpty()) {
                losses++;
                lost(sender, "frame " + f[0] + ": previous segment not captured", undecoded, afterLoss, cut);
            }
            if (!f[9].isEmpty()) {
                losses++;
                for (String other : List.copyOf(undecoded.keySet())) {
                    if (!other.equals(sender)) {
                        lost(other, "frame " + f[0] + ": ACKed unseen segment", undecoded, afterLoss, cut);
                    }
                }
            }
            int len = f[2].isEmpty() ? 0 : Integer.parseInt(f[2].split(",")[0]);
            if (len == 0) {
                continue;
            }
            if (!f[6].isEmpty() || !f[7].isEmpty()) {
                retransmissions++;
                continue;
            }
            data++;
            senders.add(sender);
            String protocols = f[3];
            boolean reassembledLater = !f[4].isEmpty();
            if (!protocols.contains("iwarp_mpa")) {
                if (!reassembledLater) {
                    String what = "frame " + f[0] + ": " + len + " TCP bytes that do not decode as iWARP (" + protocols + ")";
                    if (afterLoss.getOrDefault(sender, false)) {
                        cut.add(what + ", after a segment the capture missed");
                    } else {
                        undecoded.get(sender).add(what);
                    }
                }
                continue;
            }
            // this direction decodes again: what stayed undecoded before it has no loss to blame
            problems.addAll(undecoded.getOrDefault(sender, List.of()));
            undecoded.put(sender, new ArrayList<>());
            afterLoss.put(sender, false);
            int n = f[5].isEmpty() ? 0 : f[5].split(",").length;
            if (n == 0) {
                mpa++;
            } else {
                fpdus += n;
                if (!protocols.contains("iwarp_ddp_rdmap")) {
                    problems.add("frame " + f[0] + ": FPDU without DDP/RDMAP (" + protocols + ")");
                }
            }
        }
        undecoded.values().forEach(problems::addAll);
        // data frames 1 and 2 are the Request and the Reply; frame 3 is the initiator's first FPDU
        if (senders.size() >= 3) {
            if (senders.get(1).equals(senders.get(0))) {
                problems.add("the initiator sent more bytes after its MPA Request before the Reply");
            }
            if (!senders.get(2).equals(senders.get(0))) {
                problems.add("the responder sent before the initiator's first FPDU");
            }
        }
        int good = 0;
        for (String line : verbose.split("\n")) {
            if (line.contains("CRC check:")) {
                if (line.contains("(Good CRC32)")) {
                    good++;
                } else {
                    problems.add("bad CRC: " + line.strip());
                }
            }
        }
        if (good != fpdus && problems.isEmpty()) {
            problems.add(fpdus + " FPDUs but " + good + " good CRC checks");
        }
        return new TsharkVerdict(frames, data, mpa, fpdus, good, retransmissions, losses, List.copyOf(cut),
                List.copyOf(problems));
    }

    /** A segment from {@code sender} was not captured: its undecodable frames so far are cut by it. */
    private static void lost(String sender, String mark, Map<String, List<String>> undecoded, Map<String, Boolean> afterLoss,
            List<String> cut) {
        for (String what : undecoded.getOrDefault(sender, List.of())) {
            cut.add(what + ", before a segment the capture missed (" + mark + ")");
        }
        undecoded.put(sender, new ArrayList<>());
        afterLoss.put(sender, true);
    }

    boolean clean() {
        return problems.isEmpty() && mpaFrames == 2 && fpdus > 0;
    }

    @Override
    public String toString() {
        return frames + " frames, " + dataFrames + " with data: MPA Request+Reply " + mpaFrames + ", " + fpdus + " FPDUs, "
                + goodCrcs + " good CRCs" + (retransmissions == 0 ? "" : ", " + retransmissions + " TCP retransmissions")
                + (captureLosses == 0 ? "" : ", " + captureLosses + " frames next to segments the capture missed")
                + (cutByCapture.isEmpty() ? "" : "; cut by the capture: " + cutByCapture)
                + (problems.isEmpty() ? "" : "; problems: " + problems);
    }
}
