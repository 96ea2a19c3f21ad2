package org.jwarp.bench.experiments;

import static org.jwarp.bench.experiments.Rows.f;

/** Receive-side scaling (seed 004): wake-ups and batching as connections are added. */
final class Rss extends SeedExperiment {

    Rss() {
        super("rss", "seed 004: connections x engine threads x steering (RSS, round robin, one) x "
                + "moderation; throughput, wake-ups, FPDUs per wake-up, CPU per KiB",
                new Paper("Receive-Side Scaling (seed 004)", "seed 004",
                    "How do connections spread over engine threads by RSS, round robin or all on one, and what does "
                            + "interrupt (event) moderation change in wake-ups and batching?",
                    "With more connections per thread each wake-up finds more work (fewer wake-ups, more packets per "
                            + "wake-up); RSS spreads connections over the threads; moderation cuts wake-ups further."));
    }

    @Override
    public Verdict verdict(RunResult e) {
        int engines = e.column("engines");
        int steering = e.column("steering");
        int moderated = e.column("moderated");
        int connections = e.column("connections");
        int wakeups = e.column("wakeups_per_s");
        String[] few = null;
        String[] many = null;
        for (String[] r : e.rows()) {
            if (r[engines].equals("1") && r[moderated].equals("false") && r[steering].equals("rss")) {
                if (few == null || Integer.parseInt(r[connections]) < Integer.parseInt(few[connections])) {
                    few = r;
                }
                if (many == null || Integer.parseInt(r[connections]) > Integer.parseInt(many[connections])) {
                    many = r;
                }
            }
        }
        if (few == null || few == many) {
            return Verdict.none("the run has fewer than two connection counts on one engine thread.");
        }
        double a = Double.parseDouble(few[wakeups]);
        double b = Double.parseDouble(many[wakeups]);
        String headline = f("wake-ups per second on one engine thread, %s → %s connections: %.0f → %.0f",
                few[connections], many[connections], a, b);
        return new Verdict(b < a ? Verdict.Outcome.REPRODUCED : Verdict.Outcome.NOT, headline,
                "W" + headline.substring(1) + " — " + (b < a ? "they fall as connections are added, as the paper's "
                + "batching argument predicts." : "they do not fall here."));
    }
}
