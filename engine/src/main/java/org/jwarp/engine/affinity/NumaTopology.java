package org.jwarp.engine.affinity;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * The CPU-to-NUMA-node map, read from sysfs ({@code /sys/devices/system/node/node<N>/cpulist});
 * no libnuma. Used to place an engine thread on the node of the memory it touches (seed 001 keeps
 * the offload engine's memory traffic local to its processor board).
 *
 * <p>Where sysfs has no node directory (not Linux, a container hiding it, a kernel without NUMA)
 * the topology is {@linkplain #isKnown() unknown}: no nodes, {@link #nodeOf(int)} is -1.
 */
public final class NumaTopology {

    /** Where Linux publishes the nodes. */
    public static final Path SYSFS_NODES = Path.of("/sys/devices/system/node");

    private final Map<Integer, Cpus> nodes;

    private NumaTopology(Map<Integer, Cpus> nodes) {
        this.nodes = Collections.unmodifiableMap(nodes);
    }

    /** Reads this machine's topology from {@link #SYSFS_NODES}. */
    public static NumaTopology read() {
        return read(SYSFS_NODES);
    }

    /**
     * Reads the {@code node<N>/cpulist} files under {@code nodesDir}.
     *
     * @return an unknown topology if {@code nodesDir} does not exist
     * @throws UncheckedIOException     if a directory or file exists but cannot be read
     * @throws IllegalArgumentException if a cpulist file is malformed (names the file)
     */
    public static NumaTopology read(Path nodesDir) {
        Map<Integer, Cpus> nodes = new TreeMap<>();
        if (!Files.isDirectory(nodesDir)) {
            return new NumaTopology(nodes);
        }
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(nodesDir, "node*")) {
            for (Path dir : dirs) {
                int node = nodeNumber(dir.getFileName().toString());
                Path cpulist = dir.resolve("cpulist");
                if (node < 0 || !Files.isRegularFile(cpulist)) {
                    continue;                                   // e.g. a stray "nodeX" entry
                }
                String text = Files.readString(cpulist);
                try {
                    nodes.put(node, Cpus.parseSysfs(text));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("malformed " + cpulist + ": " + e.getMessage(), e);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the NUMA nodes under " + nodesDir, e);
        }
        return new NumaTopology(nodes);
    }

    private static int nodeNumber(String name) {
        if (name.length() <= 4 || name.length() > 9) {
            return -1;
        }
        for (int i = 4; i < name.length(); i++) {
            if (name.charAt(i) < '0' || name.charAt(i) > '9') {
                return -1;
            }
        }
        return Integer.parseInt(name.substring(4));
    }

    /** Whether any node was found. */
    public boolean isKnown() {
        return !nodes.isEmpty();
    }

    /** Node number to its CPUs, ascending by node; a memory-only node maps to {@link Cpus#EMPTY}. */
    public Map<Integer, Cpus> nodes() {
        return nodes;
    }

    /** The node holding {@code cpu}, or -1 if none does (or the topology is unknown). */
    public int nodeOf(int cpu) {
        for (Map.Entry<Integer, Cpus> e : nodes.entrySet()) {
            if (e.getValue().contains(cpu)) {
                return e.getKey();
            }
        }
        return -1;
    }

    /** The CPUs of {@code node}, or {@link Cpus#EMPTY} if there is no such node. */
    public Cpus cpusOf(int node) {
        return nodes.getOrDefault(node, Cpus.EMPTY);
    }

    @Override
    public String toString() {
        return "NumaTopology" + nodes;
    }
}
