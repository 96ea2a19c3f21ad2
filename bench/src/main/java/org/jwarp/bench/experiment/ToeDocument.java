package org.jwarp.bench.experiment;

import java.util.ArrayList;
import java.util.List;

/**
 * The offloaded-sockets experiment's {@code results.json}, schema {@link ToeReport#SCHEMA}
 * (docs/json.md): the plan, where each side's threads ran, the paper's figures, and one row per side
 * of every run.
 */
record ToeDocument(String schema, String mode, List<Integer> chunks, double secondsPerRun, int repeats,
                   int senderHostCpu, int senderEngineCpu, int receiverHostCpu, int receiverEngineCpu,
                   List<String> notes, Paper paperPercentOfOneCpuPerGbps, List<Place> places, List<Row> results) {

    /** The paper's figures, % of one CPU per Gb/s (Tables I and II). */
    record Paper(double toeSend128k, double toeSend8k, double toeReceive128k, double toeReceive8k,
                 double solarisTcpSend, double solarisTcpReceive) {
    }

    /** Where the two processes ran. */
    record Place(String name, String description) {
    }

    /** One side of one run. */
    record Row(String where, int repeat, String stack, int chunk, String side, long bytes, double seconds, double gbps,
               double hostCpuSeconds, double engineCpuSeconds, double hostPercentOfOneCpuPerGbps,
               double enginePercentOfOneCpuPerGbps, long interrupts, long events, long requests) {
    }

    static ToeDocument of(ToeExperiment.Plan plan, List<ToeExperiment.Where> places, List<ToeExperiment.Run> runs,
                          String mode, List<String> notes) {
        List<Place> where = new ArrayList<>();
        for (ToeExperiment.Where w : places) {
            where.add(new Place(w.name(), w.description()));
        }
        List<Row> rows = new ArrayList<>();
        for (ToeExperiment.Run r : runs) {
            for (ToeStream.SideResult s : List.of(r.sender(), r.receiver())) {
                rows.add(new Row(r.where(), r.repeat(), s.stack(), s.chunk(), s.role(), s.bytes(),
                        s.elapsedNanos() / 1e9, s.gbps(), s.hostCpuNanos() / 1e9, s.engineCpuNanos() / 1e9,
                        s.hostPercentPerGbps(), s.enginePercentPerGbps(), s.interrupts(), s.events(), s.requests()));
            }
        }
        Paper paper = new Paper(ToeExperiment.PAPER_TOE_SEND_128K, ToeExperiment.PAPER_TOE_SEND_8K,
                ToeExperiment.PAPER_TOE_RECEIVE_128K, ToeExperiment.PAPER_TOE_RECEIVE_8K, ToeExperiment.PAPER_TCP_SEND,
                ToeExperiment.PAPER_TCP_RECEIVE);
        return new ToeDocument(ToeReport.SCHEMA, mode, plan.chunks(), plan.seconds(), plan.repeats(),
                ToeExperiment.SENDER_HOST_CPU, ToeExperiment.SENDER_ENGINE_CPU, ToeExperiment.RECEIVER_HOST_CPU,
                ToeExperiment.RECEIVER_ENGINE_CPU, notes, paper, where, rows);
    }
}
