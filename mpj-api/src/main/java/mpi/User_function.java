package mpi;

/**
 * A user-defined reduction operation, given to {@link Op#Op(User_function, boolean)}. {@link #Call}
 * combines {@code count} items of {@code datatype}: {@code inoutvec[i] = invec[i] op inoutvec[i]},
 * where {@code invec} holds the contribution of the lower ranks. The vectors are Java arrays of the
 * datatype's element type (an {@code int[]} for {@link MPI#INT} and {@link MPI#INT2}, ...).
 */
public abstract class User_function {
    public abstract void Call(Object invec, int inoffset, Object inoutvec, int inoutoffset, int count, Datatype datatype);
}
