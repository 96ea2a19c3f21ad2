package org.jwarp.verbs.spi;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/**
 * Lookup of {@link RdmaProvider}s through {@link ServiceLoader}: how
 * {@link org.jwarp.verbs.RdmaDevice#open(org.jwarp.verbs.DeviceConfig)} finds the provider a
 * configuration names. Applications rarely call it themselves; it lists what is on the class path.
 */
public final class RdmaProviders {

    /** Maven coordinates of the default provider, named in the "nothing found" message. */
    public static final String DEFAULT_PROVIDER_ARTIFACT = "org.jwarp:jwarp-engine";

    /** The provider a configuration without a provider name opens when it is on the class path. */
    public static final String DEFAULT_PROVIDER_NAME = "jwarp";

    private RdmaProviders() {
    }

    /**
     * The providers visible to {@code loader}, in class-path order.
     *
     * @throws IllegalStateException if a registered provider cannot be loaded or instantiated (the
     *                               cause says which)
     * @param loader where to look
     * @return the providers
     */
    public static List<RdmaProvider> all(ClassLoader loader) {
        List<RdmaProvider> found = new ArrayList<>();
        try {
            for (RdmaProvider p : ServiceLoader.load(RdmaProvider.class, loader)) {
                found.add(p);
            }
        } catch (ServiceConfigurationError e) {
            throw new IllegalStateException("a registered " + RdmaProvider.class.getName()
                    + " could not be loaded: " + e.getMessage(), e);
        }
        return found;
    }

    /**
     * The provider named {@code name}, or, if {@code name} is {@code null}, the jwarp engine
     * ({@value #DEFAULT_PROVIDER_NAME}) if it is on the class path, else the first in class-path order.
     *
     * @throws IllegalStateException if none is found; the message names what to add to the class path
     *                               or lists the names that are available
     * @param name   the provider's name, or {@code null}
     * @param loader where to look
     * @return the provider
     */
    public static RdmaProvider find(String name, ClassLoader loader) {
        List<RdmaProvider> all = all(loader);
        if (all.isEmpty()) {
            throw new IllegalStateException("No jwarp verbs provider on the class path: add the jwarp engine ("
                    + DEFAULT_PROVIDER_ARTIFACT + "), or another jar that registers an implementation of "
                    + RdmaProvider.class.getName() + " in META-INF/services/" + RdmaProvider.class.getName());
        }
        if (name == null) {
            // no name: the default provider wherever it stands on the class path, so that adding
            // another provider's jar never changes what an unchanged program opens
            for (RdmaProvider p : all) {
                if (DEFAULT_PROVIDER_NAME.equals(p.name())) {
                    return p;
                }
            }
            return all.getFirst();
        }
        List<String> names = new ArrayList<>();
        for (RdmaProvider p : all) {
            if (name.equals(p.name())) {
                return p;
            }
            names.add(p.name());
        }
        throw new IllegalStateException("No jwarp verbs provider named '" + name + "' on the class path; available: "
                + names + ". Fix DeviceConfig.providerName or add the jar that provides '" + name + "'");
    }
}
