package org.jwarp.bench.experiments;

import java.util.List;
import java.util.Optional;

/**
 * Every experiment, in the order {@code jwarp experiment list} and {@code all} take them: the one
 * registry that the list, the run of them all and the report find them in.
 */
public final class Experiments {

    /** The registry: adding an experiment is one line here. */
    public static final List<Experiment> ALL = List.of(new Rss(), new Latency(), new Progress(), new Overlap(),
            new CpuImpact(), new Rendezvous(), new IwarpVsTcp(), new VerbsOptions(), new Toe());

    private Experiments() {
    }

    /** The experiment called {@code name}, if there is one. */
    public static Optional<Experiment> named(String name) {
        return ALL.stream().filter(e -> e.name().equals(name)).findFirst();
    }

    /** The schemas of every experiment's results, in order. */
    public static List<String> schemas() {
        return ALL.stream().map(Experiment::schema).toList();
    }

    /** The names, in order. */
    public static List<String> names() {
        return ALL.stream().map(Experiment::name).toList();
    }
}
