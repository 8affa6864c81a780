package dev.mpj.samples.stencil;

import mpi.Intracomm;
import mpi.Request;

/**
 * Fills the ghost layers of a {@link StencilBlock} from the six neighbours: 6 {@code Irecv} (the one
 * from direction dir with tag dir^1), then 6 {@code Isend} (the face towards direction dir with tag
 * dir), then {@code Waitall} on the 12 requests. Subclasses say how a face travels.
 */
abstract class HaloExchange {
    protected final Intracomm comm;
    protected final StencilGrid grid;
    protected final StencilBlock block;
    private final Request[] requests = new Request[12];

    HaloExchange(Intracomm comm, StencilGrid grid, StencilBlock block) {
        this.comm = comm;
        this.grid = grid;
        this.block = block;
    }

    final void exchange() {
        beforeExchange();
        double[] u = block.values();
        for (int dir = 0; dir < 6; dir++) {
            requests[dir] = receive(u, dir, grid.neighbour(dir), dir ^ 1);
        }
        for (int dir = 0; dir < 6; dir++) {
            requests[6 + dir] = send(u, dir, grid.neighbour(dir), dir);
        }
        Request.Waitall(requests);
        afterExchange();
    }

    /** Work before the receives are posted (packing). */
    abstract void beforeExchange();

    abstract Request receive(double[] u, int dir, int source, int tag);

    abstract Request send(double[] u, int dir, int dest, int tag);

    /** Work once all 12 requests completed (unpacking). */
    abstract void afterExchange();

    /** Faces packed into contiguous buffers, sent as {@code MPI.DOUBLE}, and unpacked into the ghosts. */
    static final class Packed extends HaloExchange {
        private final double[][] out = new double[6][];
        private final double[][] in = new double[6][];

        Packed(Intracomm comm, StencilGrid grid, StencilBlock block) {
            super(comm, grid, block);
            for (int dir = 0; dir < 6; dir++) {
                out[dir] = new double[block.faceSize(dir >> 1)];
                in[dir] = new double[block.faceSize(dir >> 1)];
            }
        }

        @Override
        void beforeExchange() {
            for (int dir = 0; dir < 6; dir++) {
                block.pack(dir, out[dir]);
            }
        }

        @Override
        Request receive(double[] u, int dir, int source, int tag) {
            return comm.Irecv(in[dir], 0, in[dir].length, mpi.MPI.DOUBLE, source, tag);
        }

        @Override
        Request send(double[] u, int dir, int dest, int tag) {
            return comm.Isend(out[dir], 0, out[dir].length, mpi.MPI.DOUBLE, dest, tag);
        }

        @Override
        void afterExchange() {
            for (int dir = 0; dir < 6; dir++) {
                if (grid.neighbour(dir) != mpi.MPI.PROC_NULL) {
                    block.unpack(dir, in[dir]);
                }
            }
        }
    }

    /** Faces sent and received in place, straight from and into the block, as derived datatypes. */
    static final class Datatypes extends HaloExchange {
        private final mpi.Datatype[] face = new mpi.Datatype[3];

        Datatypes(Intracomm comm, StencilGrid grid, StencilBlock block) {
            super(comm, grid, block);
            mpi.Datatype dbl = mpi.MPI.DOUBLE;
            // x face (fixed i): ny runs of nz; y face (fixed j): nx runs of nz; z face (fixed k): nx x ny single points
            face[0] = mpi.Datatype.Vector(block.ny, block.nz, block.sj, dbl);
            face[1] = mpi.Datatype.Vector(block.nx, block.nz, block.si, dbl);
            mpi.Datatype column = mpi.Datatype.Vector(block.ny, 1, block.sj, dbl);
            face[2] = mpi.Datatype.Hvector(block.nx, 1, block.si, column);
            for (mpi.Datatype t : face) {
                t.Commit();
            }
        }

        /** Offset of the first point of the layer {@code layer} across dimension {@code d}. */
        private int offset(int d, int layer) {
            return switch (d) {
                case 0 -> block.index(layer, 1, 1);
                case 1 -> block.index(1, layer, 1);
                default -> block.index(1, 1, layer);
            };
        }

        private int extent(int d) {
            return d == 0 ? block.nx : d == 1 ? block.ny : block.nz;
        }

        @Override
        void beforeExchange() {
            // nothing to pack
        }

        @Override
        Request receive(double[] u, int dir, int source, int tag) {
            int d = dir >> 1;
            int ghost = (dir & 1) == 0 ? 0 : extent(d) + 1;
            return comm.Irecv(u, offset(d, ghost), 1, face[d], source, tag);
        }

        @Override
        Request send(double[] u, int dir, int dest, int tag) {
            int d = dir >> 1;
            int interior = (dir & 1) == 0 ? 1 : extent(d);
            return comm.Isend(u, offset(d, interior), 1, face[d], dest, tag);
        }

        @Override
        void afterExchange() {
            // received in place
        }
    }
}
