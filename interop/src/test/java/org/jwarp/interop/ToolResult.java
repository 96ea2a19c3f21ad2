package org.jwarp.interop;

/**
 * What one session between jwarp and one of rdma-core's tools (perftest, the librdmacm examples)
 * did: passed, or the one line saying why not, and everything both sides printed.
 */
record ToolResult(String name, boolean pass, String detail, String log) {
}
