package org.jwarp.ibverbs;

import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.RdmaDevice;
import org.jwarp.verbs.spi.RdmaProvider;

/**
 * The {@code ibverbs} provider: the verbs API over the kernel's RDMA stack (a real RNIC, siw, rxe)
 * through libibverbs, called with the FFM API. Nothing is loaded until {@link #open}: on a host
 * without libibverbs or without an RDMA device, {@code open} refuses in one line and no other
 * provider is affected.
 *
 * <p>The device is the one named by the system property {@value #DEVICE_PROPERTY}, or the first
 * libibverbs lists.
 */
public final class IbverbsProvider implements RdmaProvider {

    /** This provider's {@link DeviceConfig#providerName()}. */
    public static final String NAME = "ibverbs";
    /** System property naming the RDMA device to open ({@code siw0}, {@code mlx5_0}, ...). */
    public static final String DEVICE_PROPERTY = "jwarp.ibverbs.device";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public RdmaDevice open(DeviceConfig config) {
        return IbvDevice.open(config, System.getProperty(DEVICE_PROPERTY));
    }
}
