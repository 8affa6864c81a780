package dev.mpj.samples.md;

import mpi.MPI;

/** Blocks of particles over the ranks: positions by {@code Allgatherv} of the objects, energy by {@link Energy#SUM}. */
final class MpiExchange implements VelocityVerlet.Exchange {
    /** The exchange of a run on one rank: nothing to share. */
    static final VelocityVerlet.Exchange ALONE = new VelocityVerlet.Exchange() {
        @Override
        public void positions(Particle[] all) {
        }

        @Override
        public Energy total(Energy mine) {
            return mine;
        }
    };

    private final int[] counts;
    private final int[] displs;

    /** {@code n} particles in blocks as even as they can be. */
    MpiExchange(int n, int ranks) {
        counts = new int[ranks];
        displs = new int[ranks];
        for (int r = 0; r < ranks; r++) {
            counts[r] = n / ranks + (r < n % ranks ? 1 : 0);
            displs[r] = r == 0 ? 0 : displs[r - 1] + counts[r - 1];
        }
    }

    int first(int rank) {
        return displs[rank];
    }

    int count(int rank) {
        return counts[rank];
    }

    @Override
    public void positions(Particle[] all) {
        MPI.COMM_WORLD.Allgatherv(MPI.IN_PLACE, 0, 0, MPI.OBJECT, all, 0, counts, displs, MPI.OBJECT);
    }

    @Override
    public Energy total(Energy mine) {
        Object[] sum = new Object[1];
        MPI.COMM_WORLD.Allreduce(new Object[] {mine}, 0, sum, 0, 1, MPI.OBJECT, Energy.SUM);
        return (Energy) sum[0];
    }
}
