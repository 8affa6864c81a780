package mpi;

/**
 * What {@link Cartcomm#Shift} returns: the ranks to receive from and to send to for a shift along one
 * dimension ({@link MPI#PROC_NULL} past the edge of a dimension that is not periodic).
 */
public class ShiftParms {
    public int rank_source;
    public int rank_dest;

    ShiftParms(int rankSource, int rankDest) {
        this.rank_source = rankSource;
        this.rank_dest = rankDest;
    }
}
