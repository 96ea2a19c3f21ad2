package org.jwarp.interop;

import java.util.ArrayList;
import java.util.List;

/**
 * One perftest × jwarp session: perftest's {@code ib_TEST -R} in the siw guest against
 * {@code jwarp TEST --perftest} on the host.
 *
 * @param test        perftest's name, e.g. {@code write_bw}
 * @param jwarpClient jwarp connects to perftest's server (else perftest's client connects to jwarp)
 * @param size        {@code -s}
 * @param iterations  {@code -n}
 * @param crc         jwarp asks for MPA CRC (else {@code --crc off})
 */
record PerftestCell(String test, boolean jwarpClient, int size, int iterations, boolean crc) {

    /** Every test perftest runs over siw, both roles, CRC on; then CRC off and other sizes in part. */
    static List<PerftestCell> matrix() {
        List<PerftestCell> cells = new ArrayList<>();
        for (String t : List.of("write_bw", "read_bw", "send_bw", "write_lat", "read_lat", "send_lat")) {
            boolean bw = t.endsWith("_bw");
            for (boolean jwarpClient : new boolean[] {true, false}) {
                cells.add(new PerftestCell(t, jwarpClient, bw ? 4096 : 64, bw ? 200 : 100, true));
            }
        }
        for (boolean jwarpClient : new boolean[] {true, false}) {
            cells.add(new PerftestCell("write_bw", jwarpClient, 4096, 200, false));
            cells.add(new PerftestCell("send_lat", jwarpClient, 64, 100, false));
            cells.add(new PerftestCell("send_bw", jwarpClient, 65536, 100, true));
            cells.add(new PerftestCell("write_lat", jwarpClient, 2, 100, true));
            cells.add(new PerftestCell("read_bw", jwarpClient, 65536, 50, true));
        }
        return cells;
    }

    /** jwarp's subcommand. */
    String jwarpCommand() {
        return test.replace('_', '-');
    }

    /** The options both sides take. */
    List<String> common() {
        return List.of("-s", "" + size, "-n", "" + iterations);
    }

    String name() {
        return (jwarpClient ? "jwarp " + jwarpCommand() + " -> ib_" + test : "ib_" + test + " -> jwarp " + jwarpCommand())
                + " -s " + size + " -n " + iterations + (crc ? "" : " (CRC off)");
    }
}
