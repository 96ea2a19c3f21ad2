package org.jwarp.degen.testbed;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.jwarp.degen.LinkParams;
import org.jwarp.degen.RouterTuning;
import org.jwarp.degen.StatsSnapshot;
import org.jwarp.degen.sys.Ip;
import org.jwarp.degen.sys.Libc;
import org.jwarp.degen.sys.Netns;

/**
 * The two-host testbed: host A and host B as network namespaces, joined by degen (or by a veth
 * pair with tbf or netem, the kernel anchors). State lives in {@code /run/jwarp-testbed/NAME/}:
 * <ul>
 *   <li>{@code state}: emulator, namespaces, degen's pid;</li>
 *   <li>{@code config}: the router configuration the background degen process reads;</li>
 *   <li>{@code stats}: degen's statistics, rewritten every 250 ms and kept after it exits;</li>
 *   <li>{@code degen.log}: the degen process's output.</li>
 * </ul>
 * Cleanup has three layers, so that nothing outlives the testbed: degen's shutdown hook removes
 * the namespaces when it exits (also on SIGTERM); a watchdog process ({@code tail --pid}) removes
 * them if degen dies without running hooks (SIGKILL, a JVM crash); and {@code up} removes a stale
 * testbed of the same name before creating a new one. The TUN devices need no cleanup: they
 * vanish with degen's descriptors.
 */
public final class Testbed {

    public static final Path STATE_ROOT = Path.of("/run/jwarp-testbed");
    private static final long READY_TIMEOUT_NANOS = 30_000_000_000L;
    private static final long STOP_TIMEOUT_SECONDS = 15;
    static final String DAEMON_CLASS = "org.jwarp.degen.testbed.TestbedDaemon";

    private final String name;
    private final Path dir;

    public Testbed(String name) {
        this(name, STATE_ROOT.resolve(name));
    }

    Testbed(String name, Path dir) {
        Topology.named(name, 1500, 1500); // validates the name
        this.name = name;
        this.dir = dir;
    }

    public String name() {
        return name;
    }

    public Path stateDir() {
        return dir;
    }

    public Path statsFile() {
        return dir.resolve("stats");
    }

    Path stateFile() {
        return dir.resolve("state");
    }

    Path configFile() {
        return dir.resolve("config");
    }

    Path readyFile() {
        return dir.resolve("ready");
    }

    Path pidFile() {
        return dir.resolve("pid");
    }

    public Path logFile() {
        return dir.resolve("degen.log");
    }

    /** Fails with one line if this process cannot build a testbed (not root, no iproute2, no TUN). */
    public static void requireCapable() throws TestbedException {
        if (Libc.geteuid() != 0) {
            throw new TestbedException("the testbed needs root (it creates network namespaces and TUN devices); "
                    + "run it as root, or use 'jwarp degen relay' for a delay without root");
        }
        if (!Ip.onPath("ip")) {
            throw new TestbedException("the testbed needs iproute2's 'ip' on the PATH (apt-get install iproute2)");
        }
        if (!Files.exists(Path.of("/dev/net/tun"))) {
            throw new TestbedException("/dev/net/tun is missing: this kernel or container has no TUN support (modprobe tun)");
        }
    }

    /**
     * Brings the testbed up: removes a stale one of the same name, creates both hosts and joins
     * them with the chosen emulator. For degen, starts the router as a background process (pinned
     * to {@code cpus} with taskset if given) and returns once it forwards.
     *
     * @return a one-paragraph description of what is up
     */
    public String up(Emulator emulator, RouterConfig config, String cpus) throws IOException {
        requireCapable();
        if (!config.topology().equals(topologyFor(config.topology().mtuA(), config.topology().mtuB()))) {
            throw new IllegalArgumentException("router configuration is not for testbed " + name);
        }
        removeStale();
        Files.createDirectories(dir);
        Files.deleteIfExists(statsFile());
        Topology t = config.topology();
        try {
            HostNetwork.createNamespace(t.nsA());
            HostNetwork.createNamespace(t.nsB());
            writeState(emulator, -1);
            switch (emulator) {
                case DEGEN -> startDegen(config, cpus);
                case TBF, NETEM -> KernelLink.create(emulator, config);
            }
        } catch (IOException | RuntimeException e) {
            try {
                removeHosts(t);
                clearState();
            } catch (IOException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
        return describe(emulator, config);
    }

    public Topology topologyFor(int mtuA, int mtuB) {
        return Topology.named(name, mtuA, mtuB);
    }

    private static String describe(Emulator emulator, RouterConfig c) {
        Topology t = c.topology();
        return String.format(Locale.ROOT, "testbed up (%s): host A = %s in netns %s (MTU %d), host B = %s in netns %s (MTU %d)%n"
                        + "  A->B: %s%n  B->A: %s",
                emulator.label(), t.addrA(), t.nsA(), t.mtuA(), t.addrB(), t.nsB(), t.mtuB(),
                c.a2b().describe(), c.b2a().describe());
    }

    private void startDegen(RouterConfig config, String cpus) throws IOException {
        RouterConfig withStats = new RouterConfig(config.topology(), config.a2b(), config.b2a(), config.tuning(),
                config.seed(), config.ringBytes(), statsFile(), config.statsIntervalNanos());
        withStats.store(configFile());
        Files.deleteIfExists(readyFile());
        List<String> cmd = new ArrayList<>();
        if (Ip.onPath("setsid")) {
            cmd.add("setsid"); // own session: a Ctrl-C in the shell that ran 'up' does not reach degen
        }
        if (cpus != null && !cpus.isBlank()) {
            cmd.addAll(List.of("taskset", "-c", cpus));
        }
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(List.of("--enable-native-access=ALL-UNNAMED", "-XX:+UseSerialGC", "-Xms256m", "-XX:+AlwaysPreTouch",
                "-cp", classPath()));
        String extra = System.getenv("JWARP_DEGEN_JVM_OPTS"); // for diagnosing degen itself, e.g. -Xlog:safepoint
        if (extra != null && !extra.isBlank()) {
            cmd.addAll(List.of(extra.trim().split("\\s+")));
        }
        cmd.addAll(List.of(DAEMON_CLASS, dir.toString()));
        Process p = new ProcessBuilder(cmd)
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .redirectErrorStream(true)
                .redirectOutput(logFile().toFile())
                .start();
        long pid = p.pid();
        Files.writeString(pidFile(), Long.toString(pid));
        writeState(Emulator.DEGEN, pid);
        startWatchdog(pid, config.topology());
        awaitReady(p);
    }

    /** The class path of this JVM; under surefire the real one rather than its manifest-only booter jar. */
    private static String classPath() {
        String surefire = System.getProperty("surefire.test.class.path");
        return surefire != null && !surefire.isBlank() ? surefire : System.getProperty("java.class.path");
    }

    private void startWatchdog(long pid, Topology t) throws IOException {
        // Waits for degen to end; if degen could not clean up (SIGKILL, crash) and no newer
        // testbed has taken over the state, removes the hosts it left.
        String script = "tail --pid=\"$1\" -f /dev/null; "
                + "if [ \"$(cat \"$2/pid\" 2>/dev/null)\" = \"$1\" ]; then "
                + "ip netns del \"$3\" 2>/dev/null; ip netns del \"$4\" 2>/dev/null; rm -f \"$2/pid\" \"$2/ready\" \"$2/state\"; fi";
        List<String> cmd = new ArrayList<>();
        if (Ip.onPath("setsid")) {
            cmd.add("setsid");
        }
        cmd.addAll(List.of("sh", "-c", script, "jwarp-testbed-watchdog", Long.toString(pid), dir.toString(), t.nsA(), t.nsB()));
        new ProcessBuilder(cmd)
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
    }

    private void awaitReady(Process p) throws IOException {
        long deadline = System.nanoTime() + READY_TIMEOUT_NANOS;
        while (!Files.exists(readyFile())) {
            if (!p.isAlive()) {
                throw new TestbedException("degen exited during setup (exit " + p.exitValue() + "): " + lastLine(logFile()));
            }
            if (System.nanoTime() - deadline > 0) {
                p.destroy();
                throw new TestbedException("degen did not become ready within 30 s; see " + logFile());
            }
            LockSupport.parkNanos(20_000_000L);
        }
    }

    private static String lastLine(Path file) throws IOException {
        if (!Files.exists(file)) {
            return "(no output)";
        }
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        for (int i = lines.size() - 1; i >= 0; i--) {
            if (!lines.get(i).isBlank()) {
                return lines.get(i).trim();
            }
        }
        return "(no output)";
    }

    /**
     * Takes the testbed down: stops degen (SIGTERM, then SIGKILL after 15 s), removes whatever of
     * the hosts is left, and returns degen's final statistics (or a line saying there was nothing).
     */
    public String down() throws IOException {
        requireCapable();
        Optional<Properties> state = readState();
        if (state.isEmpty() && !Netns.exists(nsA()) && !Netns.exists(nsB())) {
            return "testbed " + name + " is not up; nothing to do";
        }
        stopDegen(state);
        removeHosts(topologyFor(1500, 1500));
        clearState();
        String emulator = state.map(s -> s.getProperty("emulator", "?")).orElse("?");
        StringBuilder out = new StringBuilder("testbed " + name + " (" + emulator + ") is down; hosts removed");
        if (Files.exists(statsFile())) {
            out.append(System.lineSeparator()).append(StatsSnapshot.read(statsFile()).render().stripTrailing());
        }
        return out.toString();
    }

    private void stopDegen(Optional<Properties> state) throws IOException {
        Optional<ProcessHandle> degen = state.flatMap(this::liveDegen);
        if (degen.isEmpty()) {
            return;
        }
        ProcessHandle h = degen.get();
        h.destroy();
        try {
            h.onExit().get(STOP_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            h.destroyForcibly();
            try {
                h.onExit().get(STOP_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException again) {
                throw new TestbedException("degen (pid " + h.pid() + ") does not die even on SIGKILL", again);
            } catch (InterruptedException again) {
                Thread.currentThread().interrupt();
                throw new TestbedException("interrupted while stopping degen", again);
            }
        } catch (java.util.concurrent.ExecutionException e) {
            throw new TestbedException("waiting for degen (pid " + h.pid() + ") failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TestbedException("interrupted while stopping degen", e);
        }
    }

    /** The degen process recorded in the state, if it is still alive and still ours (pids get reused). */
    private Optional<ProcessHandle> liveDegen(Properties state) {
        long pid = Long.parseLong(state.getProperty("pid", "-1"));
        if (pid <= 0) {
            return Optional.empty();
        }
        return ProcessHandle.of(pid).filter(ProcessHandle::isAlive).filter(h -> {
            try {
                String cmdline = Files.readString(Path.of("/proc", Long.toString(pid), "cmdline"), StandardCharsets.ISO_8859_1);
                return cmdline.contains(DAEMON_CLASS) && cmdline.contains(dir.toString());
            } catch (IOException e) {
                return false; // the process ended between the two checks
            }
        });
    }

    /** Removes a testbed of this name left behind by a crash; refuses if one is alive. */
    void removeStale() throws IOException {
        Optional<Properties> state = readState();
        Optional<ProcessHandle> live = state.flatMap(this::liveDegen);
        if (live.isPresent()) {
            throw new TestbedException("testbed " + name + " is already up (degen pid " + live.get().pid()
                    + "); 'jwarp testbed down' first");
        }
        if (state.isPresent() && !"degen".equals(state.get().getProperty("emulator")) && Netns.exists(nsA())) {
            throw new TestbedException("testbed " + name + " is already up (" + state.get().getProperty("emulator")
                    + "); 'jwarp testbed down' first");
        }
        removeHosts(topologyFor(1500, 1500));
        clearState();
    }

    private static void removeHosts(Topology t) throws IOException {
        HostNetwork.deleteNamespace(t.nsA());
        HostNetwork.deleteNamespace(t.nsB());
    }

    private void clearState() throws IOException {
        for (Path p : new Path[] {pidFile(), readyFile(), stateFile(), configFile()}) {
            Files.deleteIfExists(p);
        }
    }

    private String nsA() {
        return topologyFor(1500, 1500).nsA();
    }

    private String nsB() {
        return topologyFor(1500, 1500).nsB();
    }

    private void writeState(Emulator emulator, long pid) throws IOException {
        Properties p = new Properties();
        p.setProperty("emulator", emulator.label());
        p.setProperty("pid", Long.toString(pid));
        p.setProperty("ns_a", nsA());
        p.setProperty("ns_b", nsB());
        try (Writer w = Files.newBufferedWriter(stateFile(), StandardCharsets.UTF_8)) {
            p.store(w, "jwarp testbed " + name);
        }
    }

    private Optional<Properties> readState() throws IOException {
        if (!Files.exists(stateFile())) {
            return Optional.empty();
        }
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(stateFile(), StandardCharsets.UTF_8)) {
            p.load(r);
        }
        return Optional.of(p);
    }

    /** Runs a command inside host A or B with this process's stdin/stdout/stderr; returns its exit code. */
    public int exec(String host, List<String> command) throws IOException, InterruptedException {
        requireCapable();
        String ns = topologyFor(1500, 1500).netnsOf(host);
        if (!Netns.exists(ns)) {
            throw new TestbedException("host " + host.toUpperCase(Locale.ROOT) + " (netns " + ns + ") does not exist; 'jwarp testbed up' first");
        }
        if (command.isEmpty()) {
            throw new IllegalArgumentException("no command given; e.g. 'jwarp testbed exec A -- ip addr'");
        }
        List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", ns));
        cmd.addAll(command);
        String launcher = System.getenv(LAUNCHER_ENV);
        if (command.getFirst().equals("jwarp") && launcher != null && !launcher.isBlank()) {
            cmd.set(4, launcher); // "jwarp" in a host is this jwarp, whether or not it is on the PATH
        }
        return new ProcessBuilder(cmd).inheritIO().start().waitFor();
    }

    /** The file through which {@link #cut} asks the degen process to take the link down. */
    static final String CUT_FILE = "cut";

    /**
     * Takes degen's link down in both directions for {@code nanos} (every packet reaching it is
     * dropped, as if the cable were pulled), and returns once degen has done so. It comes back by
     * itself.
     */
    public void cut(long nanos) throws IOException {
        requireCapable();
        if (nanos <= 0) {
            throw new IllegalArgumentException("a cut must last more than 0 ns");
        }
        Optional<Properties> state = readState();
        if (state.isEmpty() || state.flatMap(this::liveDegen).isEmpty()) {
            throw new TestbedException("testbed " + name + " has no running degen to cut ('jwarp testbed up' with --emulator degen first)");
        }
        Path tmp = dir.resolve(CUT_FILE + ".tmp");
        Files.writeString(tmp, Long.toString(nanos));
        Files.move(tmp, dir.resolve(CUT_FILE), java.nio.file.StandardCopyOption.ATOMIC_MOVE,
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (Files.exists(dir.resolve(CUT_FILE))) {
            if (System.nanoTime() - deadline > 0) {
                throw new TestbedException("degen did not take the cut request within 5 s; see " + logFile());
            }
            LockSupport.parkNanos(2_000_000L);
        }
    }

    /** Set by the {@code jwarp} launcher script to its own path. */
    public static final String LAUNCHER_ENV = "JWARP_LAUNCHER";

    /** What is up, whether degen is alive, and its latest statistics. */
    public String status() throws IOException {
        Optional<Properties> state = readState();
        boolean hosts = Netns.exists(nsA()) || Netns.exists(nsB());
        StringBuilder out = new StringBuilder();
        if (state.isEmpty()) {
            out.append("testbed ").append(name).append(hosts ? ": stale hosts without state (run 'jwarp testbed down')" : ": not up");
        } else {
            String emulator = state.get().getProperty("emulator", "?");
            out.append("testbed ").append(name).append(" (").append(emulator).append("): hosts ")
                    .append(nsA()).append(" = 10.77.1.1, ").append(nsB()).append(" = 10.77.2.1");
            if ("degen".equals(emulator)) {
                Optional<ProcessHandle> live = liveDegen(state.get());
                out.append(live.map(h -> "; degen pid " + h.pid() + " running")
                        .orElse("; degen is gone (stale: 'jwarp testbed down' or 'up' cleans it)"));
            }
        }
        if (Files.exists(statsFile())) {
            out.append(System.lineSeparator()).append(StatsSnapshot.read(statsFile()).render().stripTrailing());
        }
        return out.toString();
    }

    /** Latest published statistics of degen, if any. */
    public Optional<StatsSnapshot> stats() throws IOException {
        return Files.exists(statsFile()) ? Optional.of(StatsSnapshot.read(statsFile())) : Optional.empty();
    }

    /** A default router configuration for this testbed: the same link both ways. */
    public RouterConfig config(LinkParams a2b, LinkParams b2a, int mtuA, int mtuB, RouterTuning tuning, long seed) {
        return new RouterConfig(topologyFor(mtuA, mtuB), a2b, b2a, tuning, seed, RouterConfig.DEFAULT_RING_BYTES,
                statsFile(), RouterConfig.DEFAULT_STATS_INTERVAL_NANOS);
    }
}
