package org.jwarp.stack;

import java.util.ArrayList;
import java.util.List;
import org.jwarp.verbs.WorkCompletion;

/** Test helper: a completion queue that keeps every completion, and whether it was solicited. */
final class ListCompletionSink implements CompletionSink {

    final List<WorkCompletion> completions = new ArrayList<>();
    final List<Boolean> solicited = new ArrayList<>();
    private final int capacity;
    private WorkCompletion claimed;
    /** Runs as each completion becomes visible: what a consumer polling at that moment could do. */
    Runnable onPublish = () -> { };

    ListCompletionSink(int capacity) {
        this.capacity = capacity;
    }

    @Override
    public WorkCompletion claim() {
        if (completions.size() >= capacity) {
            return null;
        }
        claimed = new WorkCompletion();
        return claimed;
    }

    @Override
    public void publish(boolean isSolicited) {
        completions.add(claimed);
        solicited.add(isSolicited);
        claimed = null;
        onPublish.run();
    }

    int size() {
        return completions.size();
    }

    WorkCompletion take() {
        if (completions.isEmpty()) {
            throw new AssertionError("no completion");
        }
        solicited.removeFirst();
        return completions.removeFirst();
    }
}
