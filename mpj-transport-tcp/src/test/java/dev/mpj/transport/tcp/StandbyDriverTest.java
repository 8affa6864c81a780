package dev.mpj.transport.tcp;

import io.netty.channel.IoHandle;
import io.netty.channel.IoHandler;
import io.netty.channel.IoHandlerContext;
import io.netty.channel.IoRegistration;
import io.netty.channel.nio.NioIoHandler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The standby that runs a driven loop while the MPI thread stays away: it sleeps until there is work. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class StandbyDriverTest {
    /** The standby takes the loop as soon as nobody else has. */
    private static final long AWAY_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final AtomicInteger runs = new AtomicInteger();
    private DrivenEventLoop loop;
    private StandbyDriver standby;
    private Thread thread;

    @BeforeEach
    void startStandby() throws InterruptedException {
        loop = new DrivenEventLoop(executor -> new CountingHandler(NioIoHandler.newFactory().newHandler(executor)));
        standby = new StandbyDriver(loop, AWAY_NANOS);
        thread = new Thread(standby::run, "standby");
        thread.setDaemon(true);
        thread.start();
        while (!loop.inEventLoop(thread)) {
            Thread.sleep(1);
        }
    }

    @AfterEach
    void stopStandby() throws InterruptedException {
        standby.stop(10_000);
        thread.join(10_000);
        assertTrue(loop.acquire());
        try {
            loop.terminate();
        } finally {
            loop.release();
        }
    }

    @Test
    void anIdleStandbyWaitsInTheSelectorWithoutWakingUp() throws InterruptedException {
        int before = runs.get();
        Thread.sleep(300);

        // a wake-up armed before it blocked may end one run; a 10 ms bound would have ended dozens
        assertTrue(runs.get() - before <= 1, (runs.get() - before) + " runs while nothing happened");
        assertTrue(loop.inEventLoop(thread));
    }

    @Test
    void aTaskFromAnotherThreadRunsOnTheWaitingStandby() throws Exception {
        CompletableFuture<Thread> ranOn = new CompletableFuture<>();
        loop.execute(() -> ranOn.complete(Thread.currentThread()));

        assertSame(thread, ranOn.get(20, TimeUnit.SECONDS));
    }

    @Test
    void aTaskScheduledOnTheLoopRunsWhenDueWithNoWakeUp() throws Exception {
        CompletableFuture<Thread> ranOn = new CompletableFuture<>();
        // scheduled by the holder itself, so nothing wakes the selector: the standby's wait must end at the due time
        loop.execute(() -> loop.schedule(() -> ranOn.complete(Thread.currentThread()), 50, TimeUnit.MILLISECONDS));

        assertSame(thread, ranOn.get(20, TimeUnit.SECONDS));
    }

    @Test
    void theCallerGetsTheLoopBackFromTheWaitingStandby() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        boolean held = false;
        while (!held && System.nanoTime() < deadline) {
            held = loop.tryHold();
            if (!held) {
                Thread.sleep(1);
            }
        }

        assertTrue(held);
        loop.release();
    }

    @Test
    void stopEndsTheWaitingStandby() throws InterruptedException {
        standby.stop(10_000);

        thread.join(20_000);
        assertFalse(thread.isAlive());
        assertFalse(loop.inEventLoop(thread));
    }

    /** Netty's NIO handler, counting the runs the standby makes. */
    private final class CountingHandler implements IoHandler {
        private final IoHandler nio;

        CountingHandler(IoHandler nio) {
            this.nio = nio;
        }

        @Override
        public void initialize() {
            nio.initialize();
        }

        @Override
        public int run(IoHandlerContext context) {
            runs.incrementAndGet();
            return nio.run(context);
        }

        @Override
        public void prepareToDestroy() {
            nio.prepareToDestroy();
        }

        @Override
        public void destroy() {
            nio.destroy();
        }

        @Override
        public IoRegistration register(IoHandle handle) throws Exception {
            return nio.register(handle);
        }

        @Override
        public void wakeup() {
            nio.wakeup();
        }

        @Override
        public boolean isCompatible(Class<? extends IoHandle> handleType) {
            return nio.isCompatible(handleType);
        }
    }
}
