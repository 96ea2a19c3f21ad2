package org.jwarp.bench.experiments;

/**
 * What a seed paper asked and found, for one experiment: the section's title, the figure or tables
 * it reproduces (for the summary), the question and the shape of the paper's result.
 */
public record Paper(String title, String figure, String question, String shape) {
}
