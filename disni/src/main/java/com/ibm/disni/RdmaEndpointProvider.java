package com.ibm.disni;

import com.ibm.disni.verbs.IbvContext;
import com.ibm.disni.verbs.IbvPd;
import java.io.IOException;
import java.util.HashMap;

/** Hands out one protection domain per device context, shared by the process's endpoints on it. */
public class RdmaEndpointProvider {
    private static RdmaEndpointProvider provider;

    protected HashMap<Integer, IbvPd> pdMap = new HashMap<>();

    private RdmaEndpointProvider() {
    }

    public static synchronized RdmaEndpointProvider getEndpointProvider() throws IOException {
        if (provider == null) {
            provider = new RdmaEndpointProvider();
        }
        return provider;
    }

    public synchronized IbvPd createProtectionDomain(RdmaEndpoint endpoint) throws IOException {
        return createProtectionDomain(endpoint.getIdPriv().getVerbs());
    }

    public synchronized IbvPd createProtectionDomain(RdmaServerEndpoint<?> endpoint) throws IOException {
        return createProtectionDomain(endpoint.getIdPriv().getVerbs());
    }

    public synchronized IbvPd createProtectionDomain(IbvContext context) throws IOException {
        if (context == null) {
            throw new IOException("createProtectionDomain: no device context");
        }
        IbvPd pd = pdMap.get(context.getCmd_fd());
        if (pd == null || !pd.isOpen()) {
            pd = context.allocPd();
            pdMap.put(context.getCmd_fd(), pd);
        }
        return pd;
    }
}
