package dev.mpj.transport.tcp;

import io.netty.util.concurrent.DefaultPromise;
import io.netty.util.concurrent.ImmediateEventExecutor;

/**
 * An event loop's termination promise that runs its listeners (the group's) on the thread that completes it. A
 * promise of Netty's {@code GlobalEventExecutor}, as Netty's loops have, hands them to that executor's thread, which
 * is not a daemon and outlives its last task by a second: the JVM of every TCP job then ended a second after
 * {@code main}.
 */
final class TerminationPromise extends DefaultPromise<Void> {
    TerminationPromise() {
        super(ImmediateEventExecutor.INSTANCE);
    }

    /** Any thread may wait for it: no event loop is needed to complete it or to run its listeners. */
    @Override
    protected void checkDeadLock() {
    }
}
