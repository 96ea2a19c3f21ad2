package org.jwarp.engine.affinity;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Where a device's engine threads run on a NUMA machine (seed 004: threads and the buffers they
 * touch on one node): engine threads are spread over the nodes that have CPUs the process may use,
 * one node after another, each pinned to a CPU of its node not given to another engine thread. The
 * buffers an engine thread's connections use are then preferred on that node
 * ({@link MemoryPolicy}).
 */
public final class NumaPlacement {

    private NumaPlacement() {
    }

    /** Engine thread {@code i} runs on {@code cpus.get(i)}, on node {@code nodes.get(i)} (-1: unknown). */
    public record Plan(List<Integer> cpus, List<Integer> nodes) {
    }

    /** Seed 004: {@code engines} threads over the NUMA nodes of the CPUs this process may use. */
    public static Plan planHere(int engines) {
        Cpus allowed = ThreadAffinity.isSupported() ? ThreadAffinity.getAffinity().orElse(null) : null;
        if (allowed == null || allowed.isEmpty()) {
            int[] all = new int[Runtime.getRuntime().availableProcessors()];
            for (int i = 0; i < all.length; i++) {
                all[i] = i;
            }
            allowed = Cpus.of(all);
        }
        return plan(NumaTopology.read(), allowed, engines);
    }

    /**
     * The plan for {@code engines} engine threads on {@code allowed} CPUs. With an unknown
     * topology, or one node, the allowed CPUs in order. Engine threads outnumbering the allowed
     * CPUs share them in turn.
     *
     * @throws IllegalArgumentException if no CPU is allowed or {@code engines} is below 1
     */
    public static Plan plan(NumaTopology topology, Cpus allowed, int engines) {
        if (allowed.isEmpty() || engines < 1) {
            throw new IllegalArgumentException("a placement needs allowed CPUs and engine threads: " + allowed + ", "
                    + engines);
        }
        List<List<Integer>> perNode = new ArrayList<>();
        List<Integer> nodeIds = new ArrayList<>();
        for (Map.Entry<Integer, Cpus> n : topology.nodes().entrySet()) {
            List<Integer> cpus = new ArrayList<>();
            for (int cpu : n.getValue().toArray()) {
                if (allowed.contains(cpu)) {
                    cpus.add(cpu);
                }
            }
            if (!cpus.isEmpty()) {
                perNode.add(cpus);
                nodeIds.add(n.getKey());
            }
        }
        if (perNode.isEmpty()) {                    // unknown topology: the allowed CPUs, node unknown
            List<Integer> cpus = new ArrayList<>();
            for (int cpu : allowed.toArray()) {
                cpus.add(cpu);
            }
            perNode.add(cpus);
            nodeIds.add(-1);
        }
        List<Integer> cpus = new ArrayList<>();
        List<Integer> nodes = new ArrayList<>();
        int[] used = new int[perNode.size()];
        for (int i = 0; i < engines; i++) {
            int n = i % perNode.size();
            List<Integer> nodeCpus = perNode.get(n);
            cpus.add(nodeCpus.get(used[n]++ % nodeCpus.size()));
            nodes.add(nodeIds.get(n));
        }
        return new Plan(List.copyOf(cpus), List.copyOf(nodes));
    }
}
