package dev.mpj.api;

import java.util.List;

/**
 * A wait condition for {@link MpiBackend#await}: true once every operation (null entries aside) has completed. A
 * class rather than a lambda at each wait: a cold JVM links a capturing lambda's call site on its first run (new
 * lambda forms for its shape), a cost that lands in every rank's first communication.
 */
public final class AllComplete implements WaitCondition {
    private final Operation[] ops;

    public AllComplete(Operation... ops) {
        this.ops = ops;
    }

    @Override
    public boolean getAsBoolean() {
        for (Operation op : ops) {
            if (op != null && !op.isComplete()) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void describePending(List<String> entries) {
        for (Operation op : ops) {
            if (op != null && !op.isComplete()) {
                entries.add("an internal " + op);
            }
        }
    }
}
