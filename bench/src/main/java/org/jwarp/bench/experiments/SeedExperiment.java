package org.jwarp.bench.experiments;

/** An experiment of a seed paper: what names and describes it is given once, at construction. */
abstract class SeedExperiment implements Experiment {

    private final String name;
    private final String description;
    private final Paper paper;

    SeedExperiment(String name, String description, Paper paper) {
        this.name = name;
        this.description = description;
        this.paper = paper;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final String description() {
        return description;
    }

    @Override
    public final Paper paper() {
        return paper;
    }
}
