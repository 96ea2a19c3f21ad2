package org.jwarp.engine.io;

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
}
