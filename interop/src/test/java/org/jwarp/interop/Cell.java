package org.jwarp.interop;

import java.util.Optional;

/**
 * One interop run: jwarp rping against siw's rping in {@code variant}, in one direction, with one
 * jwarp configuration and ping size.
 *
 * @param variant  siw build variant
 * @param toSiw    true: jwarp client to siw {@code rping -s}; false: siw {@code rping -c} to jwarp server
 * @param config   jwarp's MPA options
 * @param size     rping -S
 * @param count    rping -C
 * @param expected empty if every ping must go through validated; else why the peer refuses this
 *                 combination and the text jwarp's or siw's output must show for it
 */
record Cell(String variant, boolean toSiw, JwarpMpaConfig config, int size, int count, Optional<Refusal> expected) {

    /** A combination the real peer refuses, and the evidence that names the reason. */
    record Refusal(String why, String evidence) {
    }

    String direction() {
        return toSiw ? "jwarp->siw" : "siw->jwarp";
    }

    String name() {
        return variant + " " + direction() + " " + config.name() + " " + size + " B";
    }
}
