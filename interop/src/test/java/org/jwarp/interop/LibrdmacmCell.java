package org.jwarp.interop;

import java.util.ArrayList;
import java.util.List;

/**
 * One session of a librdmacm example against jwarp's version of it: {@code ucmatose} against
 * {@code jwarp cmatose}, {@code rdma_server}/{@code rdma_client} against {@code jwarp
 * rdma-client}/{@code rdma-server}.
 *
 * @param tool        the guest's program ({@code ucmatose}, {@code rdma_server}, {@code rdma_client})
 * @param jwarpClient jwarp connects to the guest's server (else the guest's client connects to jwarp)
 * @param toolArgs    the workload options both sides take ({@code -c -C -S} for cmatose)
 * @param crc         jwarp asks for MPA CRC (else {@code --crc off})
 */
record LibrdmacmCell(String tool, boolean jwarpClient, List<String> toolArgs, boolean crc) {

    static List<LibrdmacmCell> matrix() {
        List<LibrdmacmCell> cells = new ArrayList<>();
        for (boolean jwarpClient : new boolean[] {true, false}) {
            cells.add(new LibrdmacmCell("ucmatose", jwarpClient, List.of("-c", "4", "-C", "10", "-S", "1000"), true));
            cells.add(new LibrdmacmCell("ucmatose", jwarpClient, List.of("-c", "2", "-C", "50", "-S", "65536"), true));
            cells.add(new LibrdmacmCell("ucmatose", jwarpClient, List.of("-c", "8", "-C", "20", "-S", "100"), false));
            cells.add(new LibrdmacmCell(jwarpClient ? "rdma_server" : "rdma_client", jwarpClient, List.of(), true));
        }
        return cells;
    }

    /** jwarp's command: {@code cmatose}, {@code rdma-client} or {@code rdma-server}. */
    String jwarpCommand() {
        return switch (tool) {
            case "ucmatose" -> "cmatose";
            case "rdma_server" -> "rdma-client";
            default -> "rdma-server";
        };
    }

    /** The line each side prints when it ends well. */
    String success(boolean jwarpSide) {
        return switch (tool) {
            case "ucmatose" -> "return status 0";
            case "rdma_server" -> jwarpSide ? "rdma_client: end 0" : "rdma_server: end 0";
            default -> jwarpSide ? "rdma_server: end 0" : "rdma_client: end 0";
        };
    }

    String name() {
        String args = toolArgs.isEmpty() ? "" : " " + String.join(" ", toolArgs);
        return (jwarpClient ? "jwarp " + jwarpCommand() + " -> " + tool : tool + " -> jwarp " + jwarpCommand()) + args
                + (crc ? "" : " (CRC off)");
    }
}
