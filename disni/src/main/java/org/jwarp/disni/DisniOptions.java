package org.jwarp.disni;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jwarp.engine.provider.JwarpConfig;
import org.jwarp.engine.provider.JwarpConfigBuilder;
import org.jwarp.verbs.DeviceConfig;

/**
 * How jwarp's device options reach a DiSNI program that cannot pass a {@link DeviceConfig}: system
 * properties {@code jwarp.<name>}, or the environment variable {@value #ENV} holding
 * {@code name=value} pairs separated by commas or spaces. A property wins over the variable. They
 * are DiSNI's launch options, read here only: the engine itself reads none.
 *
 * <table>
 * <caption>options</caption>
 * <tr><th>name</th><th>values</th><th>device option</th></tr>
 * <tr><td>threading</td><td>dedicated, hybrid, invoker</td><td>{@link JwarpConfig.ThreadingMode}</td></tr>
 * <tr><td>engineThreads</td><td>1..256</td><td>engine threads (dedicated mode)</td></tr>
 * <tr><td>idle</td><td>spin, backoff, park, adaptive</td><td>{@link JwarpConfig.IdleStrategyKind}</td></tr>
 * <tr><td>socketIo</td><td>auto, nio, syscalls, uring, uring-sqpoll</td><td>{@link JwarpConfig.SocketIo}</td></tr>
 * <tr><td>crc</td><td>required, preferred, off</td><td>{@link DeviceConfig.CrcPolicy} (MPA CRC)</td></tr>
 * <tr><td>mpaRevision</td><td>1, 2</td><td>MPA revision sent</td></tr>
 * <tr><td>cpus</td><td>e.g. 2,3</td><td>engine threads' CPUs</td></tr>
 * </table>
 */
public final class DisniOptions {

    /** The environment variable with {@code name=value} pairs. */
    public static final String ENV = "JWARP_DISNI_OPTS";
    /** The prefix of the system properties. */
    public static final String PREFIX = "jwarp.";
    /** The option names, in the documented order. */
    public static final List<String> NAMES = List.of("threading", "engineThreads", "idle", "socketIo", "crc",
            "mpaRevision", "cpus");

    private DisniOptions() {
    }

    /** The device configuration the environment and the system properties ask for. */
    public static DeviceConfig fromEnvironment() {
        return toConfig(merge(System.getenv(ENV), System.getProperties()));
    }

    /** {@code env}'s pairs, then the {@code jwarp.*} properties over them. */
    static Map<String, String> merge(String env, java.util.Properties props) {
        Map<String, String> out = new LinkedHashMap<>();
        if (env != null && !env.isBlank()) {
            for (String pair : env.trim().split("[,\\s]+")) {
                int eq = pair.indexOf('=');
                if (eq <= 0) {
                    throw new IllegalArgumentException(ENV + ": '" + pair + "' is not name=value");
                }
                out.put(known(pair.substring(0, eq).trim(), ENV), pair.substring(eq + 1).trim());
            }
        }
        for (String name : NAMES) {
            String v = props.getProperty(PREFIX + name);
            if (v != null && !v.isBlank()) {
                out.put(name, v.trim());
            }
        }
        return out;
    }

    private static String known(String name, String where) {
        if (!NAMES.contains(name)) {
            throw new IllegalArgumentException(where + ": unknown option '" + name + "'; known: " + String.join(", ", NAMES));
        }
        return name;
    }

    /**
     * A configuration from option values, the rest jwarp's defaults: the MPA options in the device
     * configuration, the engine's in its {@link JwarpConfig}.
     */
    public static DeviceConfig toConfig(Map<String, String> options) {
        DeviceConfig.Builder b = DeviceConfig.builder();
        JwarpConfigBuilder j = JwarpConfig.builder();
        for (Map.Entry<String, String> e : options.entrySet()) {
            String v = e.getValue();
            switch (known(e.getKey(), "jwarp-disni")) {
                case "threading" -> j.threadingMode(parse(JwarpConfig.ThreadingMode.class, "threading", v));
                case "engineThreads" -> j.engineThreads(number("engineThreads", v));
                case "idle" -> j.idleStrategy(parse(JwarpConfig.IdleStrategyKind.class, "idle", v));
                case "socketIo" -> j.socketIo(JwarpConfig.SocketIo.parse(v));
                case "crc" -> b.crcPolicy(parse(DeviceConfig.CrcPolicy.class, "crc", v));
                case "mpaRevision" -> b.mpaRevision(number("mpaRevision", v));
                case "cpus" -> j.cpuList(cpus(v));
                default -> throw new IllegalStateException(e.getKey());
            }
        }
        return b.provider(j.build()).build();
    }

    private static <E extends Enum<E>> E parse(Class<E> type, String name, String v) {
        for (E c : type.getEnumConstants()) {
            if (c.name().replace('_', '-').equalsIgnoreCase(v) || c.name().equalsIgnoreCase(v)) {
                return c;
            }
        }
        List<String> names = new ArrayList<>();
        for (E c : type.getEnumConstants()) {
            names.add(c.name().toLowerCase(Locale.ROOT).replace('_', '-'));
        }
        throw new IllegalArgumentException("jwarp." + name + "=" + v + ": use " + String.join(", ", names));
    }

    private static int number(String name, String v) {
        try {
            return Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("jwarp." + name + "=" + v + ": not a number");
        }
    }

    private static List<Integer> cpus(String v) {
        List<Integer> out = new ArrayList<>();
        for (String s : v.split("[,:]")) {
            out.add(number("cpus", s.trim()));
        }
        return out;
    }
}
