package dev.mpj.samples.md;

/**
 * Velocity Verlet over the particles {@code [from, to)} of {@code all}; the others are moved by other ranks and
 * arrive through an {@link Exchange}. With every particle and an exchange that does nothing it is the sequential
 * run, so both runs share this code.
 */
final class VelocityVerlet {
    /** How the ranks share positions and energies. */
    interface Exchange {
        /** Brings every particle of {@code all} up to date after each rank moved its own. */
        void positions(Particle[] all);

        /** The energy of all particles, from this rank's share. */
        Energy total(Energy mine);
    }

    private VelocityVerlet() {
    }

    /** Runs {@code steps} steps of {@code dt}; returns the total energy before and after. */
    static Energy[] run(LennardJones model, Particle[] all, int from, int to, int steps, double dt, Exchange exchange) {
        double[][] force = new double[to - from][3];
        Energy before = exchange.total(forces(model, all, from, to, force));
        Energy after = before;
        for (int step = 0; step < steps; step++) {
            for (int i = from; i < to; i++) {
                Particle p = all[i];
                for (int d = 0; d < 3; d++) {
                    p.velocity[d] += 0.5 * dt * force[i - from][d];
                    p.position[d] = model.wrap(p.position[d] + dt * p.velocity[d]);
                }
            }
            exchange.positions(all);
            Energy mine = forces(model, all, from, to, force);
            double kinetic = 0;
            for (int i = from; i < to; i++) {
                Particle p = all[i];
                for (int d = 0; d < 3; d++) {
                    p.velocity[d] += 0.5 * dt * force[i - from][d];
                    kinetic += 0.5 * p.velocity[d] * p.velocity[d];
                }
            }
            if (step == steps - 1) {
                after = exchange.total(new Energy(kinetic, mine.potential()));
            }
        }
        return new Energy[] {before, after};
    }

    /** The forces on the particles {@code [from, to)}, and their kinetic energy and share of the potential. */
    private static Energy forces(LennardJones model, Particle[] all, int from, int to, double[][] force) {
        double kinetic = 0;
        double potential = 0;
        for (int i = from; i < to; i++) {
            potential += model.force(all, i, force[i - from]);
            for (double v : all[i].velocity) {
                kinetic += 0.5 * v * v;
            }
        }
        return new Energy(kinetic, potential);
    }
}
