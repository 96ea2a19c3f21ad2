package org.jwarp.engine.datapath;

import java.lang.foreign.MemorySegment;
import org.jwarp.verbs.SendFlags;
import org.jwarp.verbs.SendWr;

/**
 * One send-queue slot: a copy of the posted request and, for inline requests, the request's
 * data. OFED's inline contract is that the application may reuse its buffer as soon as the post
 * returns, so the data is copied here at post time (into memory the slot owns, allocated once).
 */
public final class SendSlot {

    private final SendWr wr;

    /** The work request the slot holds (engine thread, after a load). */
    public SendWr wr() {
        return wr;
    }
    private final MemorySegment inline;

    public SendSlot(int maxSge, int maxInline) {
        wr = new SendWr(maxSge);
        inline = MemorySegment.ofArray(new byte[Math.max(maxInline, 1)]);
    }

    /**
     * Copies {@code source} into this slot (the poster's thread; no allocation). Returns false if
     * the memory of an inline source was freed (its arena closed): nothing can be copied, and the
     * post is refused.
     */
    public boolean load(SendWr source) {
        wr.copyFrom(source);
        if (!source.hasFlag(SendFlags.INLINE)) {
            return true;
        }
        wr.clearSges();
        long at = 0;
        for (int i = 0; i < source.numSge(); i++) {
            int length = source.sgeLength(i);
            MemorySegment from = source.sgeInlineSource(i);
            if (from == null) {
                throw new IllegalStateException("inline request with a registered SGE passed the check");
            }
            try {
                MemorySegment.copy(from, source.sgeOffset(i), inline, at, length);
            } catch (IllegalStateException e) {
                if (from.scope().isAlive()) {
                    throw e;
                }
                return false;
            }
            wr.addInlineSge(inline, at, length);
            at += length;
        }
        return true;
    }
}
