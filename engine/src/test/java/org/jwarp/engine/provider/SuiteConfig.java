package org.jwarp.engine.provider;

import org.jwarp.verbs.DeviceConfig;

/**
 * The engine settings the tests start from: the defaults on the socket I/O layer the suite runs on,
 * with the small-message path on or off as the run says.
 * The engine's suite runs once per layer (engine/pom.xml's surefire executions set
 * {@value #SOCKET_IO_PROPERTY}); a test that names its own layer keeps it. The property chooses
 * what the tests run on, never how the engine behaves: the engine reads no system property.
 */
public final class SuiteConfig {

    /** The test run's socket I/O layer (auto, nio, syscalls, uring, uring-sqpoll); unset: auto. */
    public static final String SOCKET_IO_PROPERTY = "jwarp.test.socketIo";

    /** Set to {@code off}: this run of the suite has the small-message path off ({@link JwarpConfig#smallMessagePath()}). */
    public static final String SMALL_MESSAGE_PATH_PROPERTY = "jwarp.test.smallMessagePath";

    private SuiteConfig() {
    }

    /** {@return whether this run of the suite has the small-message path on (the default)} */
    public static boolean smallMessagePath() {
        return !"off".equals(System.getProperty(SMALL_MESSAGE_PATH_PROPERTY));
    }

    /** {@return the socket I/O layer this run of the suite is for} */
    public static JwarpConfig.SocketIo socketIo() {
        String v = System.getProperty(SOCKET_IO_PROPERTY);
        return v == null || v.isBlank() ? JwarpConfig.SocketIo.AUTO : JwarpConfig.SocketIo.parse(v);
    }

    /** {@return a builder of the engine's defaults on this run's socket I/O layer} */
    public static JwarpConfigBuilder jwarp() {
        return JwarpConfig.builder().socketIo(socketIo()).smallMessagePath(smallMessagePath());
    }

    /** {@return the device defaults with {@link #jwarp()}'s engine settings} */
    public static DeviceConfig device() {
        return DeviceConfig.builder().provider(jwarp().build()).build();
    }

    /**
     * {@code config} with its engine settings changed by {@code change}.
     *
     * @param config a device configuration
     * @param change what to change, on a builder of its engine settings
     * @return the new configuration
     */
    public static DeviceConfig withJwarp(DeviceConfig config,
                                         java.util.function.UnaryOperator<JwarpConfigBuilder> change) {
        return config.toBuilder().provider(change.apply(JwarpConfig.of(config).toBuilder()).build()).build();
    }
}
