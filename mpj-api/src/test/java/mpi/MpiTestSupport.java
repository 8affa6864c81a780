package mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.function.Executable;

/** Starts MPI on a {@link LoopbackBackend} and resets it after each test. */
abstract class MpiTestSupport {
    /** Point-to-point context of MPI.COMM_WORLD. */
    static final int WORLD = 0;

    LoopbackBackend backend;

    /** {@code MPI.Init} as rank {@code rank} of a job of {@code size}. */
    void start(int size, int rank) {
        LoopbackBackend.configure(size, rank);
        MPI.Init(new String[0]);
        backend = LoopbackBackend.current;
    }

    @AfterEach
    void resetMpi() {
        Environment.resetForTests();
    }

    /** {@code type}, committed. */
    static Datatype committed(Datatype type) {
        type.Commit();
        return type;
    }

    /** Runs {@code call}, expects an MPIException of {@code errorClass}, and returns it. */
    static MPIException assertMpiError(int errorClass, Executable call) {
        MPIException e = assertThrows(MPIException.class, call);
        assertEquals(MPIException.className(errorClass), MPIException.className(e.getErrorClass()), e.getMessage());
        return e;
    }
}
