package org.jwarp.degen.testbed;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.jwarp.degen.LinkParams;
import org.jwarp.degen.RouterTuning;

/**
 * Everything the router process needs: the hosts, the two directions of the link, and how it
 * waits. Stored as a properties file so that {@code jwarp testbed up} can hand it to the
 * background degen process it starts.
 *
 * @param tuning      how the router thread waits (spin margin, real-time priority, busy polling)
 * @param ringBytes   packet buffer per direction (bounds what can be in flight: delay × rate)
 * @param statsFile   where statistics are published while running (null: only printed on exit)
 */
public record RouterConfig(Topology topology, LinkParams a2b, LinkParams b2a, RouterTuning tuning, long seed,
                           long ringBytes, Path statsFile, long statsIntervalNanos) {

    public static final long DEFAULT_RING_BYTES = 64L << 20;
    public static final long DEFAULT_STATS_INTERVAL_NANOS = 250_000_000L;

    public RouterConfig {
        if (ringBytes < 1L << 20 || ringBytes > 1L << 34) {
            throw new IllegalArgumentException("packet buffer must be between 1 MiB and 16 GiB, was " + ringBytes);
        }
    }

    public void store(Path file) throws IOException {
        Properties p = new Properties();
        Topology t = topology;
        p.setProperty("ns_a", t.nsA());
        p.setProperty("ns_b", t.nsB());
        p.setProperty("tun_a", t.tunA());
        p.setProperty("tun_b", t.tunB());
        p.setProperty("veth_a", t.vethA());
        p.setProperty("veth_b", t.vethB());
        p.setProperty("addr_a", t.addrA());
        p.setProperty("addr_b", t.addrB());
        p.setProperty("mtu_a", Integer.toString(t.mtuA()));
        p.setProperty("mtu_b", Integer.toString(t.mtuB()));
        p.setProperty("a2b", a2b.toSpec());
        p.setProperty("b2a", b2a.toSpec());
        p.setProperty("spin_min_ns", Long.toString(tuning.spinMinNanos()));
        p.setProperty("spin_max_ns", Long.toString(tuning.spinMaxNanos()));
        p.setProperty("rt_priority", Integer.toString(tuning.realtimePriority()));
        p.setProperty("busy_poll", Boolean.toString(tuning.busyPoll()));
        p.setProperty("seed", Long.toString(seed));
        p.setProperty("ring_bytes", Long.toString(ringBytes));
        p.setProperty("stats_file", statsFile == null ? "" : statsFile.toString());
        p.setProperty("stats_interval_ns", Long.toString(statsIntervalNanos));
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            p.store(w, "jwarp degen router configuration");
        }
    }

    public static RouterConfig load(Path file) throws IOException {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(r);
        }
        Topology t = new Topology(req(p, "ns_a"), req(p, "ns_b"), req(p, "tun_a"), req(p, "tun_b"), req(p, "veth_a"),
                req(p, "veth_b"), req(p, "addr_a"), req(p, "addr_b"),
                Integer.parseInt(req(p, "mtu_a")), Integer.parseInt(req(p, "mtu_b")));
        String stats = p.getProperty("stats_file", "");
        return new RouterConfig(t, LinkParams.passThrough().withOverrides(req(p, "a2b")),
                LinkParams.passThrough().withOverrides(req(p, "b2a")),
                new RouterTuning(Long.parseLong(req(p, "spin_min_ns")), Long.parseLong(req(p, "spin_max_ns")),
                        Integer.parseInt(req(p, "rt_priority")), Boolean.parseBoolean(req(p, "busy_poll"))),
                Long.parseLong(req(p, "seed")), Long.parseLong(req(p, "ring_bytes")),
                stats.isEmpty() ? null : Path.of(stats), Long.parseLong(req(p, "stats_interval_ns")));
    }

    private static String req(Properties p, String key) throws IOException {
        String v = p.getProperty(key);
        if (v == null) {
            throw new IOException("router configuration lacks '" + key + "'");
        }
        return v;
    }
}
