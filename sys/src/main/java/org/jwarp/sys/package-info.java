/**
 * What the engine and degen share of the operating system: {@link org.jwarp.sys.NanoClock}, the
 * clock everything that waits on time takes (DESIGN rule 7); {@link org.jwarp.sys.Downcalls}, libc
 * through the FFM API with errno; {@link org.jwarp.sys.Errno}, errno's names for messages.
 */
package org.jwarp.sys;
