package org.jwarp.bench.run;

import java.net.InetSocketAddress;
import org.jwarp.bench.perf.PendingServer;
import org.jwarp.bench.perf.Session;
import org.jwarp.bench.perf.Settings;
import org.jwarp.bench.perf.TestKind;
import org.jwarp.bench.perf.TransportKind;
import org.jwarp.bench.transport.jwarp.JwarpOptions;
import org.jwarp.bench.transport.jwarp.JwarpSession;
import org.jwarp.bench.transport.sockets.SocketSession;

/** Listen and connect for any transport. */
public final class Endpoints {

    private Endpoints() {
    }

    public static PendingServer listen(TransportKind transport, JwarpOptions jwarp, TestKind test, InetSocketAddress bind) {
        return transport == TransportKind.JWARP ? JwarpSession.listen(jwarp, test, bind)
                : SocketSession.listen(transport, test, bind, jwarp.yieldWhenIdle());
    }

    public static Session connect(JwarpOptions jwarp, Settings settings, InetSocketAddress server) {
        return settings.transport() == TransportKind.JWARP ? JwarpSession.connect(jwarp, settings, server)
                : SocketSession.connect(settings, server, jwarp.yieldWhenIdle());
    }
}
