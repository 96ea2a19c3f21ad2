package org.jwarp.engine.toe;

import org.jwarp.engine.provider.JwarpConfig;

/** {@link ToeProtocolTest} with the engine's socket calls and readiness in the NIO layer (a selector, SocketChannel calls). */
class ToeProtocolNioTest extends ToeProtocolTest {

    @Override
    JwarpConfig.SocketIo layer() {
        return JwarpConfig.SocketIo.NIO;
    }
}
