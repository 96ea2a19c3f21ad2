package org.jwarp.engine.toe;

import org.jwarp.engine.provider.JwarpConfig;

/** {@link ToeProtocolTest} with the engine's socket calls and readiness in the io_uring layer. */
class ToeProtocolUringTest extends ToeProtocolTest {

    @Override
    JwarpConfig.SocketIo layer() {
        return JwarpConfig.SocketIo.URING;
    }
}
