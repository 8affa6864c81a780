package dev.mpj.runtime.engine;

import dev.mpj.runtime.config.WaitPolicy;
import dev.mpj.runtime.spi.Idling;
import org.agrona.concurrent.IdleStrategy;

/** A transport's idling under a wait policy, as the engine's own polled waits idle. */
public record WaitIdling(WaitPolicy policy) implements Idling {
    @Override
    public IdleStrategy pollingIdleStrategy() {
        return PollingIdleStrategy.forPolicy(policy);
    }

    @Override
    public long standbyAfterNanos() {
        return policy.standbyAfterNanos();
    }
}
