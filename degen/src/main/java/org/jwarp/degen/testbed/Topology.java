package org.jwarp.degen.testbed;

/**
 * Names and addresses of the two hosts. Every name carries the {@code jw} prefix and the addresses
 * sit in 10.77.0.0/16, so that the testbed collides with nothing else on the machine and a stale
 * one can be recognised and removed. Host A is 10.77.1.1 in 10.77.1.0/24, host B 10.77.2.1 in
 * 10.77.2.0/24: two IP networks joined by a router, as in the paper's testbed.
 */
public record Topology(String nsA, String nsB, String tunA, String tunB, String vethA, String vethB,
                       String addrA, String addrB, int mtuA, int mtuB) {

    /** The default testbed's name; tests use names of their own so that they never meet a user's testbed. */
    public static final String DEFAULT_NAME = "jw";

    /**
     * The hosts of testbed {@code name}: namespaces NAME-a and NAME-b, TUNs NAME-ta/NAME-tb, veth
     * ends NAME-va/NAME-vb. The addresses are the same in every testbed: they live in the
     * testbed's own namespaces, so they cannot collide.
     */
    public static Topology named(String name, int mtuA, int mtuB) {
        if (!name.matches("[a-z][a-z0-9]{0,11}")) {
            throw new IllegalArgumentException("testbed name '" + name + "' must be 1..12 lower-case letters or digits, starting with a letter");
        }
        return new Topology(name + "-a", name + "-b", name + "-ta", name + "-tb", name + "-va", name + "-vb",
                "10.77.1.1", "10.77.2.1", mtuA, mtuB);
    }

    public Topology {
        checkMtu(mtuA);
        checkMtu(mtuB);
    }

    private static void checkMtu(int mtu) {
        if (mtu < 576 || mtu > 65535) {
            throw new IllegalArgumentException("MTU " + mtu + " is outside 576..65535 (use 1500, or 9000 for jumbo frames)");
        }
    }

    public String netnsOf(String host) {
        return switch (host.toUpperCase(java.util.Locale.ROOT)) {
            case "A" -> nsA;
            case "B" -> nsB;
            default -> throw new IllegalArgumentException("host '" + host + "' is not A or B");
        };
    }

    public String addressOf(String host) {
        return netnsOf(host).equals(nsA) ? addrA : addrB;
    }

    /** The /24 network of an address: 10.77.2.1 → 10.77.2.0/24. */
    static String network(String addr) {
        return addr.substring(0, addr.lastIndexOf('.')) + ".0/24";
    }
}
