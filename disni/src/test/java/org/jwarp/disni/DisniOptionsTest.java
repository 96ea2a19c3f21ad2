package org.jwarp.disni;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.jwarp.engine.provider.JwarpConfig;
import org.jwarp.verbs.DeviceConfig;

/** jwarp's device options from the environment variable and the system properties, properties winning. */
class DisniOptionsTest {

    @Test
    void theVariableSetsOptionsAndAPropertyOverridesIt() {
        Properties props = new Properties();
        props.setProperty("jwarp.crc", "off");
        Map<String, String> merged = DisniOptions.merge("threading=dedicated, engineThreads=2 crc=required", props);
        assertEquals(Map.of("threading", "dedicated", "engineThreads", "2", "crc", "off"), merged);
        DeviceConfig c = DisniOptions.toConfig(merged);
        assertEquals(JwarpConfig.ThreadingMode.DEDICATED, JwarpConfig.of(c).threadingMode());
        assertEquals(2, JwarpConfig.of(c).engineThreads());
        assertEquals(DeviceConfig.CrcPolicy.OFF, c.crcPolicy());
    }

    @Test
    void socketIoIdleMpaAndCpus() {
        DeviceConfig c = DisniOptions.toConfig(Map.of("threading", "dedicated", "engineThreads", "2",
                "socketIo", "nio", "idle", "park", "mpaRevision", "1", "cpus", "0,1"));
        JwarpConfig j = JwarpConfig.of(c);
        assertEquals(JwarpConfig.SocketIo.NIO, j.socketIo());
        assertEquals(JwarpConfig.IdleStrategyKind.PARK, j.idleStrategy());
        assertEquals(1, c.mpaRevision());
        assertEquals(List.of(0, 1), j.cpuList());
    }

    @Test
    void badInputSaysWhatIsWrongInOneLine() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DisniOptions.merge("threads=4", new Properties()));
        assertEquals("JWARP_DISNI_OPTS: unknown option 'threads'; known: threading, engineThreads, idle, socketIo, crc, "
                + "mpaRevision, cpus", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> DisniOptions.toConfig(Map.of("threading", "fast")));
        assertEquals("jwarp.threading=fast: use dedicated, invoker, hybrid", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> DisniOptions.merge("crc", new Properties()));
        assertEquals("JWARP_DISNI_OPTS: 'crc' is not name=value", e.getMessage());
    }
}
