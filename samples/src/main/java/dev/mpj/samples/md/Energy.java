package dev.mpj.samples.md;

import java.io.Serializable;

import mpi.Datatype;
import mpi.Op;
import mpi.User_function;

/** Kinetic and potential energy of some particles; {@link #SUM} adds them over ranks with a user Op. */
public record Energy(double kinetic, double potential) implements Serializable {
    /** A user Op over {@code MPI.OBJECT} buffers of Energy: the componentwise sum. */
    public static final Op SUM = new Op(new User_function() {
        @Override
        public void Call(Object invec, int inoffset, Object inoutvec, int inoutoffset, int count, Datatype datatype) {
            Object[] in = (Object[]) invec;
            Object[] inout = (Object[]) inoutvec;
            for (int i = 0; i < count; i++) {
                inout[inoutoffset + i] = ((Energy) in[inoffset + i]).plus((Energy) inout[inoutoffset + i]);
            }
        }
    }, true);

    Energy plus(Energy other) {
        return new Energy(kinetic + other.kinetic, potential + other.potential);
    }

    double total() {
        return kinetic + potential;
    }
}
