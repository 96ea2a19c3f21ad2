package org.jwarp.interop;

/**
 * What a {@link Cell} did.
 *
 * @param cell    the cell
 * @param outcome PASS (every ping validated on both sides), REFUSED (the expected refusal, with
 *                its reason shown), FAIL
 * @param detail  one line: the negotiated parameters, the reason, or what went wrong
 * @param rate    pings per second as the jwarp side measured it; 0 if none
 * @param log     everything both sides printed, for a failure report
 */
record CellResult(Cell cell, Outcome outcome, String detail, double rate, String log) {

    enum Outcome {
        PASS, REFUSED, FAIL
    }

    boolean good() {
        return outcome != Outcome.FAIL;
    }

    /** The matrix entry: "ok", "refused", "FAIL". */
    String mark() {
        return switch (outcome) {
            case PASS -> "ok";
            case REFUSED -> "refused";
            case FAIL -> "FAIL";
        };
    }
}
