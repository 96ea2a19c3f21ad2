package org.jwarp.stack;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import org.jwarp.stack.StagTable.Region;
import org.jwarp.wire.rdmap.DdpError;
import org.jwarp.wire.rdmap.RdmapError;
import org.jwarp.wire.rdmap.TerminateError;

/**
 * Tagged placement (RFC 5041 §5.1, §7.1), shared by RDMA Write and RDMA Read Response: each
 * segment names its target by STag and tagged offset, which are checked before it is placed.
 */
abstract class TaggedRx extends RxMessage {

    private MemorySegment target;
    private long targetOffset;
    /** The segment is a Write's last: its last byte becomes visible last (DESIGN). */
    private boolean lastOfWrite;

    TaggedRx(StreamContext s) {
        super(s);
    }

    /** Payload goes to {@code region} from tagged offset {@code to} on. */
    final void target(Region region, long to, boolean lastOfWrite) {
        this.target = region.segment();
        this.targetOffset = to - region.iova();
        this.lastOfWrite = lastOfWrite;
    }

    @Override
    final void payload(MemorySegment src, long offset, int length, int position) {
        long to = targetOffset + position;
        if (lastOfWrite && position + length == segmentPayload()) {
            // Applications poll a Write's last byte; it may arrive alone, after bytes placed
            // straight from the socket.
            MemorySegment.copy(src, offset, target, to, length - 1);
            VarHandle.releaseFence();
            MemorySegment.copy(src, offset + length - 1, target, to + length - 1, 1);
        } else {
            MemorySegment.copy(src, offset, target, to, length);
        }
    }

    @Override
    final void offer(DirectPlacement into, int position, long n, boolean toEnd) {
        long k = lastOfWrite && toEnd ? n - 1 : n;
        // a system call given the address of freed memory would write into it; the copy path
        // finds it gone instead (memoryGone)
        if (k > 0 && target.scope().isAlive()) {
            into.add(target, targetOffset + position, k);
        }
    }

    @Override
    final boolean memoryGone() {
        if (target == null || target.scope().isAlive()) {
            return false;
        }
        targetGone();
        return true;
    }

    /** The segment's target memory was freed while it was placed: queue the Terminate that fits. */
    abstract void targetGone();

    /** The DDP error for a failed {@link StagTable#checkRemote} of a tagged segment. */
    static TerminateError taggedError(int check) {
        return switch (check) {
            case StagTable.NOT_ASSOCIATED -> DdpError.STAG_NOT_ASSOCIATED;
            case StagTable.OUT_OF_BOUNDS -> DdpError.BASE_OR_BOUNDS_VIOLATION;
            case StagTable.TO_WRAP -> DdpError.TO_WRAP;
            // The STag is registered and the segment within bounds (RFC 5041 §7.1's checks hold),
            // but the application freed the region's memory: the STag no longer names a buffer.
            // RFC 5040 §4.8: RDMAP layer, remote protection error, invalid STag.
            case StagTable.MEMORY_FREED -> RdmapError.INVALID_STAG;
            // RFC 5041 §7.2 has no access-rights code; siw reports a permission failure as invalid STag
            default -> DdpError.INVALID_STAG;
        };
    }
}
