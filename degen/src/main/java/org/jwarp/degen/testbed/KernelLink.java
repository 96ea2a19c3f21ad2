package org.jwarp.degen.testbed;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jwarp.degen.JitterDistribution;
import org.jwarp.degen.LinkParams;
import org.jwarp.degen.sys.Ip;

/**
 * The kernel anchors: the two hosts joined by a veth pair, each end shaped by a qdisc on its
 * egress — tbf (rate only) or netem (delay, jitter, rate, loss). With no rate and no delay, tbf
 * mode is a plain veth pair: the baseline for degen's forwarding throughput.
 */
final class KernelLink {

    private KernelLink() {
    }

    static void create(Emulator emulator, RouterConfig c) throws IOException {
        Topology t = c.topology();
        if (emulator == Emulator.TBF) {
            for (LinkParams p : new LinkParams[] {c.a2b(), c.b2a()}) {
                if (p.delayNanos() > 0 || p.jitterNanos() > 0 || p.loss() > 0) {
                    throw new TestbedException("--emulator tbf only limits the rate; delay, jitter and loss need degen (or netem where the kernel has it)");
                }
            }
        }
        Ip.ip("link", "add", t.vethA(), "netns", t.nsA(), "type", "veth", "peer", "name", t.vethB(), "netns", t.nsB());
        HostNetwork.attach(t.nsA(), t.vethA(), t.addrA(), t.addrB(), t.mtuA(), false);
        HostNetwork.attach(t.nsB(), t.vethB(), t.addrB(), t.addrA(), t.mtuB(), false);
        shape(emulator, t.nsA(), t.vethA(), c.a2b(), t.mtuA());
        shape(emulator, t.nsB(), t.vethB(), c.b2a(), t.mtuB());
    }

    private static void shape(Emulator emulator, String ns, String dev, LinkParams p, int mtu) throws IOException {
        List<String> tc = new ArrayList<>(List.of("tc", "qdisc", "add", "dev", dev, "root"));
        if (emulator == Emulator.TBF) {
            if (p.rateBitsPerSecond() == 0) {
                return; // a plain veth end
            }
            // A bucket of 1 ms at the rate (at least two frames): small enough that the shaper's
            // burst does not skew a seconds-long measurement, large enough for hrtimer wake-ups.
            long burst = Math.max(p.rateBitsPerSecond() / 8 / 1000, 2L * (mtu + 14));
            tc.addAll(List.of("tbf", "rate", p.rateBitsPerSecond() + "bit", "burst", Long.toString(burst),
                    "limit", Long.toString(Math.max(p.queueLimitBytes(), burst))));
        } else {
            tc.add("netem");
            tc.addAll(List.of("delay", (p.delayNanos() / 1000) + "us"));
            if (p.jitterNanos() > 0) {
                tc.add((p.jitterNanos() / 1000) + "us");
                if (p.jitter() == JitterDistribution.NORMAL) {
                    tc.addAll(List.of("distribution", "normal"));
                }
            }
            if (p.rateBitsPerSecond() > 0) {
                tc.addAll(List.of("rate", p.rateBitsPerSecond() + "bit"));
            }
            if (p.loss() > 0) {
                tc.addAll(List.of("loss", String.format(Locale.ROOT, "%.6f%%", p.loss() * 100)));
            }
            tc.addAll(List.of("limit", "100000"));
        }
        try {
            Ip.inNetns(ns, tc.toArray(String[]::new));
        } catch (IOException e) {
            if (emulator == Emulator.NETEM && e.getMessage() != null && e.getMessage().contains("qdisc kind is unknown")) {
                throw new TestbedException("this kernel has no netem (sch_netem is not built or loadable); use --emulator degen", e);
            }
            throw e;
        }
    }
}
