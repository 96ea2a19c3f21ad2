package org.jwarp.cli.rping;

import java.io.PrintWriter;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.RdmaDevice;

/**
 * An rping that speaks the protocol of rdma-core's {@code rping} ({@code librdmacm/examples/rping.c}),
 * so that jwarp and a Linux RNIC (siw, or hardware) can ping each other in either role.
 *
 * <pre>
 * client                                  server
 *   Send  source {buf, rkey, size}  ───►
 *                                    ◄──  RDMA READ of the source
 *                                    ◄──  Send go-ahead
 *   Send  sink {buf, rkey, size}    ───►
 *                                    ◄──  RDMA WRITE of the data into the sink
 *                                    ◄──  Send go-ahead          (repeat; client validates sink = source)
 * </pre>
 *
 * rdma_cm puts no header of its own into iWARP's MPA private data, and rping sends none, so the
 * MPA frames carry only the RFC 6581 IRD/ORD header (the client asks for ORD 1 / IRD 1).
 */
public final class Rping {

    private Rping() {
    }

    /**
     * Opens a device with {@code config} and runs the client or the server.
     *
     * @throws RpingException naming what failed (connection refused or rejected and why, a
     *                        completion error, a data mismatch, a timeout)
     */
    public static void run(DeviceConfig config, RpingOptions options, PrintWriter out) throws RpingException {
        try (RdmaDevice device = RdmaDevice.open(config)) {
            if (options.server()) {
                RpingServer.run(device, options, out);
            } else {
                RpingClient.run(device, options, out);
            }
        }
    }
}
