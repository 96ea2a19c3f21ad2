package org.jwarp.verbs;

/**
 * The scatter/gather entries of a work request ({@code ibv_sge} array): each names a registered
 * region by its local key, an offset into it and a length. {@link SendWr} gathers from them,
 * {@link RecvWr} scatters into them.
 */
public interface ScatterGatherList {

    /** {@return the number of entries} */
    int numSge();

    /**
     * The local key of entry {@code i}: the lkey of the region it names.
     *
     * @param i the entry's index, below {@link #numSge()}
     * @return the lkey
     * @throws IndexOutOfBoundsException if {@code i} is out of range
     */
    int sgeLkey(int i);

    /**
     * The byte offset of entry {@code i} from the start of its region.
     *
     * @param i the entry's index, below {@link #numSge()}
     * @return the offset
     * @throws IndexOutOfBoundsException if {@code i} is out of range
     */
    long sgeOffset(int i);

    /**
     * The length in bytes of entry {@code i}.
     *
     * @param i the entry's index, below {@link #numSge()}
     * @return the length
     * @throws IndexOutOfBoundsException if {@code i} is out of range
     */
    int sgeLength(int i);

    /** {@return the sum of the entries' lengths} */
    long totalLength();
}
