package dev.mpj.api;

import java.util.List;

/**
 * What a blocking receive that has to wait tells the wait report ({@link MpiBackend#receiveAndWait}): kept by its
 * caller and asked for a condition only when the receive waits, so a receive that completes at once makes none.
 */
@FunctionalInterface
public interface PendingReceive {
    /** The entry for a receive from world rank {@code sourceWorldRank} (or ANY_SOURCE) with {@code tag}. */
    String describe(int sourceWorldRank, int tag);

    /** The wait condition of {@code op}: complete, else described as {@link #describe} says. */
    default WaitCondition condition(Operation op, int sourceWorldRank, int tag) {
        return new WaitCondition() {
            @Override
            public boolean getAsBoolean() {
                return op.isComplete();
            }

            @Override
            public void describePending(List<String> entries) {
                if (!op.isComplete()) {
                    entries.add(describe(sourceWorldRank, tag));
                }
            }
        };
    }
}
