package com.ibm.disni;

import com.ibm.disni.verbs.RdmaCmId;
import java.io.IOException;

/** Makes a group's endpoints: for {@code createEndpoint()} (client side) and for each accepted connection (server side). */
public interface RdmaEndpointFactory<C extends RdmaEndpoint> {
    C createEndpoint(RdmaCmId idPriv, boolean serverSide) throws IOException;
}
