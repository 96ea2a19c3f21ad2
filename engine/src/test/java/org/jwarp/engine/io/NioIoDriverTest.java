package org.jwarp.engine.io;

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
}
