package org.jwarp.verbs.spi;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jwarp.verbs.CompletionChannel;
import org.jwarp.verbs.CompletionQueue;
import org.jwarp.verbs.ConnectionManager;
import org.jwarp.verbs.CounterSet;
import org.jwarp.verbs.Counters;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.Moderation;
import org.jwarp.verbs.ProtectionDomain;
import org.jwarp.verbs.QpInitAttr;
import org.jwarp.verbs.QueuePair;
import org.jwarp.verbs.RdmaDevice;

/**
 * Test fixture for the {@link java.util.ServiceLoader} lookup only, registered in this module's
 * test resources. Its device records the configuration it was opened with and whether it was
 * closed; it has no data path, so every resource call fails with a message saying so.
 */
public final class LookupFixtureProvider implements RdmaProvider {

    public static final String NAME = "lookup-fixture";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public RdmaDevice open(DeviceConfig config) {
        return new FixtureDevice(config);
    }

    /** The fixture's device. */
    public static final class FixtureDevice implements RdmaDevice {
        private final DeviceConfig config;
        private final CounterSet engine = CounterSet.standard("engine-0");
        private final AtomicBoolean closed = new AtomicBoolean();

        FixtureDevice(DeviceConfig config) {
            this.config = config;
        }

        public boolean isClosed() {
            return closed.get();
        }

        private static UnsupportedOperationException noDataPath(String what) {
            return new UnsupportedOperationException("the lookup fixture has no data path: " + what);
        }

        @Override
        public String providerName() {
            return NAME;
        }

        @Override
        public DeviceConfig config() {
            return config;
        }

        @Override
        public ProtectionDomain allocPd() {
            throw noDataPath("allocPd");
        }

        @Override
        public CompletionChannel createCompletionChannel(Moderation moderation) {
            throw noDataPath("createCompletionChannel");
        }

        @Override
        public CompletionQueue createCq(int depth, CompletionChannel channel) {
            throw noDataPath("createCq");
        }

        @Override
        public QueuePair createQp(ProtectionDomain pd, QpInitAttr attr) {
            throw noDataPath("createQp");
        }

        @Override
        public ConnectionManager connectionManager() {
            throw noDataPath("connectionManager");
        }

        @Override
        public Counters counters() {
            return Counters.sum("device", List.of(engine));
        }

        @Override
        public List<Counters> engineCounters() {
            return List.of(engine);
        }

        @Override
        public int invoke() {
            return 0;
        }

        @Override
        public void close() {
            closed.set(true);
        }
    }
}
