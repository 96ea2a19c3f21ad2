package org.jwarp.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;
import org.jwarp.verbs.DeviceConfig.CrcPolicy;
import org.jwarp.verbs.DeviceConfig.MarkerPolicy;
import org.jwarp.verbs.DeviceConfig.RtrKind;
import org.jwarp.verbs.spi.ProviderConfig;
import org.junit.jupiter.api.Test;

class DeviceConfigTest {

    @Test
    void defaults() {
        DeviceConfig c = DeviceConfig.defaults();
        assertNull(c.providerName());
        assertNull(c.providerConfig());
        assertEquals(CrcPolicy.PREFERRED, c.crcPolicy());
        assertEquals(MarkerPolicy.NEVER_REQUEST, c.markerPolicy());
        assertEquals(2, c.mpaRevision());
        assertTrue(c.peerToPeer());
        assertEquals(EnumSet.of(RtrKind.WRITE, RtrKind.READ), c.rtrKinds());
        assertEquals(MpaTimeouts.DEFAULT, c.mpaTimeouts());
        assertEquals(DeviceLimits.DEFAULT, c.limits());
        assertTrue(c.rfc7306());
        assertEquals(DeviceConfig.DEFAULT_PEER_TIMEOUT, c.peerTimeout());
    }

    /** A provider's own settings, as a second provider would have them. */
    private record OtherConfig(String providerName, int knob) implements ProviderConfig {
    }

    @Test
    void aProviderConfigurationNamesItsProvider() {
        OtherConfig other = new OtherConfig("other", 3);
        DeviceConfig c = DeviceConfig.builder().provider(other).build();
        assertEquals("other", c.providerName());
        assertSame(other, c.providerConfig());
        assertEquals(c, DeviceConfig.builder().providerName("other").provider(other).build());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DeviceConfig.builder().providerName("jwarp").provider(other).build());
        assertEquals("the provider configuration is for provider 'other', but the device names provider 'jwarp'",
                e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> DeviceConfig.builder().providerName(" ").build());
    }

    @Test
    void validatesThePeerTimeout() {
        assertThrows(IllegalArgumentException.class, () -> DeviceConfig.builder()
                .peerTimeout(Duration.ofSeconds(2)).build());
        assertThrows(IllegalArgumentException.class, () -> DeviceConfig.builder()
                .peerTimeout(Duration.ofSeconds(-5)).build());
        assertEquals(Duration.ZERO, DeviceConfig.builder().peerTimeout(Duration.ZERO).build().peerTimeout());
        assertEquals(Duration.ofSeconds(3), DeviceConfig.builder().peerTimeout(Duration.ofSeconds(3)).build()
                .peerTimeout());
    }

    @Test
    void validatesMpaSettings() {
        assertThrows(IllegalArgumentException.class, () -> DeviceConfig.builder().mpaRevision(3).build());
        DeviceConfig v1 = DeviceConfig.builder().mpaRevision(1).build();
        assertFalse(v1.peerToPeer());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> v1.toBuilder()
                .peerToPeer(true).build());
        assertTrue(e.getMessage().contains("RFC 6581"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> DeviceConfig.builder().rtrKinds(Set.of()).build());
        assertTrue(DeviceConfig.builder().peerToPeer(false).rtrKinds(Set.of()).build()
                .rtrKinds().isEmpty());
        assertThrows(IllegalArgumentException.class, () -> DeviceConfig.builder().crcPolicy(null).build());
    }

    @Test
    void copiesCollectionsDefensively() {
        Set<RtrKind> kinds = EnumSet.of(RtrKind.READ);
        DeviceConfig c = DeviceConfig.builder().rtrKinds(kinds).build();
        kinds.add(RtrKind.SEND);
        assertEquals(Set.of(RtrKind.READ), c.rtrKinds());
        assertThrows(UnsupportedOperationException.class, () -> c.rtrKinds().add(RtrKind.SEND));
    }

    @Test
    void toBuilderRoundTrips() {
        DeviceConfig c = DeviceConfig.builder().provider(new OtherConfig("x", 1))
                .peerTimeout(Duration.ZERO).crcPolicy(CrcPolicy.REQUIRED).markerPolicy(MarkerPolicy.REQUEST)
                .rfc7306(false).limits(DeviceLimits.DEFAULT.withMaxQps(7)).build();
        assertEquals(c, c.toBuilder().build());
    }

    @Test
    void limitsValidate() {
        DeviceLimits d = DeviceLimits.DEFAULT;
        assertEquals(128, d.maxOrd());
        assertThrows(IllegalArgumentException.class, () -> d.withMaxQps(0));
        assertThrows(IllegalArgumentException.class, () -> d.withMaxMrs(Stag.MAX_INDEX + 1));
        assertThrows(IllegalArgumentException.class, () -> d.withMaxMrSize(0));
        assertThrows(IllegalArgumentException.class, () -> d.withMaxSge(0x10000));
        assertThrows(IllegalArgumentException.class, () -> d.withMaxInline(-1));
        assertThrows(IllegalArgumentException.class, () -> d.withMaxOrd(DeviceLimits.ORD_IRD_NO_NEGOTIATION));
        assertThrows(IllegalArgumentException.class, () -> d.withMaxIrd(-1));
        assertEquals(0, d.withMaxOrd(0).maxOrd());
        assertEquals(0x3FFE, d.withMaxIrd(0x3FFE).maxIrd());
    }

    @Test
    void timeoutsValidate() {
        Duration s = Duration.ofSeconds(1);
        assertThrows(IllegalArgumentException.class, () -> new MpaTimeouts(Duration.ZERO, s, s, s));
        assertThrows(IllegalArgumentException.class, () -> new MpaTimeouts(s, s, null, s));
        assertThrows(IllegalArgumentException.class, () -> new MpaTimeouts(s, s, s, Duration.ofMillis(-1)));
        assertEquals(Duration.ofSeconds(10), MpaTimeouts.DEFAULT.awaitReply());
        assertEquals(Duration.ofSeconds(5), MpaTimeouts.DEFAULT.awaitRequest());
    }
}
