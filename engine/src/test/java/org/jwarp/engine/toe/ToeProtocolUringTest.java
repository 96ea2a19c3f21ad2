package org.jwarp.engine.toe;

import org.jwarp.verbs.DeviceConfig;

/** {@link ToeProtocolTest} with the engine's socket calls and readiness in the io_uring layer. */
class ToeProtocolUringTest extends ToeProtocolTest {

    @Override
    DeviceConfig.SocketIo layer() {
        return DeviceConfig.SocketIo.URING;
    }
}
