package dev.mpj.runtime.engine;

import dev.mpj.api.Operation;
import dev.mpj.api.SendMode;
import mpi.MPI;
import mpi.MPIException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which threads may be inside one engine at once, by the MPI thread level it was given. */
@Timeout(60)
class EngineThreadLevelTest {
    private final EngineHarness h = new EngineHarness(2, 1024, 1024);

    /** Runs {@code second} while another thread is inside {@code engine}'s wait; returns what it threw, if anything. */
    private static Throwable whileAnotherThreadWaits(ProgressEngine engine, Runnable second) throws Exception {
        CountDownLatch inside = new CountDownLatch(2); // a wait may check once before it enters the engine
        AtomicBoolean release = new AtomicBoolean();
        Thread waiter = new Thread(() -> engine.await(() -> {
            inside.countDown();
            return release.get();
        }), "waiter");
        waiter.start();
        inside.await();
        Throwable thrown = null;
        try {
            second.run();
        } catch (RuntimeException e) {
            thrown = e;
        } finally {
            release.set(true);
            waiter.join();
        }
        return thrown;
    }

    @Test
    void underSerializedASecondThreadIsRefusedWhileOneIsInsideAndTheQueuesStayIntact() throws Exception {
        ProgressEngine engine = h.get(1);
        engine.setThreadLevel(MPI.THREAD_SERIALIZED);

        Throwable refused = whileAnotherThreadWaits(engine, () -> engine.receive(ByteBuffer.allocate(4), 0, 3, 0));

        assertRefusedNaming("MPI.THREAD_SERIALIZED", refused);
        // one thread at a time is still fine, and the refused receive left nothing behind to match
        assertOneReceiveWorks(engine);
    }

    @ParameterizedTest(name = "{1}")
    @CsvSource({"0, MPI.THREAD_SINGLE", "1, MPI.THREAD_FUNNELED"})
    void underSingleAndFunneledOnlyTheThreadThatInitialisedMayCallAndTheQueuesStayIntact(int level, String name)
            throws Exception {
        ProgressEngine engine = h.get(1);
        engine.setThreadLevel(level); // this thread initialised MPI

        AtomicReference<Throwable> refused = new AtomicReference<>();
        Thread other = new Thread(() -> {
            try {
                engine.receive(ByteBuffer.allocate(4), 0, 3, 0);
            } catch (RuntimeException e) {
                refused.set(e);
            }
        }, "other");
        other.start();
        other.join();

        assertRefusedNaming(name, refused.get());
        assertTrue(refused.get().getMessage().contains("\"other\""), refused.get().getMessage());
        assertOneReceiveWorks(engine);
    }

    private static void assertRefusedNaming(String level, Throwable refused) {
        MPIException e = (MPIException) refused;
        assertEquals(MPI.ERR_OTHER, e.getErrorClass(), e::getMessage);
        assertTrue(e.getMessage().contains(level), e.getMessage());
    }

    /** A receive on {@code engine} from this thread gets the one message sent to it: nothing else was queued. */
    private void assertOneReceiveWorks(ProgressEngine engine) {
        ByteBuffer room = ByteBuffer.allocate(4);
        Operation recv = engine.receive(room, 0, 3, 0);
        Operation send = h.get(0).send(ByteBuffer.wrap(new byte[] {1, 2, 3, 4}), 1, 3, 0, SendMode.STANDARD);
        h.pump(() -> recv.isComplete() && send.isComplete());
        assertEquals(4, recv.byteCount());
        assertEquals(1, room.get(0));
    }

    @Test
    void underMultipleAThreadCompletesAnotherThreadsWait() throws Exception {
        ProgressEngine engine = h.get(0);
        engine.setThreadLevel(MPI.THREAD_MULTIPLE);
        Operation recv = engine.receive(ByteBuffer.allocate(4), 0, 7, 0);
        Thread waiter = new Thread(() -> engine.await(recv::isComplete), "waiter");
        waiter.start();

        engine.send(ByteBuffer.wrap(new byte[] {9, 9, 9, 9}), 0, 7, 0, SendMode.STANDARD);
        waiter.join();

        assertTrue(recv.isComplete());
        assertEquals(0, recv.source());
    }

    @Test
    void underMultipleManyThreadsMatchTheirOwnTagsOnSharedQueues() throws Exception {
        ProgressEngine a = h.get(0);
        ProgressEngine b = h.get(1);
        a.setThreadLevel(MPI.THREAD_MULTIPLE);
        b.setThreadLevel(MPI.THREAD_MULTIPLE);
        int threads = 8;
        int messages = 200;
        ExecutorService pool = Executors.newFixedThreadPool(2 * threads);
        try {
            List<Future<?>> all = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int tag = t;
                all.add(pool.submit(() -> {
                    for (int i = 0; i < messages; i++) {
                        ByteBuffer d = ByteBuffer.allocate(8).putInt(tag).putInt(i).flip();
                        Operation s = a.send(d, 1, tag, 0, SendMode.STANDARD);
                        a.await(s::isComplete);
                    }
                }));
                all.add(pool.submit(() -> {
                    for (int i = 0; i < messages; i++) {
                        ByteBuffer room = ByteBuffer.allocate(8);
                        Operation r = b.receive(room, MPI.ANY_SOURCE, tag, 0);
                        b.await(r::isComplete);
                        assertEquals(tag, room.getInt(0));
                        assertEquals(i, room.getInt(4), "messages of one tag arrive in order");
                    }
                }));
            }
            for (Future<?> f : all) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(0, b.unexpectedCount());
    }
}
