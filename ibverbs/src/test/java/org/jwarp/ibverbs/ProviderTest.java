package org.jwarp.ibverbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.ProtectionDomain;
import org.jwarp.verbs.RdmaDevice;
import org.jwarp.verbs.spi.RdmaProvider;
import org.jwarp.verbs.spi.RdmaProviders;
import org.junit.jupiter.api.Test;

/**
 * Discovery beside the jwarp provider, and the refusal on a host without RDMA: one line naming the
 * provider, and the jwarp provider opens as before.
 */
class ProviderTest {

    private static final ClassLoader LOADER = ProviderTest.class.getClassLoader();

    @Test
    void foundByNameBesideJwarp() {
        List<String> names = RdmaProviders.all(LOADER).stream().map(RdmaProvider::name).toList();
        assertTrue(names.contains("ibverbs") && names.contains("jwarp"), "providers on the class path: " + names);
        assertEquals(IbverbsProvider.class, RdmaProviders.find("ibverbs", LOADER).getClass());
    }

    @Test
    void aConfigurationWithoutAProviderNameOpensJwarpWhereverItStands() {
        for (ClassLoader order : List.of(LOADER, new ReversedServices(LOADER))) {
            assertEquals("jwarp", RdmaProviders.find(null, order).name());
        }
    }

    /** The same class path with the registered providers listed in the opposite order. */
    private static final class ReversedServices extends ClassLoader {
        ReversedServices(ClassLoader parent) {
            super(parent);
        }

        @Override
        public java.util.Enumeration<java.net.URL> getResources(String name) throws IOException {
            List<java.net.URL> urls = java.util.Collections.list(getParent().getResources(name));
            java.util.Collections.reverse(urls);
            return java.util.Collections.enumeration(urls);
        }
    }

    @Test
    void refusesInOneLineWithoutADeviceAndLeavesJwarpAlone() throws IOException {
        assumeFalse(hasRdmaDevice(), "this host has RDMA devices (/sys/class/infiniband): the no-device path cannot be shown here");
        DeviceConfig ibverbs = DeviceConfig.builder().providerName("ibverbs").build();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> RdmaDevice.open(ibverbs, LOADER));
        assertTrue(e.getMessage().startsWith("ibverbs: "), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), "one line: " + e.getMessage());
        assertTrue(e.getMessage().contains("no RDMA device") || e.getMessage().contains(IbvLib.LIBRARY), e.getMessage());
        // a second attempt says the same, and the jwarp provider is unaffected
        assertEquals(e.getMessage(), assertThrows(IllegalStateException.class, () -> RdmaDevice.open(ibverbs, LOADER)).getMessage());
        try (RdmaDevice jwarp = RdmaDevice.open(DeviceConfig.builder().providerName("jwarp").build(), LOADER)) {
            assertEquals("jwarp", jwarp.providerName());
            try (ProtectionDomain pd = jwarp.allocPd()) {
                assertEquals(jwarp, pd.device());
            }
        }
    }

    private static boolean hasRdmaDevice() throws IOException {
        Path dir = Path.of("/sys/class/infiniband");
        if (!Files.isDirectory(dir)) {
            return false;
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.findAny().isPresent();
        }
    }
}
