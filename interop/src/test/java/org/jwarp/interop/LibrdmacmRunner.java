package org.jwarp.interop;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs a {@link LibrdmacmCell}: the example in the guest, jwarp's version in this JVM through the
 * real command. A cell passes when both sides print their success line (cmatose: "return status
 * 0" after every connection's messages went both ways and the server's disconnects arrived).
 */
final class LibrdmacmRunner {

    /** The examples' port: host to guest, and the host's port the guest reaches. */
    static final int GUEST_PORT = 7471;
    static final int HOST_PORT = 27471;

    private final SiwVm vm;

    LibrdmacmRunner(SiwVm vm) {
        this.vm = vm;
    }

    ToolResult run(LibrdmacmCell c) throws InterruptedException {
        List<String> args = new ArrayList<>(List.of(c.jwarpCommand()));
        args.addAll(c.toolArgs());
        if (!c.crc()) {
            args.addAll(List.of("--crc", "off"));
        }
        String toolArgs = String.join(" ", c.toolArgs());
        String guest;
        CellRunner.Jwarp j;
        if (c.jwarpClient()) {
            vm.guestBackground("ex", c.tool() + " -p " + GUEST_PORT + " " + toolArgs + "; echo \"exit $?\"");
            if (!vm.awaitGuestListen(GUEST_PORT, Duration.ofSeconds(30))) {
                vm.guestKill("ex");
                return new ToolResult(c.name(), false, c.tool() + " did not start listening" + vm.healthNote(), "");
            }
            args.addAll(List.of("-s", "127.0.0.1", "-p", "" + GUEST_PORT));
            j = CellRunner.Jwarp.run(args);
            if (!vm.awaitJob("ex", Duration.ofSeconds(j.exit == 0 ? 60 : 5))) {
                vm.guestKill("ex");
            }
            guest = vm.jobLog("ex");
        } else {
            args.addAll(List.of("-p", "" + HOST_PORT));
            j = CellRunner.Jwarp.start(args, "listening on");
            if (!j.awaitMarker(Duration.ofSeconds(20))) {
                j.stop();
                return new ToolResult(c.name(), false, "jwarp did not listen: " + CellRunner.firstLine(j.err), j.out + j.err);
            }
            SiwVm.Result r = vm.guest(Duration.ofSeconds(120), c.tool() + " -s " + SiwVm.HOST_FROM_GUEST + " -p " + HOST_PORT
                    + " " + toolArgs + " 2>&1; echo \"exit $?\"");
            if (!j.await(Duration.ofSeconds(60))) {
                j.stop();
            }
            guest = r.output();
        }
        String log = "--- " + c.tool() + "\n" + guest + "--- jwarp " + String.join(" ", args) + " (exit " + j.exit + ")\n"
                + j.out + j.err;
        boolean guestOk = guest.contains(c.success(false)) && guest.contains("exit 0");
        boolean jwarpOk = j.exit == 0 && j.out.contains(c.success(true));
        String failure = !jwarpOk ? "jwarp: " + CellRunner.firstLine(j.err.isBlank() ? j.out : j.err)
                : !guestOk ? c.tool() + " did not end well: " + CellRunner.firstLine(SiwVm.tail(guest, 3)) : null;
        return new ToolResult(c.name(), failure == null, failure == null ? "both ended well" : failure, log);
    }
}
