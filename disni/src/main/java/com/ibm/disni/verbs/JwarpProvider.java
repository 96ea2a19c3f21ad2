package com.ibm.disni.verbs;

/** {@link RdmaProvider} of jwarp's calls. */
final class JwarpProvider extends RdmaProvider {
    private final RdmaCm cm = new JwarpCm();
    private final RdmaVerbs verbs = new JwarpVerbs();

    @Override
    public RdmaCm openCm() {
        return cm;
    }

    @Override
    public RdmaVerbs openVerbs() {
        return verbs;
    }

    @Override
    public int getVersion() {
        return RdmaVerbs.getVersion();
    }
}
