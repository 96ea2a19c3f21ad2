package org.jwarp.engine.toe;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.jwarp.engine.provider.JwarpConfig;

/** {@link ToeProtocolTest} with the engine's socket calls and readiness in the io_uring layer. */
class ToeProtocolUringTest extends ToeProtocolTest {

    @Override
    JwarpConfig.SocketIo layer() {
        return JwarpConfig.SocketIo.URING;
    }

    /** The suite this class inherits really runs on its layer, not on a fallback. */
    @Test
    void theEngineSideRunsOnThisLayer() throws Exception {
        try (ManualSlot s = new ManualSlot(layer())) {
            assertEquals("uring", s.driver().layer());
        }
    }
}
