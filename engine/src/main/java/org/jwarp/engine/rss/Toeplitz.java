package org.jwarp.engine.rss;

import java.net.InetSocketAddress;
import java.util.HexFormat;

/**
 * The Toeplitz hash of Receive-Side Scaling, as Microsoft's RSS specification defines it
 * ("Verifying the RSS Hash Calculation", NdisHashFunctionToeplitz): for each set bit of the
 * input, most significant first, the hash takes the exclusive or of the key's 32 bits that start
 * at that bit's position. The input of a TCP connection is the source address, the destination
 * address, the source port and the destination port, in network byte order (IPv4: 12 bytes, IPv6:
 * 36); without ports, the two addresses alone. Seed 004's steering hashes each packet's 4-tuple
 * so that one connection always lands on one processor.
 *
 * <p>Immutable. Setup path: one hash per connection.
 */
public final class Toeplitz {

    /** The specification's default 40-byte key, enough for IPv6 with ports (36 bytes + 4). */
    public static final byte[] DEFAULT_KEY = HexFormat.of().parseHex(
            "6d5a56da255b0ec24167253d43a38fb0d0ca2bcbae7b30b477cb2da38030f20c6a42b73bbeac01fa");

    private final byte[] key;

    /** The hash with the specification's default key. */
    public Toeplitz() {
        this(DEFAULT_KEY);
    }

    /**
     * @param key the secret key; at least 40 bytes, so that an IPv6 4-tuple can be hashed
     * @throws IllegalArgumentException if it is shorter
     */
    public Toeplitz(byte[] key) {
        if (key.length < DEFAULT_KEY.length) {
            throw new IllegalArgumentException("an RSS key has at least " + DEFAULT_KEY.length + " bytes (IPv6 with"
                    + " ports needs 36 + 4), not " + key.length);
        }
        this.key = key.clone();
    }

    /** The key, as 2 hex digits per byte. */
    public String keyHex() {
        return HexFormat.of().formatHex(key);
    }

    /** The hash of {@code input[0..length)}. */
    public int hash(byte[] input, int length) {
        if (length + 4 > key.length) {
            throw new IllegalArgumentException("a " + key.length + "-byte key hashes at most " + (key.length - 4)
                    + " bytes, not " + length);
        }
        int result = 0;
        // the 32 key bits that start at the current input bit, shifted in one key bit at a time
        int window = (key[0] & 0xFF) << 24 | (key[1] & 0xFF) << 16 | (key[2] & 0xFF) << 8 | key[3] & 0xFF;
        for (int i = 0; i < length; i++) {
            int next = key[i + 4] & 0xFF;
            for (int bit = 7; bit >= 0; bit--) {
                if ((input[i] >> bit & 1) != 0) {
                    result ^= window;
                }
                window = window << 1 | (next >> bit & 1);
            }
        }
        return result;
    }

    /**
     * The hash of a connection as a receiver sees its packets: {@code source} is the peer,
     * {@code destination} this side. With {@code withPorts} false, the addresses alone.
     *
     * @throws IllegalArgumentException if the two addresses are of different families
     */
    public int hash(InetSocketAddress source, InetSocketAddress destination, boolean withPorts) {
        byte[] s = source.getAddress().getAddress();
        byte[] d = destination.getAddress().getAddress();
        if (s.length != d.length) {
            throw new IllegalArgumentException("source and destination are of different address families: " + source
                    + ", " + destination);
        }
        byte[] input = new byte[2 * s.length + 4];
        System.arraycopy(s, 0, input, 0, s.length);
        System.arraycopy(d, 0, input, s.length, d.length);
        int n = 2 * s.length;
        if (withPorts) {
            input[n++] = (byte) (source.getPort() >>> 8);
            input[n++] = (byte) source.getPort();
            input[n++] = (byte) (destination.getPort() >>> 8);
            input[n++] = (byte) destination.getPort();
        }
        return hash(input, n);
    }
}
