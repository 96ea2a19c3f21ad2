package org.jwarp.engine.provider;

import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.RdmaDevice;
import org.jwarp.verbs.spi.RdmaProvider;

/** The jwarp soft RNIC: iWARP over kernel TCP, run by engine threads (or the caller's, in invoker mode). */
public final class JwarpProvider implements RdmaProvider {

    public static final String NAME = "jwarp";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public RdmaDevice open(DeviceConfig config) {
        return new JwarpDevice(config);
    }
}
