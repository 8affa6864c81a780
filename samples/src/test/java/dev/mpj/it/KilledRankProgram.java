package dev.mpj.it;

import mpi.MPI;

/**
 * Rank {@code args[0]} SIGKILLs itself after MPI.Init, as a crash would; every other rank waits for it in a
 * receive (over shared memory from its node, over TCP from the other nodes), or with {@code alltoall} as
 * {@code args[1]} in an alltoall of 64 KiB blocks (a pair's runs through the node segment's fold room), and then in a
 * barrier, so the job can only end through the runtime's failure detection or the process manager. With
 * {@code alloc} as {@code args[1]}, every rank first takes {@code MPI.Alloc_mem} memory, whose files the victim
 * cannot remove.
 */
public final class KilledRankProgram {
    private KilledRankProgram() {
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int victim = Integer.parseInt(args[0]);
        int rank = MPI.COMM_WORLD.Rank();
        if (args.length > 1 && args[1].equals("alloc")) {
            MPI.Alloc_mem(1 << 20).put(0, (byte) 1);
        }
        System.out.println("ready rank " + rank);
        System.out.flush();
        if (rank == victim) {
            MPI.COMM_WORLD.Barrier(); // the others are past their own start-up
            new ProcessBuilder("kill", "-KILL", Long.toString(ProcessHandle.current().pid())).start().waitFor();
            Thread.sleep(60_000);
        } else {
            MPI.COMM_WORLD.Barrier();
            if (args.length > 1 && args[1].equals("alltoall")) {
                byte[] blocks = new byte[MPI.COMM_WORLD.Size() << 16];
                MPI.COMM_WORLD.Alltoall(blocks, 0, 1 << 16, MPI.BYTE, new byte[blocks.length], 0, 1 << 16, MPI.BYTE);
            } else {
                MPI.COMM_WORLD.Recv(new int[1], 0, 1, MPI.INT, victim, 1);
            }
            MPI.COMM_WORLD.Barrier();
        }
        MPI.Finalize();
    }
}
