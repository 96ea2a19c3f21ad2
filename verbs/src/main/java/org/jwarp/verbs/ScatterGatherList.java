package org.jwarp.verbs;

/**
 * The scatter/gather entries of a work request ({@code ibv_sge} array): each names a registered
 * region by its local key, an offset into it and a length. {@link SendWr} gathers from them,
 * {@link RecvWr} scatters into them.
 */
public interface ScatterGatherList {

    int numSge();

    int sgeLkey(int i);

    long sgeOffset(int i);

    int sgeLength(int i);

    /** The sum of the entries' lengths. */
    long totalLength();
}
