package org.jwarp.bench.loopback;

/** A throughput run: bits/s, and the CPU time the sending and receiving sides used, over its wall time. */
record Result(double bitsPerSecond, long senderCpuNanos, long receiverCpuNanos, long wallNanos) {

    double gbps() {
        return bitsPerSecond / 1e9;
    }

    /** Seed 001's metric: % of one CPU per Gb/s, sender and receiver added. */
    double cpuPercentPerGbps() {
        double cpu = (senderCpuNanos + receiverCpuNanos) * 100.0 / wallNanos;
        return cpu / gbps();
    }

    double senderCpuPercent() {
        return senderCpuNanos * 100.0 / wallNanos;
    }

    double receiverCpuPercent() {
        return receiverCpuNanos * 100.0 / wallNanos;
    }
}
