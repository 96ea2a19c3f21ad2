package com.ibm.disni.util;

/** Byte swaps. */
public class EndianUtils {
    public EndianUtils() {
    }

    public static short swap(short value) {
        return Short.reverseBytes(value);
    }

    public static char swap(char value) {
        return Character.reverseBytes(value);
    }

    public static int swap(int value) {
        return Integer.reverseBytes(value);
    }

    public static long swap(long value) {
        return Long.reverseBytes(value);
    }
}
