package dev.mpj.transport.tcp;

import io.netty.channel.IoEventLoop;
import io.netty.channel.IoEventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SingleThreadIoEventLoop;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Future;

import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * The event-loop threads of {@code mpj.tcp.progress=threads}: Netty's group, whose loops have a
 * {@link TerminationPromise} that {@link #shutdown} completes once each loop has stopped. Netty's own loops complete
 * theirs on their way out and hand the group's listener to Netty's global executor, whose thread is not a daemon:
 * the JVM then ended a second after {@code main}.
 */
final class ThreadLoopGroup extends MultiThreadIoEventLoopGroup {
    private final TerminationPromise termination = new TerminationPromise();

    ThreadLoopGroup(int threads, ThreadFactory threadFactory, IoHandlerFactory ioHandlerFactory) {
        super(threads, threadFactory, ioHandlerFactory);
    }

    @Override
    protected IoEventLoop newChild(Executor executor, IoHandlerFactory ioHandlerFactory, Object... args) {
        return new Loop(this, executor, ioHandlerFactory);
    }

    /** The group's own promise too: Netty's would also hand its listeners to the global executor. */
    @Override
    public Future<?> terminationFuture() {
        return termination;
    }

    /**
     * Stops every loop, waits about {@code timeoutMillis} at most, and completes the promises of the loops that
     * stopped, and the group's once all did.
     */
    void shutdown(long timeoutMillis) {
        shutdownGracefully(0, timeoutMillis, TimeUnit.MILLISECONDS);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis + 500);
        for (EventExecutor executor : this) {
            Loop loop = (Loop) executor;
            try {
                if (loop.awaitTermination(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                    loop.termination.trySuccess(null);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        if (isTerminated()) {
            termination.trySuccess(null);
        }
    }

    private static final class Loop extends SingleThreadIoEventLoop {
        private final TerminationPromise termination = new TerminationPromise();

        Loop(IoEventLoopGroup parent, Executor executor, IoHandlerFactory ioHandlerFactory) {
            super(parent, executor, ioHandlerFactory);
        }

        @Override
        public Future<?> terminationFuture() {
            return termination;
        }
    }
}
