package org.jwarp.bench.perf;

/** What carries a test: the jwarp soft RNIC, or plain kernel TCP sockets in one of three styles. */
public enum TransportKind {
    /** jwarp verbs: RDMAP/DDP/MPA over kernel TCP, run by the engine. */
    JWARP("jwarp", "jwarp verbs (iWARP: RDMAP/DDP/MPA over kernel TCP)"),
    /** Blocking {@code SocketChannel}s: a waiting thread sleeps in {@code read}/{@code write}. */
    SOCKETS_BLOCKING("sockets-blocking", "TCP sockets, blocking reads and writes"),
    /** Non-blocking channels with a {@code Selector}: a waiting thread sleeps in {@code select}. */
    SOCKETS_NIO("sockets-nio", "TCP sockets, non-blocking with a NIO selector"),
    /** Non-blocking channels polled in a loop: a waiting thread spins on {@code read}/{@code write}. */
    SOCKETS_BUSYPOLL("sockets-busypoll", "TCP sockets, non-blocking, busy-polled");

    private final String option;
    private final String description;

    TransportKind(String option, String description) {
        this.option = option;
        this.description = description;
    }

    /** The {@code --transport} value. */
    public String option() {
        return option;
    }

    public String description() {
        return description;
    }

    public boolean isSockets() {
        return this != JWARP;
    }

    /** By {@code --transport} value, or {@code null}. */
    public static TransportKind ofOption(String option) {
        for (TransportKind t : values()) {
            if (t.option.equals(option)) {
                return t;
            }
        }
        return null;
    }
}
