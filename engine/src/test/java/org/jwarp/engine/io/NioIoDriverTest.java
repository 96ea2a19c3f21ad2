package org.jwarp.engine.io;

import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.api.Test;

/** {@link IoDriverContract} on the NIO layer. */
class NioIoDriverTest extends IoDriverContract {

    @Override
    protected IoDriver newDriver() {
        return new NioIoDriver(() -> 0L);
    }

    @Override
    protected String layer() {
        return "nio";
    }

    /** Hybrid mode relies on this to decide whether an application cycle must wake the standby's sleep. */
    @Test
    void saysWhetherAPollRunsBesideASleep() {
        try (IoDriver d = newDriver()) {
            assertFalse(d.pollsBesideSleep(), "a selector holds its lock through a sleep: a poll must wake the sleeper first");
        }
    }
}
