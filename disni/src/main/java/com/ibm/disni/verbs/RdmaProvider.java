package com.ibm.disni.verbs;

import java.io.IOException;

/** The provider of the verbs and the connection manager: jwarp, with no native library. */
public abstract class RdmaProvider {
    private static RdmaProvider provider;

    protected RdmaProvider() {
    }

    public static synchronized RdmaProvider provider() throws IOException {
        if (provider == null) {
            provider = new JwarpProvider();
        }
        return provider;
    }

    public abstract RdmaCm openCm() throws IOException;

    public abstract RdmaVerbs openVerbs() throws IOException;

    public abstract int getVersion();
}
