package mpi;

/**
 * An MPI error handler, kept for source compatibility. In this implementation every error is raised
 * as an {@link MPIException} whichever handler is set: {@link MPI#ERRORS_ARE_FATAL} (the default)
 * and {@link MPI#ERRORS_RETURN} behave alike, and an uncaught exception ends the program.
 */
public final class Errhandler {
    private final String name;

    Errhandler(String name) {
        this.name = name;
    }

    @Override
    public String toString() {
        return name;
    }
}
