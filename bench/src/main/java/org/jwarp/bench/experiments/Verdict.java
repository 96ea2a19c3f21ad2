package org.jwarp.bench.experiments;

import java.util.List;

/**
 * Whether a run reproduced its paper's finding: the outcome, a headline for the summary, the
 * sentence that names the numbers it rests on, and (where the paper gives numbers) the paper's
 * numbers beside ours as a small table ({@code comparisonHeader} empty: none).
 */
public record Verdict(Outcome outcome, String headline, String text, List<String> comparisonHeader,
               List<List<String>> comparison) {

    /** How far a run reproduced the paper's finding. */
    public enum Outcome {
        REPRODUCED("reproduced"), PARTLY("partly"), NOT("not reproduced"), NONE("no verdict");

        private final String label;

        Outcome(String label) {
            this.label = label;
        }

        /** As the report names it. */
        public String label() {
            return label;
        }

        /** The CSS class of its badge. */
        public String css() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    public Verdict(Outcome outcome, String headline, String text) {
        this(outcome, headline, text, List.of(), List.of());
    }

    /** No verdict: the run lacks what the comparison needs. */
    public static Verdict none(String why) {
        return new Verdict(Outcome.NONE, why, "No verdict: " + why);
    }

    /** Reproduced if every one of {@code total} checks held, partly if some did, not if none. */
    static Outcome of(int held, int total) {
        return total == 0 ? Outcome.NONE : held == total ? Outcome.REPRODUCED : held > 0 ? Outcome.PARTLY : Outcome.NOT;
    }

    Verdict withComparison(List<String> header, List<List<String>> rows) {
        return new Verdict(outcome, headline, text, header, rows);
    }
}
