package mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.net.URLClassLoader;
import org.junit.jupiter.api.Test;

class LifecycleTest extends MpiTestSupport {
    @Test
    void initReturnsTheArgumentsUnchanged() {
        String[] args = {"-n", "5"};
        LoopbackBackend.configure(1, 0);

        assertSame(args, MPI.Init(args));
    }

    @Test
    void communicationBeforeInitIsAnError() {
        MPIException e = assertMpiError(MPI.ERR_OTHER, () -> MPI.COMM_WORLD.Rank());
        assertTrue(e.getMessage().contains("MPI.Init has not been called"), e.getMessage());
        assertMpiError(MPI.ERR_OTHER, () -> MPI.COMM_WORLD.Send(new int[1], 0, 1, MPI.INT, 0, 0));
        assertMpiError(MPI.ERR_OTHER, () -> MPI.Finalize());
    }

    @Test
    void communicationAfterFinalizeIsAnError() {
        start(2, 1);
        MPI.Finalize();

        MPIException e = assertMpiError(MPI.ERR_OTHER, () -> MPI.COMM_WORLD.Size());
        assertTrue(e.getMessage().contains("MPI.Finalize has already been called"), e.getMessage());
        assertMpiError(MPI.ERR_OTHER, () -> MPI.COMM_SELF.Recv(new int[1], 0, 1, MPI.INT, 0, 0));
        assertMpiError(MPI.ERR_OTHER, () -> MPI.Finalize());
    }

    @Test
    void initTwiceIsAnError() {
        start(1, 0);

        assertMpiError(MPI.ERR_OTHER, () -> MPI.Init(new String[0]));
    }

    @Test
    void initAfterFinalizeIsAnError() {
        start(1, 0);
        MPI.Finalize();

        assertMpiError(MPI.ERR_OTHER, () -> MPI.Init(new String[0]));
    }

    @Test
    void initializedAndFinalizedFollowTheLifeCycle() {
        assertFalse(MPI.Initialized());
        start(1, 0);
        assertTrue(MPI.Initialized());
        assertFalse(MPI.Finalized());
        MPI.Finalize();
        assertTrue(MPI.Initialized());
        assertTrue(MPI.Finalized());
        assertTrue(backend.finished, "Finalize shuts the runtime down");
    }

    @Test
    void withoutARuntimeOnTheClassPathInitSaysSo() {
        ClassLoader empty = new URLClassLoader(new URL[0], null);

        MPIException e = assertMpiError(MPI.ERR_OTHER, () -> Environment.load(empty));
        assertTrue(e.getMessage().contains("no mpj runtime is on the class path"), e.getMessage());
    }

    @Test
    void theWorldCommunicatorIsTheWholeJob() {
        start(4, 3);

        assertEquals(4, MPI.COMM_WORLD.Size());
        assertEquals(3, MPI.COMM_WORLD.Rank());
    }

    @Test
    void theSelfCommunicatorIsTheCallerAlone() {
        start(4, 3);

        assertEquals(1, MPI.COMM_SELF.Size());
        assertEquals(0, MPI.COMM_SELF.Rank());
    }

    @Test
    void selfMessagesReportTheSenderAsRankZero() {
        start(4, 3);

        MPI.COMM_SELF.Send(new int[] {5}, 0, 1, MPI.INT, 0, 9);
        Status status = MPI.COMM_SELF.Recv(new int[1], 0, 1, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);

        assertEquals(0, status.source, "world rank 3 is rank 0 of COMM_SELF");
        assertEquals(9, status.tag);
    }

    @Test
    void selfAndWorldTrafficNeverMatch() {
        start(1, 0);

        MPI.COMM_SELF.Send(new int[] {5}, 0, 1, MPI.INT, 0, 0);

        assertEquals(null, MPI.COMM_WORLD.Iprobe(MPI.ANY_SOURCE, MPI.ANY_TAG));
        assertEquals(0, MPI.COMM_SELF.Iprobe(MPI.ANY_SOURCE, MPI.ANY_TAG).source);
    }

    @Test
    void aBackendThatDoesNotProvideMultipleGivesAtMostSerialized() {
        LoopbackBackend.configure(1, 0);

        assertEquals(MPI.THREAD_SERIALIZED, MPI.Init_thread(new String[0], MPI.THREAD_MULTIPLE));
        assertEquals(MPI.THREAD_SERIALIZED, MPI.queryThread());
        assertTrue(MPI.isMainThread());
    }

    @Test
    void aLowerThreadLevelIsProvidedAsAskedFor() {
        LoopbackBackend.configure(1, 0);
        String[] args = {"x"};

        assertSame(args, MPI.initThread(MPI.THREAD_FUNNELED, MPI.THREAD_SINGLE, args));
        assertEquals(MPI.THREAD_FUNNELED, MPI.queryThread());
    }

    @Test
    void anUnknownThreadLevelIsAnArgumentError() {
        LoopbackBackend.configure(1, 0);

        assertMpiError(MPI.ERR_ARG, () -> MPI.Init_thread(new String[0], 7));
        assertFalse(MPI.Initialized());
    }

    @Test
    void onlyTheInitialisingThreadIsTheMainThread() throws InterruptedException {
        start(1, 0);
        boolean[] other = {true};
        Thread thread = new Thread(() -> other[0] = MPI.isMainThread());
        thread.start();
        thread.join();

        assertFalse(other[0]);
    }

    @Test
    void barrierEntersTheRuntimeBarrier() {
        start(2, 0);

        MPI.COMM_WORLD.Barrier();

        assertEquals(1, backend.barriers);
    }

    @Test
    void abortEndsTheJobThroughTheRuntime() {
        start(2, 0);

        assertThrows(IllegalStateException.class, () -> MPI.COMM_WORLD.Abort(3));
        assertEquals(3, backend.abortCode);
    }

    @Test
    void theProcessorNameComesFromTheRuntime() {
        start(1, 0);

        assertEquals("loopback-node", MPI.Get_processor_name());
    }

    @Test
    void wtimeAdvancesInSeconds() throws InterruptedException {
        double before = MPI.Wtime();
        Thread.sleep(20);
        double elapsed = MPI.Wtime() - before;

        assertTrue(elapsed >= 0.015 && elapsed < 5, "elapsed " + elapsed);
        assertTrue(MPI.Wtick() > 0 && MPI.Wtick() < 1e-3);
    }

    @Test
    void theErrorHandlerCanBeSetAndRead() {
        assertSame(MPI.ERRORS_ARE_FATAL, MPI.Errorhandler_get());
        try {
            MPI.Errorhandler_set(MPI.ERRORS_RETURN);
            assertSame(MPI.ERRORS_RETURN, MPI.Errorhandler_get());
        } finally {
            MPI.Errorhandler_set(MPI.ERRORS_ARE_FATAL);
        }
    }
}
