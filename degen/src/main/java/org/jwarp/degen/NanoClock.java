package org.jwarp.degen;

/** A monotonic nanosecond clock; injected so that everything timed can be driven by a test. */
@FunctionalInterface
public interface NanoClock {

    NanoClock SYSTEM = System::nanoTime;

    long nanoTime();
}
