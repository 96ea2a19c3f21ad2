package org.jwarp.stack;

import java.lang.foreign.MemorySegment;
import org.jwarp.wire.ddp.DdpHeader;

/**
 * The receive side of one kind of RDMAP message (Linux siw's {@code iwarp_pktinfo[].rx_data}):
 * it checks a segment's headers before one byte is placed, places the payload, and acts when the
 * segment has passed its CRC. {@link StreamReceiver} finds the handler by opcode; a new opcode is a
 * new handler and one table entry.
 */
abstract class RxMessage {

    final StreamContext s;

    RxMessage(StreamContext s) {
        this.s = s;
    }

    /**
     * A segment's DDP and RDMAP headers arrived ({@code payload} bytes follow): checks them,
     * queueing the RFC's Terminate through {@link Terminator#terminate} on a violation, and
     * prepares placement.
     */
    abstract void header(DdpHeader h, int payload);

    /** {@code length} payload bytes at {@code src[offset]}, the segment's bytes from {@code position} on. */
    void payload(MemorySegment src, long offset, int length, int position) {
        // nothing to place: control messages carry their data in the header
    }

    /**
     * Adds where the segment's next {@code n} payload bytes (from {@code position}) go to
     * {@code into}, for the owner to read them there straight from the LLP; {@code toEnd} when they
     * are the rest of the segment's payload.
     */
    void offer(DirectPlacement into, int position, long n, boolean toEnd) {
        // nothing to place
    }

    /**
     * Placing the current segment's payload failed because the memory it goes to was freed (its
     * arena closed) after the header was checked: queues the Terminate that fits and completes the
     * request it fails. False if this handler's memory is alive: the failure was something else.
     */
    boolean memoryGone() {
        return false;
    }

    /** {@code n} bytes of the last offer were placed directly. */
    void placed(long n) {
        // nothing placed
    }

    /** The segment passed its CRC; {@code last} is its DDP Last flag. */
    void end(boolean last) {
        // nothing to deliver
    }

    /** Where the segment's payload is discarded: a message with nothing to place, or one refused. */
    static final class Discard extends RxMessage {

        Discard(StreamContext s) {
            super(s);
        }

        @Override
        void header(DdpHeader h, int payload) {
            throw new IllegalStateException("the discarding handler is not found by opcode");
        }
    }

    /** Helper for tagged and untagged handlers: the segment's full payload length. */
    final int segmentPayload() {
        return s.decoder.payloadLength();
    }
}
