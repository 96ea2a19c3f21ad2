package org.jwarp.degen.testbed;

import java.util.Locale;

/** What joins the two hosts. */
public enum Emulator {
    /** degen: the hosts' TUNs joined by the degen process (delay, jitter, rate, loss). */
    DEGEN,
    /** A veth pair with the kernel's token-bucket shaper on each end (rate only): the rate anchor. */
    TBF,
    /** A veth pair with netem on each end, where the kernel has sch_netem: the standard delay anchor. */
    NETEM;

    public static Emulator parse(String text) {
        try {
            return valueOf(text.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("emulator '" + text + "' is not one of degen, tbf, netem", e);
        }
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
