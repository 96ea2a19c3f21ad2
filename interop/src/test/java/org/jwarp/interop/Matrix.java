package org.jwarp.interop;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The interop matrix: which cells run, what each is expected to do, and the printed table.
 *
 * <p>Every siw variant is met in both directions. As initiator jwarp tries MPA v2 with the RTR
 * exchange, v2 without it and v1, each with CRC asked for and not; as responder it follows siw's
 * Request and decides only CRC. Sizes rotate through {@link #SIZES} (rping's smallest, sizes that
 * are not multiples of 4, and sizes siw splits into several FPDUs: its segments carry at most
 * about 1.4 KB on the guest's 1500-byte MTU), and a sweep runs every size on the stock variant.
 */
final class Matrix {

    /** Ping sizes: 23 is rping's minimum, 65535 its maximum; 1443 and up span several siw FPDUs. */
    static final List<Integer> SIZES = List.of(23, 64, 1001, 1443, 4097, 16383, 65535);
    static final int COUNT = 3;

    private Matrix() {
    }

    /** The cells of the variant matrix, variant by variant in {@link SiwVm#VARIANTS} order. */
    static List<Cell> cells() {
        List<Cell> cells = new ArrayList<>();
        int n = 0;
        for (String v : SiwVm.VARIANTS) {
            for (JwarpMpaConfig c : JwarpMpaConfig.CLIENT) {
                cells.add(new Cell(v, true, c, SIZES.get(n++ % SIZES.size()), COUNT, refusal(v, true, c)));
            }
            for (JwarpMpaConfig c : JwarpMpaConfig.SERVER) {
                cells.add(new Cell(v, false, c, SIZES.get(n++ % SIZES.size()), COUNT, refusal(v, false, c)));
            }
            // what siw cannot do at all, and the reason jwarp prints
            if (v.equals("stock")) {
                cells.add(new Cell(v, true, JwarpMpaConfig.MARKERS, 64, COUNT, refusal(v, true, JwarpMpaConfig.MARKERS)));
            }
            if (v.equals("p2p")) {
                cells.add(new Cell(v, false, JwarpMpaConfig.RTR_READ, 4097, COUNT, Optional.empty()));
                cells.add(new Cell(v, false, JwarpMpaConfig.RTR_SEND, 64, COUNT, refusal(v, false, JwarpMpaConfig.RTR_SEND)));
            }
        }
        return cells;
    }

    /** Every size in both directions, stock siw, jwarp defaults. */
    static List<Cell> sweep() {
        List<Cell> cells = new ArrayList<>();
        for (int size : SIZES) {
            cells.add(new Cell("stock", true, JwarpMpaConfig.V2_RTR_CRC, size, COUNT, Optional.empty()));
            cells.add(new Cell("stock", false, JwarpMpaConfig.V2_RTR_CRC, size, COUNT, Optional.empty()));
        }
        return cells;
    }

    /**
     * What siw refuses, and where the reason shows:
     * <ul>
     *   <li>strict ({@code mpa_crc_strict}) rejects a Request with C=1 (R=1 Reply with C cleared), and
     *       as initiator refuses a Reply with C=1 (rdma_cm reports REJECTED, ECONNREFUSED);</li>
     *   <li>siw cannot send markers (R=1 Reply), and as a peer-to-peer initiator sends only a Write or
     *       Read RTR (a Terminate, in its own layout and with a zero CRC, when the Reply asks for a
     *       Send RTR);</li>
     *   <li>with MPA v1 there is no IRD/ORD exchange and siw hands rping's server, which accepts with
     *       rdma_cm's defaults, ORD 0: its RDMA READ cannot be posted (siw against siw too).</li>
     * </ul>
     */
    static Optional<Cell.Refusal> refusal(String variant, boolean toSiw, JwarpMpaConfig c) {
        if (c == JwarpMpaConfig.MARKERS) {
            return Optional.of(new Cell.Refusal("siw cannot send markers: R=1 Reply with M cleared",
                    "peer rejected the connection: markers required by us"));
        }
        if (c == JwarpMpaConfig.RTR_SEND) {
            return Optional.of(new Cell.Refusal("siw (p2p initiator) sends only Write or Read RTRs: Terminate",
                    "the peer sent a Terminate (" + org.jwarp.wire.rdmap.MpaError.NO_MATCHING_RTR.description()));
        }
        boolean crc = c.args().contains("preferred");
        boolean v1 = c.args().contains("1");
        if (toSiw && variant.equals("strict") && crc) {
            return Optional.of(new Cell.Refusal("siw mpa_crc_strict rejects a Request with C=1",
                    "peer rejected the connection: it cleared C"));
        }
        if (toSiw && v1) {
            return Optional.of(new Cell.Refusal("siw gives an MPA v1 passive side ORD 0: rping's server cannot READ",
                    "siw then gives the accepting side ORD 0"));
        }
        if (!toSiw && variant.equals("strict") && crc) {
            return Optional.of(new Cell.Refusal("siw mpa_crc_strict refuses a Reply with C=1",
                    "such as siw with mpa_crc_strict, drops the connection"));
        }
        return Optional.empty();
    }

    /** The table: one row per variant and direction, one column per jwarp configuration. */
    static String render(List<CellResult> results) {
        Map<String, Map<String, CellResult>> rows = new LinkedHashMap<>();
        List<String> columns = new ArrayList<>();
        for (CellResult r : results) {
            String row = String.format(Locale.ROOT, "%-8s %-11s", r.cell().variant(), r.cell().direction());
            rows.computeIfAbsent(row, k -> new LinkedHashMap<>()).put(r.cell().config().name(), r);
            if (!columns.contains(r.cell().config().name())) {
                columns.add(r.cell().config().name());
            }
        }
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "%-20s", "siw variant / dir"));
        for (String c : columns) {
            sb.append(String.format(Locale.ROOT, " | %-19s", c));
        }
        sb.append('\n');
        for (var row : rows.entrySet()) {
            sb.append(String.format(Locale.ROOT, "%-20s", row.getKey()));
            for (String c : columns) {
                CellResult r = row.getValue().get(c);
                String cell = r == null ? "-" : r.mark() + " " + r.cell().size() + "B"
                        + (r.rate() > 0 ? String.format(Locale.ROOT, " %.0f/s", r.rate()) : "");
                sb.append(String.format(Locale.ROOT, " | %-19s", cell));
            }
            sb.append('\n');
        }
        return sb.toString();
    }
}
