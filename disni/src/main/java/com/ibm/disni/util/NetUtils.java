package com.ibm.disni.util;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteOrder;

/**
 * IPv4 addresses as ints and byte-order conversions. An address's int holds its four bytes in
 * network order, first byte most significant ({@code 127.0.0.1} is {@code 0x7f000001}).
 */
public class NetUtils {
    private static final boolean LITTLE = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    NetUtils() {
    }

    public static int getIntIPFromName(String name) throws UnknownHostException {
        return getIntIPFromInetAddress(InetAddress.getByName(name));
    }

    public static int getIntIPFromInetAddress(InetAddress address) throws UnknownHostException {
        byte[] b = address.getAddress();
        if (b.length != 4) {
            throw new UnknownHostException("not an IPv4 address: " + address);
        }
        return (b[0] & 0xFF) << 24 | (b[1] & 0xFF) << 16 | (b[2] & 0xFF) << 8 | (b[3] & 0xFF);
    }

    public static InetAddress getInetAddressFromIntIP(int ip) throws UnknownHostException {
        return InetAddress.getByAddress(new byte[] {(byte) (ip >>> 24), (byte) (ip >>> 16), (byte) (ip >>> 8), (byte) ip});
    }

    public static short hostToNetworkByteOrder(short v) {
        return LITTLE ? Short.reverseBytes(v) : v;
    }

    public static char hostToNetworkByteOrder(char v) {
        return LITTLE ? Character.reverseBytes(v) : v;
    }

    public static int hostToNetworkByteOrder(int v) {
        return LITTLE ? Integer.reverseBytes(v) : v;
    }

    public static long hostToNetworkByteOrder(long v) {
        return LITTLE ? Long.reverseBytes(v) : v;
    }

    public static short networkToHostByteOrder(short v) {
        return hostToNetworkByteOrder(v);
    }

    public static char networkToHostByteOrder(char v) {
        return hostToNetworkByteOrder(v);
    }

    public static int networkToHostByteOrder(int v) {
        return hostToNetworkByteOrder(v);
    }

    public static long networkToHostByteOrder(long v) {
        return hostToNetworkByteOrder(v);
    }

    /** The int of a dotted IPv4 address or host name; 0 if it does not resolve. */
    public static int getIntIPFromInetAddress(String address) {
        try {
            return getIntIPFromName(address);
        } catch (UnknownHostException e) {
            return 0;
        }
    }
}
