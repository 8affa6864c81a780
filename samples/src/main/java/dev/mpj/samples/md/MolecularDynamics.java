package dev.mpj.samples.md;

import dev.mpj.samples.JobExit;
import dev.mpj.samples.Lines;
import mpi.MPI;

/**
 * A molecular-dynamics kernel in the style of mpiJava programs: Lennard-Jones particles, as {@link Particle}
 * objects, broadcast from rank 0 as {@code MPI.OBJECT}; each rank moves a block of them by velocity Verlet,
 * every step an {@code Allgatherv} of the objects brings all positions to every rank for the forces, and the
 * {@link Energy} records are summed with a user Op over objects. Rank 0 then runs the same steps alone and prints
 * {@code VALID} if both runs agree (positions and energies) and the energy drifted by less than 1e-3.
 * {@code ./mpjrun -np 4 md [CELLS [STEPS]]}
 */
public final class MolecularDynamics {
    private static final double DT = 0.004;
    private static final double MAX_DRIFT = 1e-3;
    private static final double AGREEMENT = 1e-9;

    private MolecularDynamics() {
    }

    public static void main(String[] args) {
        String[] rest = MPI.Init(args);
        if (JobExit.helpAsked(rest)) {
            JobExit.usage("usage: md [CELLS [STEPS]]   (Lennard-Jones particles on CELLS^3 fcc cells, velocity Verlet; "
                    + "default 3 cells (108 particles), 50 steps)");
        }
        int cells = 3;
        int steps = 50;
        try {
            cells = rest.length > 0 ? Integer.parseInt(rest[0]) : cells;
            steps = rest.length > 1 ? Integer.parseInt(rest[1]) : steps;
            if (cells < 1 || cells > 20 || steps < 1) {
                throw new NumberFormatException("CELLS must be 1 to 20 and STEPS at least 1");
            }
        } catch (NumberFormatException e) {
            JobExit.refuse("md", "CELLS and STEPS must be positive integers (" + e.getMessage() + ")");
        }
        int rank = MPI.COMM_WORLD.Rank();
        int size = MPI.COMM_WORLD.Size();
        int n = 4 * cells * cells * cells;
        LennardJones model = LennardJones.atDensity(n);
        Particle[] all = new Particle[n];
        if (rank == 0) {
            System.arraycopy(model.lattice(cells), 0, all, 0, n);
        }
        MPI.COMM_WORLD.Bcast(all, 0, n, MPI.OBJECT, 0);
        Particle[] initial = rank == 0 ? copies(all) : null;

        MpiExchange exchange = new MpiExchange(n, size);
        int from = exchange.first(rank);
        double t0 = MPI.Wtime();
        Energy[] parallel = VelocityVerlet.run(model, all, from, from + exchange.count(rank), steps, DT, exchange);
        double seconds = MPI.Wtime() - t0;
        if (rank == 0) {
            Energy[] alone = VelocityVerlet.run(model, initial, 0, n, steps, DT, MpiExchange.ALONE);
            double drift = Math.abs(parallel[1].total() - parallel[0].total()) / Math.abs(parallel[0].total());
            boolean valid = drift < MAX_DRIFT && agree(parallel[0], alone[0]) && agree(parallel[1], alone[1])
                    && maxDistance(all, initial) <= AGREEMENT;
            Lines.printf("md %d steps energy drift=%.3e %s (%d particles, %d ranks, E=%.6f, %.3f s)%n", steps, drift,
                    valid ? "VALID" : "INVALID", n, size, parallel[1].total(), seconds);
        }
        MPI.Finalize();
    }

    private static Particle[] copies(Particle[] particles) {
        Particle[] copies = new Particle[particles.length];
        for (int i = 0; i < copies.length; i++) {
            copies[i] = particles[i].copy();
        }
        return copies;
    }

    /** Equal but for the order in which the ranks' shares were added. */
    private static boolean agree(Energy a, Energy b) {
        return Math.abs(a.total() - b.total()) <= AGREEMENT * Math.abs(b.total())
                && Math.abs(a.kinetic() - b.kinetic()) <= AGREEMENT * Math.abs(b.kinetic());
    }

    private static double maxDistance(Particle[] a, Particle[] b) {
        double max = 0;
        for (int i = 0; i < a.length; i++) {
            for (int d = 0; d < 3; d++) {
                max = Math.max(max, Math.abs(a[i].position[d] - b[i].position[d]));
            }
        }
        return max;
    }
}
