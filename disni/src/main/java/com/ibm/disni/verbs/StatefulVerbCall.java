package com.ibm.disni.verbs;

import java.io.IOException;

/**
 * A prepared verb call: set up once, {@link #execute()}d any number of times without allocating,
 * {@link #free()}d when no longer needed. Executing a freed call fails with an IOException.
 */
public interface StatefulVerbCall<T extends StatefulVerbCall<?>> {
    T execute() throws IOException;

    boolean isValid();

    T free();
}
