package dev.mpj.samples.md;

import java.io.Serializable;

/** One particle of unit mass: position and velocity, sent between ranks as an {@code MPI.OBJECT}. */
public final class Particle implements Serializable {
    private static final long serialVersionUID = 1L;

    public final double[] position;
    public final double[] velocity;

    public Particle(double[] position, double[] velocity) {
        this.position = position;
        this.velocity = velocity;
    }

    Particle copy() {
        return new Particle(position.clone(), velocity.clone());
    }
}
