package org.jwarp.engine.io;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@link IoDriverContract} on the system calls layer (epoll, an eventfd, sendmsg and readv). */
class EpollIoDriverTest extends IoDriverContract {

    @Override
    protected IoDriver newDriver() {
        return new EpollIoDriver();
    }

    @Override
    protected String layer() {
        return "syscalls";
    }

    /** Hybrid mode relies on this to decide whether an application cycle must wake the standby's sleep. */
    @Test
    void saysWhetherAPollRunsBesideASleep() {
        try (IoDriver d = newDriver()) {
            assertTrue(d.pollsBesideSleep(), "epoll takes no lock through a sleep: a poll runs beside it");
        }
    }
}
