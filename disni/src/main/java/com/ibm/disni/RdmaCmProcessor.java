package com.ibm.disni;

import com.ibm.disni.util.DiSNILogger;
import com.ibm.disni.verbs.RdmaCmEvent;
import com.ibm.disni.verbs.RdmaCmId;
import com.ibm.disni.verbs.RdmaEventChannel;
import java.io.IOException;

/** A group's connection manager thread: takes events off the group's channel and dispatches them to the group. */
public class RdmaCmProcessor implements Runnable {
    private final RdmaEndpointGroup<? extends RdmaEndpoint> group;
    private final RdmaEventChannel channel;
    private final int timeout;
    private final Thread thread;
    private volatile boolean running;

    public RdmaCmProcessor(RdmaEndpointGroup<? extends RdmaEndpoint> group, int timeout) throws IOException {
        this.group = group;
        this.timeout = timeout > 0 ? timeout : 1000;
        this.channel = RdmaEventChannel.createEventChannel();
        this.thread = new Thread(this, "disni-cm-" + channel.getFd());
    }

    RdmaCmId createId(short ps) throws IOException {
        return channel.createId(ps);
    }

    public synchronized void start() {
        running = true;
        thread.start();
    }

    @Override
    public void run() {
        while (running) {
            try {
                RdmaCmEvent event = channel.getCmEvent(timeout);
                if (event != null) {
                    group.dispatchCmEvent(event);
                    event.ackEvent();
                }
            } catch (IOException | RuntimeException e) {
                if (running) {
                    DiSNILogger.getLogger().warn("CM event dispatch failed: " + e);
                }
            }
        }
    }

    public synchronized void close() throws IOException, InterruptedException {
        running = false;
        if (thread.isAlive() && thread != Thread.currentThread()) {
            // out of its wait at once, not after the group's timeout
            thread.interrupt();
            thread.join();
        }
        channel.destroyEventChannel();
    }
}
