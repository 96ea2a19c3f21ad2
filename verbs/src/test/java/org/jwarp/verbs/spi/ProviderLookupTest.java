package org.jwarp.verbs.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.net.URLClassLoader;
import org.jwarp.verbs.CounterNames;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.RdmaDevice;
import org.junit.jupiter.api.Test;

class ProviderLookupTest {

    /** A class loader that sees no application classes, hence no providers. */
    private static ClassLoader empty() {
        return new URLClassLoader(new URL[0], null);
    }

    @Test
    void noProviderNamesWhatToAdd() {
        DeviceConfig config = DeviceConfig.defaults();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> RdmaDevice.open(config, empty()));
        assertTrue(e.getMessage().startsWith("No jwarp verbs provider on the class path"), e.getMessage());
        assertTrue(e.getMessage().contains("org.jwarp:jwarp-engine"), e.getMessage());
        assertTrue(e.getMessage().contains("META-INF/services/org.jwarp.verbs.spi.RdmaProvider"), e.getMessage());
    }

    @Test
    void findsTheRegisteredProvider() {
        ClassLoader cl = getClass().getClassLoader();
        assertEquals(1, RdmaProviders.all(cl).size());
        assertInstanceOf(LookupFixtureProvider.class, RdmaProviders.find(null, cl));
        assertInstanceOf(LookupFixtureProvider.class, RdmaProviders.find(LookupFixtureProvider.NAME, cl));
    }

    @Test
    void unknownNameListsTheAvailableOnes() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> RdmaProviders.find("jwarp", getClass().getClassLoader()));
        assertTrue(e.getMessage().contains("No jwarp verbs provider named 'jwarp'"), e.getMessage());
        assertTrue(e.getMessage().contains("[" + LookupFixtureProvider.NAME + "]"), e.getMessage());
    }

    @Test
    void openPassesTheConfigAndCloses() {
        DeviceConfig config = DeviceConfig.builder().providerName(LookupFixtureProvider.NAME).build();
        LookupFixtureProvider.FixtureDevice device;
        try (RdmaDevice d = RdmaDevice.open(config)) {
            device = assertInstanceOf(LookupFixtureProvider.FixtureDevice.class, d);
            assertSame(config, d.config());
            assertEquals(LookupFixtureProvider.NAME, d.providerName());
            assertEquals(0, d.counters().get(CounterNames.FPDUS_TX));
            assertThrows(UnsupportedOperationException.class, d::allocPd);
        }
        assertTrue(device.isClosed());
        assertThrows(IllegalArgumentException.class, () -> RdmaDevice.open(null));
    }

    /** The fixture's own settings: naming the provider is enough to open it. */
    private record FixtureConfig(int knob) implements ProviderConfig {
        @Override
        public String providerName() {
            return LookupFixtureProvider.NAME;
        }
    }

    @Test
    void aProviderConfigurationOpensItsProvider() {
        DeviceConfig config = DeviceConfig.builder().provider(new FixtureConfig(7)).build();
        try (RdmaDevice d = RdmaDevice.open(config)) {
            assertEquals(LookupFixtureProvider.NAME, d.providerName());
            assertEquals(new FixtureConfig(7), d.config().providerConfig());
            assertEquals(LookupFixtureProvider.NAME, d.socketIoLayer());
            assertEquals(false, d.needsInvoke());
        }
    }
}
