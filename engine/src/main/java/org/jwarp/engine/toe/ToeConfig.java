package org.jwarp.engine.toe;

/**
 * The sizes and times of the offloaded-sockets personality (seed 001, section III).
 *
 * @param sendBufferBytes      each socket's send buffer: the "kernel buffers" the host copies data
 *                             into and the engine sends from; a writer that has used it all sleeps
 *                             (a power of two, 4 KiB to 1 GiB)
 * @param sendNotifyBytes      how much of the send buffer must be free before the engine wakes a
 *                             writer that sleeps for space (the paper: 128 KB), at most
 *                             {@code sendBufferBytes}
 * @param receiveBufferBytes   the size of each anonymous receive buffer: the chunk in which received
 *                             data reaches the host (at least 512 B)
 * @param receiveBuffers       anonymous buffers per engine thread, shared by all its sockets
 * @param buffersPerSocket     anonymous buffers one socket may hold (filled, not yet read) before the
 *                             engine stops reading it: one slow reader cannot take the whole pool
 * @param fillTimeoutNanos     how long the engine keeps a partly filled buffer waiting for more data
 *                             before passing it on; 0 passes data on as soon as the socket has no
 *                             more (the paper waits until the buffer is full)
 * @param queueDepth           slots in each request queue and each event queue (a power of two)
 * @param closeLingerMillis    after a close, how long the engine keeps sending what was written
 *                             before it gives up on a peer that does not read
 * @param tcpNoDelay           TCP_NODELAY on every socket
 */
public record ToeConfig(int sendBufferBytes, int sendNotifyBytes, int receiveBufferBytes, int receiveBuffers,
                        int buffersPerSocket, long fillTimeoutNanos, int queueDepth, long closeLingerMillis,
                        boolean tcpNoDelay) {

    /**
     * 2 MiB send buffer, wake at 512 KiB free, 64 anonymous buffers of 128 KiB, 16 per socket, 200 µs
     * fill. Each hand-off between host and engine costs a wake-up, which a busy machine delays by
     * up to a scheduler slice: the bytes one hand-off may move (about what Linux lets a loopback
     * TCP socket queue) keep a stream going through such delays.
     *
     * @return the defaults
     */
    public static ToeConfig defaults() {
        return new ToeConfig(2 * 1024 * 1024, 512 * 1024, 128 * 1024, 64, 16, 200_000, 256, 30_000, false);
    }

    /**
     * Validates the sizes and times.
     *
     * @throws IllegalArgumentException naming the first size or time out of its range
     */
    public ToeConfig {
        if (sendBufferBytes < 4096 || sendBufferBytes > (1 << 30) || Integer.bitCount(sendBufferBytes) != 1) {
            throw new IllegalArgumentException("sendBufferBytes must be a power of two from 4096 to 2^30, not "
                    + sendBufferBytes);
        }
        if (sendNotifyBytes < 1 || sendNotifyBytes > sendBufferBytes) {
            throw new IllegalArgumentException("sendNotifyBytes must be 1 to sendBufferBytes (" + sendBufferBytes
                    + "), not " + sendNotifyBytes);
        }
        if (receiveBufferBytes < 512) {
            throw new IllegalArgumentException("receiveBufferBytes must be at least 512, not " + receiveBufferBytes);
        }
        if (receiveBuffers < 1 || (long) receiveBuffers * receiveBufferBytes > (1L << 31) - 1) {
            throw new IllegalArgumentException("receiveBuffers must be at least 1 and all of them under 2 GiB, not "
                    + receiveBuffers + " x " + receiveBufferBytes + " B");
        }
        if (buffersPerSocket < 1 || buffersPerSocket > receiveBuffers) {
            throw new IllegalArgumentException("buffersPerSocket must be 1 to receiveBuffers (" + receiveBuffers
                    + "), not " + buffersPerSocket);
        }
        if (fillTimeoutNanos < 0) {
            throw new IllegalArgumentException("fillTimeoutNanos must not be negative, not " + fillTimeoutNanos);
        }
        if (queueDepth < 4 || queueDepth > (1 << 20) || Integer.bitCount(queueDepth) != 1) {
            throw new IllegalArgumentException("queueDepth must be a power of two from 4 to 2^20, not " + queueDepth);
        }
        if (closeLingerMillis < 0) {
            throw new IllegalArgumentException("closeLingerMillis must not be negative, not " + closeLingerMillis);
        }
    }

    /**
     * This configuration with anonymous buffers of {@code bytes} (the receive chunk). A socket's
     * share keeps its bytes: smaller buffers, more of them per socket (at most {@code count}), so
     * that the data a socket may hold unread does not shrink with the chunk.
     *
     * @param bytes the size of each anonymous buffer
     * @param count anonymous buffers per engine thread
     * @return the new configuration
     */
    public ToeConfig withReceiveBuffer(int bytes, int count) {
        long shareBytes = (long) buffersPerSocket * receiveBufferBytes;
        int share = (int) Math.max(1, Math.min(count, shareBytes / bytes));
        return new ToeConfig(sendBufferBytes, sendNotifyBytes, bytes, count, share,
                fillTimeoutNanos, queueDepth, closeLingerMillis, tcpNoDelay);
    }

    /**
     * This configuration with a send buffer of {@code bytes}, waking a writer once {@code notifyBytes} are free.
     *
     * @param bytes       each socket's send buffer, a power of two
     * @param notifyBytes free bytes that wake a writer
     * @return the new configuration
     */
    public ToeConfig withSendBuffer(int bytes, int notifyBytes) {
        return new ToeConfig(bytes, notifyBytes, receiveBufferBytes, receiveBuffers, buffersPerSocket,
                fillTimeoutNanos, queueDepth, closeLingerMillis, tcpNoDelay);
    }

    /**
     * This configuration with {@code nanos} of fill timeout.
     *
     * @param nanos how long a partly filled buffer waits for more data
     * @return the new configuration
     */
    public ToeConfig withFillTimeout(long nanos) {
        return new ToeConfig(sendBufferBytes, sendNotifyBytes, receiveBufferBytes, receiveBuffers, buffersPerSocket,
                nanos, queueDepth, closeLingerMillis, tcpNoDelay);
    }

    /**
     * This configuration with {@code depth} slots per queue.
     *
     * @param depth slots per queue, a power of two
     * @return the new configuration
     */
    public ToeConfig withQueueDepth(int depth) {
        return new ToeConfig(sendBufferBytes, sendNotifyBytes, receiveBufferBytes, receiveBuffers, buffersPerSocket,
                fillTimeoutNanos, depth, closeLingerMillis, tcpNoDelay);
    }

    /**
     * This configuration with TCP_NODELAY {@code on} or off.
     *
     * @param on whether TCP_NODELAY is set
     * @return the new configuration
     */
    public ToeConfig withTcpNoDelay(boolean on) {
        return new ToeConfig(sendBufferBytes, sendNotifyBytes, receiveBufferBytes, receiveBuffers, buffersPerSocket,
                fillTimeoutNanos, queueDepth, closeLingerMillis, on);
    }
}
