package org.jwarp.bench.loopback;

import java.util.ArrayList;
import java.util.List;

/** The positional arguments the loopback benchmarks share: repeats, seconds, then sizes. */
final class BenchArgs {

    private BenchArgs() {
    }

    static int repeats(String[] args, int otherwise) {
        return args.length > 0 ? Integer.parseInt(args[0]) : otherwise;
    }

    static double seconds(String[] args, double otherwise) {
        return args.length > 1 ? Double.parseDouble(args[1]) : otherwise;
    }

    /** The sizes from the third argument on, or {@code otherwise} if none are given. */
    static List<Integer> sizes(String[] args, List<Integer> otherwise) {
        List<Integer> sizes = new ArrayList<>();
        for (int i = 2; i < args.length; i++) {
            sizes.add(Integer.parseInt(args[i]));
        }
        return sizes.isEmpty() ? otherwise : sizes;
    }
}
