package mpi;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** How MPI.Init finds its runtime: by the name in {@code mpj.backend}, else through ServiceLoader. */
class BackendLookupTest {
    private final ClassLoader loader = BackendLookupTest.class.getClassLoader();

    @AfterEach
    void clearProperty() {
        System.clearProperty("mpj.backend");
    }

    @Test
    void withoutTheDefaultRuntimeTheRegisteredServiceIsUsed() {
        assertInstanceOf(LoopbackBackend.class, Environment.load(loader));
    }

    @Test
    void aNamedBackendIsLoadedByName() {
        System.setProperty("mpj.backend", LoopbackBackend.class.getName());
        assertInstanceOf(LoopbackBackend.class, Environment.load(loader));
    }

    @Test
    void aNamedBackendThatIsMissingIsAnError() {
        System.setProperty("mpj.backend", "no.such.Runtime");
        MPIException e = MpiTestSupport.assertMpiError(MPI.ERR_OTHER, () -> Environment.load(loader));
        assertTrue(e.getMessage().contains("no.such.Runtime"), e.getMessage());
    }

    @Test
    void aNamedClassThatIsNoBackendIsAnError() {
        System.setProperty("mpj.backend", String.class.getName());
        MPIException e = MpiTestSupport.assertMpiError(MPI.ERR_OTHER, () -> Environment.load(loader));
        assertTrue(e.getMessage().contains("is not a"), e.getMessage());
    }
}
