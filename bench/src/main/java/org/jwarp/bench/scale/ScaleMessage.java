package org.jwarp.bench.scale;

import java.util.List;

/**
 * A line on the scale run's control connection (a JSON line each way): the client names an
 * {@code op}, the server answers with the same op and what it measured, or with {@code "error"}.
 *
 * @param op        setup, established, footprint, idle, pong, verify, closed, bye, error
 * @param n         the op's count (QPs, rounds, milliseconds), or the answer's
 * @param addresses setup: the loopback addresses to listen on
 * @param ports     setup's answer: the port of each address's listener
 * @param footprint the server's footprint, where the op asks for one
 * @param percent   idle's answer: the server's engine threads, % of one CPU
 * @param process   idle's answer: the server process, % of one CPU
 * @param error     what went wrong (op error)
 */
record ScaleMessage(String op, long n, List<String> addresses, List<Integer> ports, Footprint footprint,
                    double percent, double process, String error) {

    static ScaleMessage of(String op, long n) {
        return new ScaleMessage(op, n, null, null, null, 0, 0, null);
    }

    static ScaleMessage setup(long qps, List<String> addresses) {
        return new ScaleMessage("setup", qps, addresses, null, null, 0, 0, null);
    }

    static ScaleMessage ports(List<Integer> ports) {
        return new ScaleMessage("setup", ports.size(), null, ports, null, 0, 0, null);
    }

    static ScaleMessage footprint(String op, long n, Footprint f) {
        return new ScaleMessage(op, n, null, null, f, 0, 0, null);
    }

    static ScaleMessage idle(long millis, double percent, double process) {
        return new ScaleMessage("idle", millis, null, null, null, percent, process, null);
    }

    static ScaleMessage failed(String text) {
        return new ScaleMessage("error", 0, null, null, null, 0, 0, text);
    }
}
