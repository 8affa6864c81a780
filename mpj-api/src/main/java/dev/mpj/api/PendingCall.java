package dev.mpj.api;

import java.util.List;

/**
 * What a blocking receive or send that has to wait tells the wait report ({@link MpiBackend#receiveAndWait}): asked
 * for a condition only when the call waits, so a call that completes at once makes none.
 */
@FunctionalInterface
public interface PendingCall {
    /** The entry for the call with world rank {@code peerWorldRank} (or ANY_SOURCE) and {@code tag}. */
    String describe(int peerWorldRank, int tag);

    /** The wait condition of {@code op}: complete, else described as {@link #describe} says. */
    default WaitCondition condition(Operation op, int peerWorldRank, int tag) {
        return new WaitCondition() {
            @Override
            public boolean getAsBoolean() {
                return op.isComplete();
            }

            @Override
            public void describePending(List<String> entries) {
                if (!op.isComplete()) {
                    entries.add(describe(peerWorldRank, tag));
                }
            }
        };
    }
}
