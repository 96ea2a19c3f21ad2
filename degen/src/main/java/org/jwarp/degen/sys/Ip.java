package org.jwarp.degen.sys;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs iproute2 ({@code ip}, {@code tc}) and other setup commands; a failure is an exception carrying their stderr. */
public final class Ip {

    private static final long TIMEOUT_SECONDS = 20;

    private Ip() {
    }

    /** Runs {@code ip args...}; returns its stdout. */
    public static String ip(String... args) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add("ip");
        cmd.addAll(List.of(args));
        return run(cmd);
    }

    /** Runs a command inside network namespace {@code ns} ({@code ip netns exec}). */
    public static String inNetns(String ns, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", ns));
        cmd.addAll(List.of(args));
        return run(cmd);
    }

    /** Runs a command to completion; stdout on success, an IOException with stderr otherwise. */
    public static String run(List<String> cmd) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            throw new IOException("cannot run '" + cmd.get(0) + "' (" + e.getMessage() + "); is iproute2 installed?", e);
        }
        try {
            // Outputs here are a few lines, far below the pipe buffer, so reading after the wait cannot deadlock.
            if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("'" + String.join(" ", cmd) + "' did not finish in " + TIMEOUT_SECONDS + " s");
            }
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (p.exitValue() != 0) {
                throw new IOException("'" + String.join(" ", cmd) + "' failed: " + (err.isEmpty() ? "exit " + p.exitValue() : err));
            }
            return out;
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running '" + String.join(" ", cmd) + "'", e);
        }
    }

    /** True if {@code name} is on the PATH as an executable. */
    public static boolean onPath(String name) {
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String dir : path.split(":")) {
            if (!dir.isEmpty() && java.nio.file.Files.isExecutable(java.nio.file.Path.of(dir, name))) {
                return true;
            }
        }
        return false;
    }
}
