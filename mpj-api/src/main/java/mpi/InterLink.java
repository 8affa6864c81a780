package mpi;

/**
 * The messages an {@link Intercomm}'s collectives send between its two groups: point-to-point whose ranks name
 * the remote group, on the intercommunicator's collective context under {@link dev.mpj.api.CommSpec#API_TAG}, so
 * they never meet the program's messages nor the runtime's collectives within each group (tags from 1).
 */
final class InterLink extends Comm {
    InterLink(String name) {
        super(name);
    }

    @Override
    public boolean Test_inter() {
        return true;
    }

    @Override
    public Object clone() {
        throw new MPIException(MPI.ERR_INTERN, this + " is internal and cannot be duplicated");
    }
}
