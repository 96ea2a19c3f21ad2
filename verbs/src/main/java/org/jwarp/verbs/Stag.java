package org.jwarp.verbs;

/**
 * Packing of an iWARP Steering Tag (RFC 5040 §2.1, RFC 5041 §4.2): a 32-bit value whose upper
 * 24 bits are the index of a memory region in the device's STag table and whose lower 8 bits are
 * a key owned by the consumer, as in the OFED/siw convention ({@code stag = index << 8 | key}).
 *
 * <p>The key changes on every re-registration ({@link #nextKey(int)}), so a peer still holding the
 * old STag is refused (DDP tagged "invalid STag", RFC 5041 §7.2) instead of reaching the new
 * buffer. Index 0 is reserved: providers never hand out an STag with index 0, so
 * {@link #INVALID} ({@code 0}) can mean "no STag" in work requests and completions.
 *
 * <p>All methods are pure and allocation-free.
 */
public final class Stag {

    /** Largest STag index (24 bits). */
    public static final int MAX_INDEX = 0xFF_FFFF;
    /** Largest key (8 bits). */
    public static final int MAX_KEY = 0xFF;
    /** The reserved "no STag" value; index 0 is never allocated. */
    public static final int INVALID = 0;

    private Stag() {
    }

    /**
     * Packs an index and a key.
     *
     * @throws IllegalArgumentException if {@code index} is outside 0..{@link #MAX_INDEX} or
     *                                  {@code key} outside 0..{@link #MAX_KEY}
     * @param index the 24-bit index
     * @param key   the 8-bit key
     * @return the STag
     */
    public static int of(int index, int key) {
        if (index < 0 || index > MAX_INDEX) {
            throw new IllegalArgumentException("STag index must be in 0..0xFFFFFF (24 bits): " + index);
        }
        if (key < 0 || key > MAX_KEY) {
            throw new IllegalArgumentException("STag key must be in 0..0xFF (8 bits): " + key);
        }
        return index << 8 | key;
    }

    /**
     * The 24-bit index of {@code stag} (upper 24 bits, unsigned).
     *
     * @param stag an STag
     * @return its index
     */
    public static int index(int stag) {
        return stag >>> 8;
    }

    /**
     * The 8-bit key of {@code stag} (lower 8 bits).
     *
     * @param stag an STag
     * @return its key
     */
    public static int key(int stag) {
        return stag & MAX_KEY;
    }

    /**
     * The key after {@code key}, wrapping from 0xFF to 0x00 (only the low 8 bits of the argument count).
     *
     * @param key a key
     * @return the next key
     */
    public static int nextKey(int key) {
        return (key + 1) & MAX_KEY;
    }

    /**
     * {@code stag} with the same index and the next key: the STag a re-registration hands out.
     *
     * @param stag an STag
     * @return the STag with the next key
     */
    public static int withNextKey(int stag) {
        return (stag & ~MAX_KEY) | nextKey(stag);
    }

    /**
     * Diagnostic form {@code 0xIIIIII:KK}, e.g. {@code 0x000012:34} for STag 0x00001234.
     *
     * @param stag an STag
     * @return its diagnostic form
     */
    public static String toString(int stag) {
        return String.format("0x%06x:%02x", index(stag), key(stag));
    }
}
