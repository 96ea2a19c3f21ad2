package org.jwarp.interop;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The siw guest of the interop harness ({@code interop/harness}: build-vm.sh, start-vm.sh,
 * guest-run.sh, stop-vm.sh), driven from Java. The guest sees the host's JDK at {@code /opt/jdk}
 * ({@code java} is on its PATH) and this checkout, read-only, at {@link #GUEST_REPO}. Every call has a host-side time limit, so a wedged
 * guest fails a test instead of hanging it.
 *
 * <p>Ports (harness README): the host reaches guest port P at {@code 127.0.0.1:P} (P in 7174, 7471,
 * 18515, 20000-20003); the guest reaches a host listener on {@code 127.0.0.1:P} at
 * {@code 10.0.2.100:P} (P in 21000-21003, 27174, 27471, 28515). The slirp hop accepts a guest
 * connection even when nothing listens on the host, so a host server must listen before a guest
 * client connects (and siw 6.1 oopses when a connection is closed before its MPA Reply).
 */
final class SiwVm implements AutoCloseable {

    /** The guest's address for the host: what a guest client connects to. */
    static final String HOST_FROM_GUEST = "10.0.2.100";
    /** Guest port reachable from the host at 127.0.0.1 (rping's default). */
    static final int GUEST_RPING_PORT = 7174;
    /** Host port reachable from the guest at 10.0.2.100. */
    static final int HOST_RPING_PORT = 27174;
    /** perftest's port in the guest (host to guest), and the host's port the guest reaches. */
    static final int GUEST_PERFTEST_PORT = 18515;
    static final int HOST_PERFTEST_PORT = 28515;
    /** Where the guest sees the repository (start-vm.sh's {@code IWARP_VM_SHARE}, read-only). */
    static final String GUEST_REPO = "/mnt/host";
    /** The siw builds the harness offers (build-vm.sh). */
    static final List<String> VARIANTS = List.of("stock", "crc", "p2p", "crc-p2p", "mpav1", "strict");

    /** What a command printed (stdout and stderr merged) and its exit status; -1 if it timed out. */
    record Result(int exit, String output) {
        boolean ok() {
            return exit == 0;
        }
    }

    private final Path harness;
    private final Path repo;
    private boolean running;
    private Thread hook;

    private SiwVm(Path harness, Path repo) {
        this.harness = harness;
        this.repo = repo;
    }

    /**
     * Finds the harness: the repository's own {@code interop/harness} first, then
     * {@code -Djwarp.interop.harness} and {@code $JWARP_INTEROP_HARNESS} (for a run outside a checkout).
     *
     * @throws IllegalStateException naming the places tried
     */
    static SiwVm locate() {
        List<Path> tried = new ArrayList<>();
        String prop = System.getProperty("jwarp.interop.harness");
        String env = System.getenv("JWARP_INTEROP_HARNESS");
        Path root = Path.of(System.getProperty("jwarp.root", ".")).toAbsolutePath().normalize();
        for (String p : new String[] {root.resolve("interop/harness").toString(), prop, env}) {
            if (p == null || p.isBlank()) {
                continue;
            }
            Path dir = Path.of(p).toAbsolutePath().normalize();
            tried.add(dir);
            if (Files.isRegularFile(dir.resolve("start-vm.sh")) && Files.isRegularFile(dir.resolve("guest-run.sh"))) {
                return new SiwVm(dir, root);
            }
        }
        throw new IllegalStateException("the siw VM harness (start-vm.sh, guest-run.sh) is not in any of " + tried
                + "; set JWARP_INTEROP_HARNESS to its folder");
    }

    Path harness() {
        return harness;
    }

    /** True if the cache holds the image this harness builds (common.sh's image key names its folder). */
    boolean imageBuilt() {
        Result r = run(Duration.ofSeconds(30), List.of("bash", "-c", "HERE=\"$0\"; . \"$0/common.sh\"; printf %s \"$IWARP_VM_IMAGE\"",
                harness.toString()));
        if (!r.ok()) {
            return false;
        }
        Path image = Path.of(r.output().strip());
        return Files.isRegularFile(image.resolve("vmlinuz")) && Files.isRegularFile(image.resolve("initrd.img"));
    }

    /**
     * Builds the image if the cache lacks this harness's version of it, then boots the guest with
     * the repository shared at {@link #GUEST_REPO}, and stops it again when the JVM exits (a
     * shutdown hook, in case {@link #close()} is never reached).
     *
     * @throws IllegalStateException with the harness's own explanation if building or booting fails
     */
    void start() {
        Result b = script(Duration.ofMinutes(15), "build-vm.sh", "--if-missing");
        if (!b.ok()) {
            throw new IllegalStateException("building the siw VM image failed (exit " + b.exit() + "):\n" + tail(b.output(), 30));
        }
        hook = new Thread(this::stop, "siw-vm-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        running = true;
        Result s = script(Duration.ofMinutes(5), "start-vm.sh");
        if (!s.ok()) {
            stop();
            throw new IllegalStateException("booting the siw VM failed (exit " + s.exit() + "):\n" + tail(s.output(), 30));
        }
    }

    /** Stops and boots the guest again (after siw wedged it); siw comes back as the stock variant. */
    void restart() {
        stop();
        Result s = script(Duration.ofMinutes(5), "start-vm.sh");
        running = true;
        if (!s.ok()) {
            stop();
            throw new IllegalStateException("rebooting the siw VM failed (exit " + s.exit() + "):\n" + tail(s.output(), 30));
        }
    }

    /** Stops the guest (only the qemu the harness started). Idempotent. */
    synchronized void stop() {
        if (running) {
            running = false;
            script(Duration.ofSeconds(30), "stop-vm.sh");
        }
    }

    @Override
    public void close() {
        stop();
        if (hook != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running or has run: nothing left to do
            }
        }
    }

    /** Runs {@code command} with sh -c in the guest, killed there after {@code limit}. */
    Result guest(Duration limit, String command) {
        // the guest kills the command at the limit; the host waits a little longer for the agent
        return run(limit.plusSeconds(15), List.of("bash", harness.resolve("guest-run.sh").toString(), "-t",
                Long.toString(Math.max(1, limit.toSeconds())), command));
    }

    /** Starts {@code command} in the background in the guest as job {@code name} (log /tmp/bg/NAME.log). */
    Result guestBackground(String name, String command) {
        return run(Duration.ofSeconds(30), List.of("bash", harness.resolve("guest-run.sh").toString(), "-b", name, command));
    }

    /** Stops background job {@code name}. */
    Result guestKill(String name) {
        return run(Duration.ofSeconds(30), List.of("bash", harness.resolve("guest-run.sh").toString(), "-k", name));
    }

    /** Waits until background job {@code name} has exited; false if it still runs after {@code limit}. */
    boolean awaitJob(String name, Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        do {
            Result r = guest(Duration.ofSeconds(10), "p=$(cat /tmp/bg/" + name + ".pid) && kill -0 $p 2>/dev/null"
                    + " && ! grep -q '^State:.*Z' /proc/$p/status");
            if (r.exit() == 1) {
                return true;
            }
            Thread.sleep(200);
        } while (System.nanoTime() - deadline < 0);
        return false;
    }

    /** The log of background job {@code name}. */
    String jobLog(String name) {
        return guest(Duration.ofSeconds(20), "cat /tmp/bg/" + name + ".log").output();
    }

    /**
     * Waits until something in the guest listens on TCP {@code port} (siw's listener is a kernel
     * socket, so it shows in /proc/net/tcp).
     */
    boolean awaitGuestListen(int port, Duration limit) throws InterruptedException {
        String hex = String.format("%04X", port);
        long deadline = System.nanoTime() + limit.toNanos();
        do {
            if (guest(Duration.ofSeconds(10), "grep -q ':" + hex + " 00000000:0000 0A' /proc/net/tcp").ok()) {
                return true;
            }
            Thread.sleep(100);
        } while (System.nanoTime() - deadline < 0);
        return false;
    }

    /** Reloads siw as {@code variant} (nothing may be using siw). */
    void loadVariant(String variant) {
        Result r = guest(Duration.ofSeconds(60), "siw-load " + variant);
        if (!r.ok()) {
            throw new IllegalStateException("siw-load " + variant + " failed (exit " + r.exit() + "): " + tail(r.output(), 10)
                    + healthNote());
        }
    }

    /** Empty if the guest kernel log shows no oops, else a note quoting it. */
    String healthNote() {
        Result r = guest(Duration.ofSeconds(15), "dmesg | grep -m3 -E 'BUG:|Oops|RIP:'");
        return r.ok() ? "; guest kernel: " + r.output().strip().replace('\n', ' ') : "";
    }

    private Result script(Duration limit, String name, String... args) {
        List<String> command = new ArrayList<>(List.of("bash", harness.resolve(name).toString()));
        command.addAll(List.of(args));
        return run(limit, command);
    }

    private Result run(Duration limit, List<String> command) {
        Path log = null;
        try {
            log = Files.createTempFile("siw-vm", ".log");
            ProcessBuilder pb = new ProcessBuilder(command);
            pb.environment().put("IWARP_VM_SHARE", repo.toString());
            Process p = pb.redirectErrorStream(true).redirectOutput(log.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
            boolean done = p.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS);
            if (!done) {
                p.descendants().forEach(ProcessHandle::destroy);
                p.destroy();
                p.waitFor(5, TimeUnit.SECONDS);
            }
            String out = Files.readString(log, StandardCharsets.ISO_8859_1);
            return new Result(done ? p.exitValue() : -1, done ? out : out + "\n[timed out after " + limit.toSeconds() + " s]");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(-1, "interrupted");
        } finally {
            if (log != null) {
                try {
                    Files.deleteIfExists(log);
                } catch (IOException ignored) {
                    // a temporary file left behind is harmless
                }
            }
        }
    }

    static String tail(String s, int lines) {
        List<String> all = s.lines().toList();
        return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    }
}
