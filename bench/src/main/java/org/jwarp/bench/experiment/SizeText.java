package org.jwarp.bench.experiment;

/** A message size for a label or a table: {@code 1 MiB}, {@code 16 KiB}, {@code 100 B}. */
public final class SizeText {

    private SizeText() {
    }

    public static String of(long bytes) {
        if (bytes >= 1 << 20 && bytes % (1 << 20) == 0) {
            return bytes / (1 << 20) + " MiB";
        }
        return bytes >= 1024 && bytes % 1024 == 0 ? bytes / 1024 + " KiB" : bytes + " B";
    }
}
