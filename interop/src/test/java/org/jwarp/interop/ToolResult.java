package org.jwarp.interop;

/**
 * What one session between jwarp and one of rdma-core's tools (perftest, the librdmacm examples)
 * did: passed, refused as expected (the reason in {@code detail}), or the one line saying why it
 * failed; and everything both sides printed.
 */
record ToolResult(String name, boolean pass, boolean refused, String detail, String log) {

    ToolResult(String name, boolean pass, String detail, String log) {
        this(name, pass, false, detail, log);
    }

    /** The report's mark: ok, refused or FAIL. */
    String mark() {
        return !pass ? "FAIL" : refused ? "refused" : "ok";
    }
}
