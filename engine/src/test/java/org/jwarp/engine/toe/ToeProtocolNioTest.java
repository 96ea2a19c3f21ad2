package org.jwarp.engine.toe;

import org.jwarp.verbs.DeviceConfig;

/** {@link ToeProtocolTest} with the engine's socket calls and readiness in the NIO layer (a selector, SocketChannel calls). */
class ToeProtocolNioTest extends ToeProtocolTest {

    @Override
    DeviceConfig.SocketIo layer() {
        return DeviceConfig.SocketIo.NIO;
    }
}
