package dev.mpj.runtime.engine;

/**
 * How a wait for other ranks' stores sleeps until the rank it waits for wakes it, rather than poll or park on a
 * timer: where a node's ranks outnumber its cores, a polling or yielding wait takes its fair share of a core from
 * the rank it waits for, and a timed park sleeps at least a timer tick where that rank answers sooner.
 */
public interface SignalledSleep {
    /**
     * Says where the rank that can end the wait will look that this rank sleeps, tests the wait's condition once
     * more (a store made before the announcement saw none) and, unless it holds, sleeps until woken or a short
     * while has passed, so that the wait still makes progress passes and notices a failed job.
     */
    void sleep();
}
