package dev.mpj.samples.md;

import java.util.Random;

/**
 * Lennard-Jones particles in reduced units (sigma, epsilon and mass 1) in a periodic cube, with the potential cut
 * and shifted at {@code min(2.5, box / 2)} so that the energy stays continuous as pairs cross the cutoff.
 */
final class LennardJones {
    final double box;
    private final double cutoff2;
    private final double shift;

    LennardJones(double box) {
        this.box = box;
        double cutoff = Math.min(2.5, box / 2);
        this.cutoff2 = cutoff * cutoff;
        double inv6 = 1 / (cutoff2 * cutoff2 * cutoff2);
        this.shift = 4 * (inv6 * inv6 - inv6);
    }

    /** The model for {@code n} particles at density 0.8. */
    static LennardJones atDensity(int n) {
        return new LennardJones(Math.cbrt(n / 0.8));
    }

    /**
     * A face-centred cubic lattice of {@code cells}^3 cells (4 particles each) filling the box, with velocities
     * drawn from a seeded Gaussian at temperature 0.7 and no net momentum.
     */
    Particle[] lattice(int cells) {
        int n = 4 * cells * cells * cells;
        double a = box / cells;
        double[][] basis = {{0, 0, 0}, {0.5, 0.5, 0}, {0.5, 0, 0.5}, {0, 0.5, 0.5}};
        Random random = new Random(2024);
        Particle[] particles = new Particle[n];
        double[] momentum = new double[3];
        int k = 0;
        for (int x = 0; x < cells; x++) {
            for (int y = 0; y < cells; y++) {
                for (int z = 0; z < cells; z++) {
                    for (double[] b : basis) {
                        double[] v = new double[3];
                        for (int d = 0; d < 3; d++) {
                            v[d] = random.nextGaussian() * Math.sqrt(0.7);
                            momentum[d] += v[d];
                        }
                        particles[k++] = new Particle(new double[] {(x + b[0]) * a, (y + b[1]) * a, (z + b[2]) * a}, v);
                    }
                }
            }
        }
        for (Particle p : particles) {
            for (int d = 0; d < 3; d++) {
                p.velocity[d] -= momentum[d] / n;
            }
        }
        return particles;
    }

    /**
     * The force on particle {@code i} from every other one, into {@code force}; returns half its pair potentials
     * (its share of the potential energy). The pairs are visited in index order, so the result does not depend on
     * which rank computes it.
     */
    double force(Particle[] all, int i, double[] force) {
        force[0] = 0;
        force[1] = 0;
        force[2] = 0;
        double potential = 0;
        double[] pi = all[i].position;
        for (int j = 0; j < all.length; j++) {
            if (j == i) {
                continue;
            }
            double[] pj = all[j].position;
            double dx = image(pi[0] - pj[0]);
            double dy = image(pi[1] - pj[1]);
            double dz = image(pi[2] - pj[2]);
            double r2 = dx * dx + dy * dy + dz * dz;
            if (r2 >= cutoff2) {
                continue;
            }
            double inv2 = 1 / r2;
            double inv6 = inv2 * inv2 * inv2;
            double f = 24 * inv2 * inv6 * (2 * inv6 - 1);
            force[0] += f * dx;
            force[1] += f * dy;
            force[2] += f * dz;
            potential += 0.5 * (4 * inv6 * (inv6 - 1) - shift);
        }
        return potential;
    }

    /** The nearest periodic image of a separation. */
    private double image(double d) {
        return d - box * Math.rint(d / box);
    }

    /** A coordinate moved back into [0, box). */
    double wrap(double x) {
        return x - box * Math.floor(x / box);
    }
}
