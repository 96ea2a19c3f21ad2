package org.jwarp.bench.report;

/**
 * What a seed paper asked and found, for one experiment: the section's title, the figure or tables
 * it reproduces (for the summary), the question and the shape of the paper's result.
 */
record Paper(String title, String figure, String question, String shape) {

    static Paper of(String name) {
        return switch (name) {
            case "toe" -> new Paper("Offloaded sockets (seed 001, Tables I and II)", "seed 001 Tables I, II",
                    "How much host CPU does a TCP offload engine save, as % of one CPU per Gb/s, sending and receiving, "
                            + "when the host passes data in 8 KB and 128 KB chunks?",
                    "Solaris TCP took 81 % of one CPU per Gb/s sending and 134 % receiving; the emulated TOE 11 % / 12 % "
                            + "with 128 KB chunks and 14 % / 24 % with 8 KB: 7 to 10 times less, and the receive side "
                            + "gains less with small chunks (one interrupt per chunk).");
            case "rss" -> new Paper("Receive-Side Scaling (seed 004)", "seed 004",
                    "How do connections spread over engine threads by RSS, round robin or all on one, and what does "
                            + "interrupt (event) moderation change in wake-ups and batching?",
                    "With more connections per thread each wake-up finds more work (fewer wake-ups, more packets per "
                            + "wake-up); RSS spreads connections over the threads; moderation cuts wake-ups further.");
            case "latency" -> new Paper("Latency (seed 000, Fig. 3 and Fig. 8)", "seed 000 Fig. 3, 8",
                    "What one-way latency does RDMA WRITE give against TCP sockets, by message size on a LAN, and how "
                            + "does a WAN delay change the comparison?",
                    "On the LAN RDMA's latency is well below sockets' for small messages and the gap narrows as "
                            + "messages grow; with emulated WAN delay both curves follow the delay, which dominates.");
            case "progress" -> new Paper("Communication progress (seed 000, Fig. 4b and Fig. 6)", "seed 000 Fig. 4b, 6",
                    "How long does fetching 1 KiB from a remote process take when that process is busy computing: RDMA "
                            + "READ against a sockets request and response?",
                    "RDMA READ stays flat whatever the remote load, since no remote process takes part; the sockets "
                            + "fetch grows with the load. With large WAN delay the delay dominates both, RDMA still ahead.");
            case "rendezvous" -> new Paper("Rendezvous protocols (seed 000, Fig. 9)", "seed 000 Fig. 9",
                    "What does exchanging buffer addresses for every message cost, against copying through pre-posted "
                            + "receive buffers: eager SEND, WRITE-based and READ-based rendezvous, by message size and "
                            + "by WAN delay, in latency and in the receiver's CPU?",
                    "Rendezvous avoids the copies, so it wins for large messages on a fast link; its control messages "
                            + "add round trips, so on a high-delay link it loses to eager copying unless messages are "
                            + "very large. The paper draws the protocols (Fig. 9) and argues the trade-off, without numbers.");
            case "iwarp-vs-tcp" -> new Paper("Software iWARP against TCP, CRC on and off (seed 002)",
                    "seed 002 Tables 1, 2, Fig. 2-4",
                    "Does a software iWARP stack keep up with TCP in latency and throughput, what does the MPA CRC cost, "
                            + "and how much CPU does each side use?",
                    "Software iWARP was within a few µs of TCP's latency (kernel stack with CRC 20.3 µs at 4 B and "
                            + "615.5 µs at 64 kB, TCP 16.9 and 594.8 µs), about 10 Mb/s below TCP in throughput on "
                            + "1 GbE, the CRC costing about 8 Mb/s; its host ran near full CPU load, much of it the CRC.");
            case "overlap" -> new Paper("Computation and communication overlap (seed 000, Fig. 4a and Fig. 5)",
                    "seed 000 Fig. 4a, 5",
                    "How much of a client's time is computation when it starts a ping-pong, computes, then finishes it: "
                            + "RDMA WRITE against non-blocking sockets, by computation time and by WAN delay?",
                    "RDMA reaches a high overlap ratio already at small computation times, sockets later: part of the "
                            + "sockets' work (copies, the rest of the message) runs in the application after its "
                            + "computation. At 242 ms of computation the gap narrows as the WAN delay grows, RDMA still "
                            + "ahead at a few ms.");
            case "cpu-impact" -> new Paper("CPU resource requirements (seed 000, Fig. 7)", "seed 000 Fig. 7",
                    "How much longer does a server application's CPU-bound job take while 40 clients stream data to the "
                            + "server, by RDMA WRITE against sockets, by message size and by WAN delay at 16 KB?",
                    "With background sockets traffic the job's execution time is much higher at every size and every "
                            + "delay; with background RDMA WRITEs it stays that of the job alone, since the RNIC places "
                            + "the data without the server's CPU.");
            case "verbs-options" -> new Paper("Verbs options: ping and blast (seed 003, Fig. 1-6)", "seed 003 Fig. 1-6",
                    "How do the verbs' options change one-way time, throughput and CPU: the opcode set, inline data, "
                            + "busy polling against completion events, the outstanding buffers, one work request per "
                            + "post against post lists, full against periodic signaling?",
                    "Busy polling gives lower one-way times than events (at 100 % CPU), inline helps small messages, "
                            + "and more outstanding buffers cut the one-way time of small messages several fold (to "
                            + "about 0.3 µs at 8-16 buffers); post lists did no better than one request per post for "
                            + "small messages, and periodic signaling made no difference with one request per post.");
            default -> new Paper("Experiment " + name, "", "(no description)", "(no description)");
        };
    }
}
