package org.jwarp.disni;

import org.jwarp.verbs.RdmaDevice;

/**
 * The one jwarp device behind every DiSNI object of the process: DiSNI's {@code IbvContext} is the
 * RNIC that an address resolves to, and over jwarp every address resolves to this one device. Opened
 * on first use with {@link DisniOptions#fromEnvironment()}, closed when the JVM exits.
 */
public final class DisniDevice {

    private static RdmaDevice device;

    private DisniDevice() {
    }

    /** The device, opened on first use. */
    public static synchronized RdmaDevice get() {
        if (device == null) {
            RdmaDevice d = RdmaDevice.open(DisniOptions.fromEnvironment());
            Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().name("jwarp-disni-close").unstarted(d::close));
            device = d;
        }
        return device;
    }
}
