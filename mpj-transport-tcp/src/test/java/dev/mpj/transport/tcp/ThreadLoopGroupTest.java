package dev.mpj.transport.tcp;

import io.netty.channel.nio.NioIoHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(30)
class ThreadLoopGroupTest {
    @Test
    void shutdownStopsTheLoopsAndRunsTheGroupsListenersOnTheCallingThread() {
        ThreadLoopGroup group = new ThreadLoopGroup(2, new DefaultThreadFactory("test-loop", true),
                NioIoHandler.newFactory());
        group.next().execute(() -> { }); // start a loop thread
        AtomicReference<Thread> ranOn = new AtomicReference<>();
        group.terminationFuture().addListener(f -> ranOn.set(Thread.currentThread()));

        group.shutdown(5_000);

        assertTrue(group.isTerminated());
        assertTrue(group.terminationFuture().isDone());
        // not a thread of Netty's GlobalEventExecutor, which is no daemon and would outlive main by a second
        assertSame(Thread.currentThread(), ranOn.get());
    }
}
