package org.jwarp.interop;

import java.util.ArrayList;
import java.util.List;

/**
 * What tshark's iWARP dissectors ({@code iwarp_mpa}, {@code iwarp_ddp_rdmap}) make of a capture:
 * every TCP segment that carries bytes must decode as MPA (a Request, a Reply or FPDUs, or be part
 * of a PDU tshark reassembled), every FPDU must carry DDP/RDMAP, and every CRC check must be good.
 * A TCP retransmission is counted, not judged: tshark does not hand bytes it has already dissected
 * to the iWARP dissectors again, and the emulated guest's slow TCP does retransmit.
 * And the startup order of RFC 5044 §7.1.2: after its Request the initiator sends nothing until the
 * Reply has come, and after its Reply the responder sends nothing until the initiator's first FPDU.
 *
 * <p>Inputs are two tshark outputs: the per-frame fields
 * {@code frame.number|tcp.srcport|tcp.len|frame.protocols|tcp.reassembled_in|iwarp_mpa.ulpdulength|
 * tcp.analysis.retransmission|tcp.analysis.spurious_retransmission}
 * (separator '|'), and the "CRC check:" lines of the verbose output.
 *
 * @param frames       frames in the capture
 * @param dataFrames   frames with TCP payload
 * @param mpaFrames    MPA Request and Reply frames
 * @param fpdus        FPDUs decoded
 * @param goodCrcs     "Good CRC32" verdicts
 * @param retransmissions frames TCP sent again (not dissected as iWARP)
 * @param problems     one line per frame or FPDU that breaks a rule
 */
record TsharkVerdict(int frames, int dataFrames, int mpaFrames, int fpdus, int goodCrcs, int retransmissions,
        List<String> problems) {

    static TsharkVerdict of(String fields, String verbose) {
        int frames = 0;
        int data = 0;
        int mpa = 0;
        int fpdus = 0;
        int retransmissions = 0;
        List<String> problems = new ArrayList<>();
        List<String> senders = new ArrayList<>();
        for (String line : fields.strip().split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            String[] f = line.split("\\|", -1);
            if (f.length < 8) {
                problems.add("unreadable tshark line: " + line);
                continue;
            }
            frames++;
            int len = f[2].isEmpty() ? 0 : Integer.parseInt(f[2].split(",")[0]);
            if (len == 0) {
                continue;
            }
            if (!f[6].isEmpty() || !f[7].isEmpty()) {
                retransmissions++;
                continue;
            }
            data++;
            senders.add(f[1]);
            String protocols = f[3];
            boolean reassembledLater = !f[4].isEmpty();
            if (!protocols.contains("iwarp_mpa")) {
                if (!reassembledLater) {
                    problems.add("frame " + f[0] + ": " + len + " TCP bytes that do not decode as iWARP (" + protocols + ")");
                }
                continue;
            }
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
        return new TsharkVerdict(frames, data, mpa, fpdus, good, retransmissions, List.copyOf(problems));
    }

    boolean clean() {
        return problems.isEmpty() && mpaFrames == 2 && fpdus > 0;
    }

    @Override
    public String toString() {
        return frames + " frames, " + dataFrames + " with data: MPA Request+Reply " + mpaFrames + ", " + fpdus + " FPDUs, "
                + goodCrcs + " good CRCs" + (retransmissions == 0 ? "" : ", " + retransmissions + " TCP retransmissions")
                + (problems.isEmpty() ? "" : "; problems: " + problems);
    }
}
