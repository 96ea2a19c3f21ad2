package org.jwarp.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;

/** Runs the jwarp command in this JVM and keeps what it printed. */
record PerfRun(int exit, String out, String err) {

    static PerfRun of(String... args) {
        CommandLine cl = JwarpCommand.newCommandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int exit = cl.execute(args);
        return new PerfRun(exit, out.toString(), err.toString());
    }

    /** The table rows: lines of whitespace-separated numbers after the column heads. */
    List<double[]> rows() {
        List<double[]> rows = new ArrayList<>();
        boolean inTable = false;
        for (String line : out.lines().toList()) {
            if (line.startsWith(" #bytes")) {
                inTable = true;
                continue;
            }
            if (inTable && line.startsWith("---")) {
                break;
            }
            if (inTable) {
                String[] f = line.strip().split("\\s+");
                double[] v = new double[f.length];
                for (int k = 0; k < f.length; k++) {
                    v[k] = Double.parseDouble(f[k]);
                }
                rows.add(v);
            }
        }
        return rows;
    }

    /** The "Data verified" line's value. */
    String verified() {
        for (String line : out.lines().toList()) {
            if (line.startsWith(" Data verified   : ")) {
                return line.substring(" Data verified   : ".length());
            }
        }
        return null;
    }

    /** A run on a thread of its own (a server), which says when it listens. */
    static final class Background {
        private final CountDownLatch listening = new CountDownLatch(1);
        private final StringWriter out = new StringWriter();
        private final StringWriter err = new StringWriter() {
            @Override
            public void write(String str, int off, int len) {
                super.write(str, off, len);
                if (toString().contains("waiting for a client")) {
                    listening.countDown();
                }
            }
        };
        private final CompletableFuture<Integer> exit = new CompletableFuture<>();

        Background(String... args) {
            Thread.ofPlatform().name("test-server").start(() -> {
                CommandLine cl = JwarpCommand.newCommandLine();
                cl.setOut(new PrintWriter(out, true));
                cl.setErr(new PrintWriter(err, true));
                try {
                    exit.complete(cl.execute(args));
                } catch (Throwable t) {
                    exit.completeExceptionally(t);
                } finally {
                    listening.countDown();
                }
            });
        }

        /** Waits until the server listens (or ended). */
        Background awaitListening() throws InterruptedException {
            if (!listening.await(30, TimeUnit.SECONDS)) {
                throw new AssertionError("the server did not start listening: " + err);
            }
            return this;
        }

        PerfRun join() throws Exception {
            int code = exit.get(60, TimeUnit.SECONDS);
            return new PerfRun(code, out.toString(), err.toString());
        }
    }
}
