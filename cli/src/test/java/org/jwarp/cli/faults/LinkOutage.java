package org.jwarp.cli.faults;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jwarp.degen.testbed.Testbed;
import org.jwarp.degen.testbed.Topology;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.QpState;

/**
 * A link that goes down under traffic and comes back: {@link QpFlows} and {@link SocketFlows} run
 * side by side over the testbed's degen link, degen drops every packet for the cut's length, and
 * each flow is followed until it has moved data again for a second after the link came back, or
 * has failed.
 */
public final class LinkOutage {

    /** Traffic before the cut, so that every flow is in full swing. */
    private static final long BEFORE_NANOS = 2_000_000_000L;
    /** Data moving this long after the link came back counts as "carried on". */
    private static final long CARRIED_NANOS = 1_000_000_000L;

    private LinkOutage() {
    }

    /**
     * One row per flow.
     *
     * @param outcome   "carried on" or "failed: ..."
     * @param seconds   carried on: the longest stall (s); failed: seconds from the cut to the failure
     * @param events    the CM events after the connection was established (jwarp), or "-"
     */
    public record Row(String cut, String stack, String flow, String outcome, double seconds, long ok, long flushed,
                      boolean exactlyOnce, long bytesVerified, String mismatch, String events) {

        public String markdown() {
            return String.format(Locale.ROOT, "| %s | %s | %s | %s | %.1f | %d | %d | %s | %s | %s |", cut, stack, flow, outcome,
                    seconds, ok, flushed, exactlyOnce ? "yes" : "NO",
                    mismatch != null ? "MISMATCH: " + mismatch : bytesVerified == 0 ? "none (the WRITE target is checked after a fence)"
                    : bytesVerified / 1024 + " KiB, all match", events);
        }
    }

    public static final String HEADER = "| link down | stack | flow | outcome | stall or time to failure (s) | completed OK | "
            + "flushed | each exactly once | bytes checked | CM events after setup |\n|---|---|---|---|---|---|---|---|---|---|";

    /** Cuts testbed {@code tb}'s link for {@code cutNanos} under both kinds of flow; gives up {@code patienceNanos} after it is back. */
    public static List<Row> run(Testbed tb, Topology t, long cutNanos, long patienceNanos, DeviceConfig config, PrintWriter log)
            throws Exception {
        String cut = org.jwarp.degen.Units.formatNanos(cutNanos);
        try (QpFlows qp = QpFlows.open(t.nsA(), t.nsB(), t.addrB(), config);
             SocketFlows so = SocketFlows.open(t.nsA(), t.nsB(), t.addrB())) {
            java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
            java.util.function.BooleanSupplier keep = () -> !stop.get();
            Thread driver = Thread.ofPlatform().name("faults-qp-driver").start(() -> {
                try {
                    qp.run(keep);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            Thread sockets = Thread.ofPlatform().name("faults-socket-flows").start(() -> {
                try {
                    so.run(keep, 30_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            Thread.sleep(BEFORE_NANOS / 1_000_000);
            tb.cut(cutNanos);
            long cutAt = System.nanoTime();
            long backAt = cutAt + cutNanos;
            log.printf(Locale.ROOT, "link down for %s ...%n", cut);
            log.flush();
            long deadline = backAt + patienceNanos;
            List<FlowRecord> all = new ArrayList<>(qp.records());
            all.addAll(so.records());
            while (System.nanoTime() < deadline) {
                boolean settled = true;
                List<QpState> states = qp.states();
                for (int i = 0; i < all.size(); i++) {
                    FlowRecord r = all.get(i);
                    boolean failed = i < 3 ? states.get(i) == QpState.ERROR : r.error() != null;
                    boolean carried = r.progressAt - backAt > CARRIED_NANOS;
                    settled &= failed || carried;
                }
                if (settled) {
                    break;
                }
                Thread.sleep(50);
            }
            stop.set(true);
            driver.join();
            sockets.join();
            List<Row> rows = new ArrayList<>();
            List<List<String>> events = qp.events();
            for (int i = 0; i < all.size(); i++) {
                FlowRecord r = all.get(i);
                boolean jwarp = i < 3;
                String mismatch = r.mismatch() != null ? r.mismatch() : jwarp && i == 2 ? qp.echoError() : null;
                boolean failed = r.error() != null;
                double seconds = failed ? (r.errorAtNanos() - cutAt) / 1e9 : r.longestGapNanos() / 1e9;
                String outcome = failed ? "failed: " + r.error() : "carried on";
                String ev = jwarp ? (events.get(i).isEmpty() ? "none" : String.join(", ", events.get(i))) : "-";
                rows.add(new Row(cut, jwarp ? "jwarp" : "sockets", r.name, outcome, seconds, r.ok(), r.flushed(), r.exactlyOnce(),
                        r.bytesVerified(), mismatch, ev));
            }
            return rows;
        }
    }
}
