package org.jwarp.bench.report;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import org.jwarp.bench.perf.Latency;
import org.jwarp.bench.perf.ResultRow;
import org.jwarp.bench.perf.Settings;
import org.jwarp.bench.perf.SideReport;
import org.jwarp.bench.perf.TestKind;

/**
 * perftest's screen: a banner with the setup, one row per size with perftest's columns, and a
 * footer saying whether the data was verified and where the threads ran. With {@code --cpu_util}
 * each row gains the CPU of both sides' application and engine threads and seed 001's "% of one
 * CPU per Gb/s" for the data's sending (tx) and receiving (rx) side.
 */
public final class TextReport {

    public static final String RULE = "-".repeat(87);
    private static final double MB = 1 << 20;

    private final PrintWriter out;
    private final boolean gbits;
    private final boolean cpu;
    private Settings settings;

    public TextReport(PrintWriter out, boolean gbits, boolean cpu) {
        this.out = out;
        this.gbits = gbits;
        this.cpu = cpu;
    }

    /** The banner, the setup lines and the column heads. */
    public void header(Settings s, List<String> setup) {
        settings = s;
        out.println(RULE);
        out.println(" ".repeat(20) + s.test().title());
        out.println(" Transport       : " + s.transport().description());
        for (String line : setup) {
            out.println(" " + line);
        }
        if (s.transport().isSockets()) {
            pair("Connections     : " + s.qps(), s.test().verb().isRequestResponse()
                    ? "Outstanding     : " + (s.test().isLatency() ? 1 : s.outstanding()) : null);
        } else {
            pair("Number of qps   : " + s.qps(), "Transport type  : IW");
            pair("TX depth        : " + s.txDepth(), "RX depth        : " + s.rxDepth());
            pair("CQ Moderation   : " + s.cqMod(), "Post list       : " + s.postList());
            pair("Inline data     : " + s.inline() + " bytes", s.test().verb().isRequestResponse()
                    ? "Outstand reads  : " + (s.test().isLatency() ? 1 : s.outstanding()) : null);
        }
        out.println(" Iterations      : " + iterations(s));
        out.println(RULE);
        out.println(columns(s.test()));
        out.flush();
    }

    private void pair(String a, String b) {
        out.println(b == null ? " " + a : String.format(Locale.ROOT, " %-32s %s", a, b));
    }

    static String iterations(Settings s) {
        String unit = s.test().isLatency() ? "round trips" : "messages per QP";
        if (s.timed()) {
            return String.format(Locale.ROOT, "for %.1f s per size (-D)", s.durationMillis() / 1000.0);
        }
        return s.iterations() + " " + unit + " per size" + (s.iterationsGiven() ? ""
                : " (at most " + (Settings.AUTO_BYTES_CAP >> 20) + " MiB per size without -n)");
    }

    private String columns(TestKind t) {
        String unit = gbits ? "Gb/sec" : "MB/sec";
        StringBuilder sb = new StringBuilder();
        if (t.isLatency()) {
            sb.append(" #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    "
                    + "t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec]");
        } else {
            sb.append(" #bytes     #iterations    BW peak[").append(unit).append("]    BW average[").append(unit)
                    .append("]   MsgRate[Mpps]");
        }
        if (cpu) {
            sb.append("   cli_app[%]  cli_eng[%]  srv_app[%]  srv_eng[%]");
            if (!t.isLatency()) {
                sb.append("  tx[%cpu/Gbps]  rx[%cpu/Gbps]");
            }
        }
        return sb.toString();
    }

    /** One size. */
    public void row(ResultRow r) {
        StringBuilder sb = new StringBuilder();
        Latency l = r.latency();
        if (l != null) {
            sb.append(String.format(Locale.ROOT, " %-7d %-10d %-14.2f %-14.2f %-16.2f %-14.2f %-15.2f %-22.2f %-22.2f",
                    r.size(), r.iterations(), l.min(), l.max(), l.typical(), l.avg(), l.stdev(), l.p99(), l.p999()));
        } else {
            double k = gbits ? 8 / 1e9 : 1 / MB;
            sb.append(String.format(Locale.ROOT, " %-10d %-14d %-18.2f %-20.2f %-13.6f", r.size(), r.iterations(),
                    r.bwPeak() * k, r.bwAverage() * k, r.msgRate() / 1e6));
        }
        if (cpu) {
            sb.append(String.format(Locale.ROOT, "   %-11.1f %-11.1f %-11.1f %-11.1f", ResultRow.appPercent(r.client()),
                    ResultRow.enginePercent(r.client()), ResultRow.appPercent(r.server()),
                    ResultRow.enginePercent(r.server())));
            if (l == null) {
                sb.append(String.format(Locale.ROOT, " %-14.1f %-14.1f", r.cpuPerGbps(r.tx(), false),
                        r.cpuPerGbps(r.rx(), false)));
            }
        }
        out.println(sb.toString().stripTrailing());
        out.flush();
    }

    /** The closing rule, the verification, the threads and, with CPU columns, what they mean. */
    public void footer(List<ResultRow> rows, List<String> threads) {
        out.println(RULE);
        out.println(" Data verified   : " + verification(rows));
        for (int i = 0; i < threads.size(); i++) {
            out.println((i == 0 ? " Threads         : " : "                   ") + threads.get(i));
        }
        if (cpu) {
            out.println(" CPU             : % of one CPU over each side's measured interval, per thread (user +"
                    + " system time:");
            out.println("                   kernel TCP work in a thread's context counts for it); eng = the side's"
                    + " engine threads");
            if (settings != null && !settings.test().isLatency()) {
                out.println("                   tx/rx: % of one CPU per Gb/s (seed 001) of the side sending/receiving"
                        + " the data,");
                out.println("                   application + engine threads (for READ the server sends)");
            }
        }
        out.println(RULE);
        out.flush();
    }

    /** "yes (...)" or "NO: ..." for the footer. */
    public static String verification(List<ResultRow> rows) {
        if (rows.isEmpty()) {
            return "no sizes ran";
        }
        for (ResultRow r : rows) {
            if (!r.verified()) {
                return "NO: size " + r.size() + ": " + (r.failure() != null ? r.failure() : "nothing was checked");
            }
        }
        ResultRow last = rows.getLast();
        return "yes, every size (client: " + what(last.client()) + "; server: " + what(last.server()) + ")";
    }

    private static String what(SideReport s) {
        return s.verified() == SideReport.VERIFIED ? s.detail() : "nothing to check";
    }
}
