package org.jwarp.degen.testbed;

import java.io.IOException;
import org.jwarp.degen.sys.Ip;
import org.jwarp.degen.sys.Netns;

/** Creates, wires and removes the two hosts' namespaces and interfaces with iproute2. */
public final class HostNetwork {

    private HostNetwork() {
    }

    /** Creates an empty namespace with loopback up and IPv6 off (no router solicitations or MLD noise in the counters). */
    public static void createNamespace(String ns) throws IOException {
        Ip.ip("netns", "add", ns);
        Ip.ip("-n", ns, "link", "set", "lo", "up");
        Ip.inNetns(ns, "sh", "-c", "echo 1 > /proc/sys/net/ipv6/conf/all/disable_ipv6; echo 1 > /proc/sys/net/ipv6/conf/default/disable_ipv6");
    }

    /**
     * Moves a device (a TUN the caller holds open, or a veth end) into host {@code ns} and gives it
     * the host's address, its MTU, and a route to the other host's network through it.
     */
    public static void attach(String ns, String dev, String addr, String peerAddr, int mtu, boolean move) throws IOException {
        if (move) {
            Ip.ip("link", "set", dev, "netns", ns);
        }
        Ip.ip("-n", ns, "link", "set", dev, "mtu", Integer.toString(mtu), "up");
        Ip.ip("-n", ns, "addr", "add", addr + "/24", "dev", dev);
        Ip.ip("-n", ns, "route", "add", Topology.network(peerAddr), "dev", dev);
    }

    /** Deletes a namespace if it exists; its interfaces (veth ends, TUNs) go with it. */
    public static boolean deleteNamespace(String ns) throws IOException {
        if (!Netns.exists(ns)) {
            return false;
        }
        Ip.ip("netns", "del", ns);
        return true;
    }
}
