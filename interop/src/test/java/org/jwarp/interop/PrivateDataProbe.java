package org.jwarp.interop;

import java.net.InetSocketAddress;
import java.time.Duration;
import org.jwarp.verbs.CmEvent;
import org.jwarp.verbs.CmEventQueue;
import org.jwarp.verbs.CompletionQueue;
import org.jwarp.verbs.ConnectParams;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.ProtectionDomain;
import org.jwarp.verbs.QpInitAttr;
import org.jwarp.verbs.QpState;
import org.jwarp.verbs.QueuePair;
import org.jwarp.verbs.RdmaDevice;

/** Connects to siw's rping server with a given amount of MPA private data (rping itself sends none). */
final class PrivateDataProbe {

    private PrivateDataProbe() {
    }

    /** "established" or the connection error jwarp reports. */
    static String connect(SiwVm vm, int privateDataBytes) throws InterruptedException {
        vm.guestBackground("pd", "rping -s -a 0.0.0.0 -p " + SiwVm.GUEST_RPING_PORT + " 2>/tmp/bg/pd.err");
        if (!vm.awaitGuestListen(SiwVm.GUEST_RPING_PORT, Duration.ofSeconds(30))) {
            vm.guestKill("pd");
            return "siw rping -s did not listen";
        }
        String outcome;
        try (RdmaDevice dev = RdmaDevice.open(DeviceConfig.builder().peerToPeer(false).build())) {
            ProtectionDomain pd = dev.allocPd();
            CompletionQueue cq = dev.createCq(16, null);
            QueuePair qp = dev.createQp(pd, QpInitAttr.builder(cq, cq).build());
            qp.modify(QpState.INIT);
            CmEventQueue events = new CmEventQueue();
            dev.connectionManager().connect(new InetSocketAddress("127.0.0.1", SiwVm.GUEST_RPING_PORT), qp,
                    ConnectParams.of(new byte[privateDataBytes]), events);
            CmEvent e = events.poll(Duration.ofSeconds(30));
            outcome = switch (e) {
                case CmEvent.Established est -> "established";
                case CmEvent.ConnectError err -> err.reason();
                case null -> "no connection event within 30 s";
                default -> e.toString();
            };
            if (e instanceof CmEvent.Established) {
                dev.connectionManager().disconnect(qp);
                events.poll(Duration.ofSeconds(10));
            }
        }
        // siw's rping ends after an established connection; after a refused one it still listens
        if (!vm.awaitJob("pd", Duration.ofSeconds(outcome.equals("established") ? 20 : 2))) {
            vm.guestKill("pd");
        }
        return outcome;
    }
}
