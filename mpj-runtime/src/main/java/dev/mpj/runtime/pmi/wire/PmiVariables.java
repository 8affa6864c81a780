package dev.mpj.runtime.pmi.wire;

/** Environment variables of mpj's own by which its process manager tells the ranks' PMI clients how to talk to it. */
public final class PmiVariables {
    /**
     * Set to 1 by mpjrun, whose PMI server reads every line of a read: the PMI-1 client may then send its start
     * requests all at once.
     */
    public static final String PIPELINE = "MPJ_PMI_PIPELINE";

    /**
     * The job's secret, set by mpjrun only: a PMI client that finds it shows it ({@link PmiSecret}) as the first
     * line of a {@code PMI_PORT} connection, and mpjrun's server serves no connection that has not.
     */
    public static final String SECRET = "MPJ_PMI_SECRET";

    /**
     * Set by mpjrun's rank supervisor when it has opened the rank's TCP connection to {@code PMI_PORT} itself and
     * shown the job's secret on it: the number of the descriptor the rank inherits it as. The client speaks port
     * mode over that descriptor, from {@code initack} on, and opens no socket, so a rank on one node starts none of
     * the JDK's network classes.
     */
    public static final String PORT_FD = "MPJ_PMI_PORT_FD";

    /**
     * Set to 1 by the {@code mpjrun} script when it starts a job of one rank as a singleton, without its launcher:
     * the singleton client then names the rank on {@code MPI.Abort} and ends a rank that leaves without
     * {@code MPI.Finalize} with status 1, as the launcher would.
     */
    public static final String MPJRUN_SINGLETON = "MPJ_MPJRUN_SINGLETON";

    private PmiVariables() {
    }
}
