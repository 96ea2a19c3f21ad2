package org.jwarp.engine.io;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@link IoDriverContract} on the io_uring layer (epoll's readiness, the ring's batched writes). */
class UringIoDriverTest extends IoDriverContract {

    @BeforeAll
    static void ringsCanBeMade() {
        String why = Uring.why(false);
        assumeTrue(why == null, () -> "io_uring: " + why);
    }

    @Override
    protected IoDriver newDriver() {
        return new UringIoDriver(false);
    }

    @Override
    protected String layer() {
        return "uring";
    }

    /** Hybrid mode relies on this to decide whether an application cycle must wake the standby's sleep. */
    @Test
    void saysWhetherAPollRunsBesideASleep() {
        try (IoDriver d = newDriver()) {
            assertTrue(d.pollsBesideSleep(), "its readiness and sleep are epoll's: a poll runs beside a sleep");
        }
    }
}
