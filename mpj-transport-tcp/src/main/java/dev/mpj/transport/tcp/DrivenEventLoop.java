package dev.mpj.transport.tcp;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelPromise;
import io.netty.channel.DefaultChannelPromise;
import io.netty.channel.IoEventLoop;
import io.netty.channel.IoEventLoopGroup;
import io.netty.channel.IoHandle;
import io.netty.channel.IoHandler;
import io.netty.channel.IoHandlerContext;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.IoRegistration;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.Promise;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A Netty event loop without a thread of its own: whichever thread holds it runs its I/O and its tasks.
 * <p>
 * The thread that calls MPI takes it on every progress pass and every send ({@link #tryHold}), so a frame is
 * written to the socket and read from it on that thread, with no hand-off to another one. When that thread stays
 * away (it computes, or waits for something other than the engine), a standby thread holds the loop instead, so
 * connections are still accepted, handshakes answered and lost peers noticed; it gives the loop back as soon as
 * the MPI thread asks for it ({@link #wanted}).
 * <p>
 * Netty runs a channel operation inline when {@link #inEventLoop(Thread)} says the caller is the loop's thread,
 * and otherwise queues it as a task and wakes the loop. Here that is true only for the current holder, and only
 * while it holds the loop, so an operation from any other thread is queued and run by the next holder, and the
 * holder's own operations are never interleaved with another thread's. Taking and giving back the loop is a
 * compare-and-set and a store, which also publishes the non-thread-safe state of Netty's I/O handler to the
 * next holder.
 */
final class DrivenEventLoop extends io.netty.util.concurrent.AbstractScheduledEventExecutor implements IoEventLoop {
    private static final int RUNNING = 0;
    private static final int SHUTTING_DOWN = 1;
    private static final int TERMINATED = 2;

    private final AtomicReference<Thread> holder = new AtomicReference<>();
    private final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final IoHandler handler;
    private final Promise<Void> termination = new TerminationPromise();
    private final Context context = new Context();
    private volatile int state = RUNNING;
    /** Set by a thread that found the loop held and wants it; the standby gives it back. */
    private volatile boolean wanted;
    /** Holds taken through {@link #tryHold}, so the standby sees whether the MPI thread is around. */
    private volatile long holds;
    /** Nested holds of the current holder; only the holder touches it. */
    private int depth;
    private boolean initialized;

    DrivenEventLoop(IoHandlerFactory factory) {
        this.handler = factory.newHandler(this);
    }

    // ---------------------------------------------------------------- holding

    /**
     * Takes the loop for the calling thread, unless another thread holds it; then asks for it (the standby gives
     * it back soon) and returns false. Nested holds by the same thread are allowed. Pair a true result with
     * {@link #release}.
     */
    boolean tryHold() {
        if (!acquire()) {
            if (!wanted) {
                wanted = true;
                handler.wakeup();
            }
            return false;
        }
        holds++; // only the holder writes it
        return true;
    }

    /** Takes the loop for the calling thread if nobody holds it, without asking for it otherwise. */
    boolean acquire() {
        Thread current = Thread.currentThread();
        if (holder.get() == current) {
            depth++;
            return true;
        }
        if (holder.compareAndSet(null, current)) {
            depth = 1;
            if (!initialized) {
                initialized = true;
                handler.initialize();
            }
            return true;
        }
        return false;
    }

    /** Gives the loop back after {@link #tryHold} or {@link #acquire}; the outermost release frees it. */
    void release() {
        if (holder.get() != Thread.currentThread()) {
            throw new IllegalStateException(Thread.currentThread().getName() + " does not hold the loop");
        }
        if (--depth == 0) {
            holder.set(null);
        }
    }

    long holds() {
        return holds;
    }

    /** Ends a blocking run of the current holder early. */
    void wakeupHolder() {
        handler.wakeup();
    }

    boolean isWanted() {
        return wanted;
    }

    void clearWanted() {
        wanted = false;
    }

    // ---------------------------------------------------------------- running (holder only)

    /** Runs the I/O that is ready and the tasks that are due, without blocking; returns how many. */
    int runNow() {
        return run(0);
    }

    /** As {@link #runNow}, but waits up to {@code waitNanos} for I/O, a task or a wake-up first. */
    int run(long waitNanos) {
        checkHolder();
        context.maxWaitNanos = waitNanos;
        if (state == TERMINATED) {
            return 0;
        }
        // tasks first: the holder's inline operations may have queued some (a server channel's acceptor handler is
        // added by a task) that must run before new I/O is handled
        int work = runTasks();
        work += handler.run(context);
        return work + runTasks();
    }

    private int runTasks() {
        fetchFromScheduledTaskQueue(tasks);
        int n = 0;
        for (Runnable task; (task = tasks.poll()) != null; n++) {
            safeExecute(task);
        }
        return n;
    }

    /**
     * Closes every channel of the loop, runs what that queued and releases the selector; the loop rejects work from
     * then on. Holder only, and only once nobody else will drive it (the standby has stopped).
     */
    void terminate() {
        checkHolder();
        if (state == TERMINATED) {
            return;
        }
        state = SHUTTING_DOWN;
        try {
            runTasks();
            handler.prepareToDestroy();
            runTasks();
            handler.destroy();
            runTasks();
            cancelScheduledTasks();
        } finally {
            state = TERMINATED;
            termination.trySuccess(null);
        }
    }

    private void checkHolder() {
        if (holder.get() != Thread.currentThread()) {
            throw new IllegalStateException(Thread.currentThread().getName() + " does not hold the loop");
        }
    }

    /**
     * How long Netty's I/O handler may wait on one run. A run that must not wait still says it may block, with no
     * time to do so: the handler then selects without waiting but, unlike on its non-blocking path, also clears its
     * record of a wake-up request, which would otherwise stay set and make every later {@code wakeup()} from another
     * thread a no-op, leaving a standby blocked in the selector with a task queued.
     */
    private final class Context implements IoHandlerContext {
        long maxWaitNanos;

        @Override
        public boolean canBlock() {
            return tasks.isEmpty() && !hasScheduledTasks();
        }

        @Override
        public long delayNanos(long currentTimeNanos) {
            return maxWaitNanos <= 0 ? 0 : Math.min(maxWaitNanos, DrivenEventLoop.this.delayNanos(currentTimeNanos,
                    maxWaitNanos));
        }

        @Override
        public long deadlineNanos() {
            long now = getCurrentTimeNanos();
            long next = nextScheduledTaskDeadlineNanos();
            return next == -1 || next - now > maxWaitNanos ? now + maxWaitNanos : next;
        }
    }

    // ---------------------------------------------------------------- Netty's EventLoop

    @Override
    public boolean inEventLoop(Thread thread) {
        return holder.get() == thread;
    }

    @Override
    public void execute(Runnable task) {
        if (state == TERMINATED) {
            throw new RejectedExecutionException("TCP event loop terminated");
        }
        tasks.add(task);
        if (!inEventLoop()) {
            handler.wakeup();
        }
    }

    @Override
    public DrivenEventLoop next() {
        return this;
    }

    @Override
    public IoEventLoopGroup parent() {
        return null;
    }

    @Override
    public Future<IoRegistration> register(IoHandle handle) {
        Promise<IoRegistration> promise = newPromise();
        if (inEventLoop()) {
            registerNow(handle, promise);
        } else {
            execute(() -> registerNow(handle, promise));
        }
        return promise;
    }

    private void registerNow(IoHandle handle, Promise<IoRegistration> promise) {
        try {
            promise.setSuccess(handler.register(handle));
        } catch (Exception e) {
            promise.setFailure(e);
        }
    }

    @Override
    public boolean isCompatible(Class<? extends IoHandle> handleType) {
        return handler.isCompatible(handleType);
    }

    @Override
    public boolean isIoType(Class<? extends IoHandler> handlerType) {
        return handler.getClass().equals(handlerType);
    }

    @Override
    public ChannelFuture register(Channel channel) {
        return register(new DefaultChannelPromise(channel, this));
    }

    @Override
    public ChannelFuture register(ChannelPromise promise) {
        promise.channel().unsafe().register(this, promise);
        return promise;
    }

    @Deprecated
    @Override
    public ChannelFuture register(Channel channel, ChannelPromise promise) {
        channel.unsafe().register(this, promise);
        return promise;
    }

    /** Marks the loop as shutting down; {@link #terminate} does the work, on the thread that closes the transport. */
    @Override
    public Future<?> shutdownGracefully(long quietPeriod, long timeout, TimeUnit unit) {
        if (state == RUNNING) {
            state = SHUTTING_DOWN;
        }
        return termination;
    }

    @Deprecated
    @Override
    public void shutdown() {
        shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
    }

    @Override
    public Future<?> terminationFuture() {
        return termination;
    }

    @Override
    public boolean isShuttingDown() {
        return state != RUNNING;
    }

    @Override
    public boolean isShutdown() {
        return state == TERMINATED;
    }

    @Override
    public boolean isTerminated() {
        return state == TERMINATED;
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        return termination.await(timeout, unit);
    }
}
