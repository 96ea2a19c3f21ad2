package org.jwarp.engine.cm;

import java.util.EnumSet;
import java.util.Set;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.wire.mpa.MpaFrame;
import org.jwarp.wire.mpa.MpaPolicy;
import org.jwarp.wire.mpa.RtrType;

/** The MPA policy a device's configuration and a connection's IRD/ORD ask for. */
final class MpaPolicies {

    private MpaPolicies() {
    }

    static MpaPolicy of(DeviceConfig c, int ird, int ord) {
        MpaPolicy.CrcPolicy crc = switch (c.crcPolicy()) {
            case REQUIRED -> MpaPolicy.CrcPolicy.REQUIRED;
            case PREFERRED -> MpaPolicy.CrcPolicy.PREFERRED;
            case OFF -> MpaPolicy.CrcPolicy.NOT_WANTED;
        };
        Set<RtrType> rtr = EnumSet.noneOf(RtrType.class);
        for (DeviceConfig.RtrKind k : c.rtrKinds()) {
            rtr.add(switch (k) {
                case SEND -> RtrType.SEND;
                case WRITE -> RtrType.WRITE;
                case READ -> RtrType.READ;
            });
        }
        if (rtr.isEmpty()) {
            rtr.add(RtrType.WRITE);
        }
        return MpaPolicy.defaults()
                .withRevision(c.mpaRevision(), c.mpaRevision() == 2)
                .withCrc(crc)
                .withMarkers(c.markerPolicy() == DeviceConfig.MarkerPolicy.REQUEST, true)
                .withIrdOrd(ird, ord, true)
                .withRtr(c.peerToPeer() && c.mpaRevision() == 2, rtr)
                .withMaxPrivateDataLength(MpaFrame.MAX_PRIVATE_DATA_LENGTH);
    }
}
