package mpi;

/** A communicator within one group of processes; the home of collective operations. */
public class Intracomm extends Comm {
    Intracomm(String name) {
        super(name);
    }

    /** Blocks until every process of the communicator has called it. */
    public void Barrier() {
        Environment.backend().barrier(spec());
    }
}
