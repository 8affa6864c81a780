package dev.mpj.transport.tcp;

import io.netty.channel.nio.NioIoHandler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(30)
class DrivenEventLoopTest {
    @Test
    void terminationListenersRunOnTheTerminatingThreadAndAnyThreadMayAwaitIt() throws Exception {
        DrivenEventLoop loop = new DrivenEventLoop(NioIoHandler.newFactory());
        AtomicReference<Thread> ranOn = new AtomicReference<>();
        loop.terminationFuture().addListener(f -> ranOn.set(Thread.currentThread()));
        CompletableFuture<Boolean> awaited = CompletableFuture.supplyAsync(() -> {
            try {
                return loop.awaitTermination(20, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });

        assertTrue(loop.tryHold());
        loop.terminate();

        // not a thread of Netty's GlobalEventExecutor, which is no daemon and would outlive main by a second
        assertSame(Thread.currentThread(), ranOn.get());
        assertTrue(awaited.get(20, TimeUnit.SECONDS));
        assertTrue(loop.isTerminated());
    }
}
