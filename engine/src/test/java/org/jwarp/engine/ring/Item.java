package org.jwarp.engine.ring;

/** A slot for the ring tests: which producer wrote it and its sequence number there. */
final class Item {
    int producer;
    long seq;
}
