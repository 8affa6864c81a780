package dev.mpj.it;

import dev.mpj.runtime.MpjRuntime;
import dev.mpj.runtime.init.InitReport;
import dev.mpj.runtime.pmi.PmiClient;
import dev.mpj.runtime.pmi.PmiCounters;
import dev.mpj.runtime.pmi.wire.PmiException;
import mpi.MPI;

/**
 * The non-blocking PMI fence under whatever process manager runs the job. First what {@code MPI.Init} did: its
 * exchange entered the fence, then ran local work ({@code engine}, {@code segment}, {@code preload}) that made no
 * PMI operation, then waited. Then a round of its own on the same client: put a key, enter the fence, ask for the
 * next rank's key (the client must refuse it without sending anything: no get before its fence completes), end
 * the fence, read every rank's key. Prints
 * {@code fenceprobe rank R overlapped Y pending-ops O early-get refused puts P gets G barriers B}, P, G and B being
 * the operations of the round.
 */
public final class FenceProbeProgram {
    private static final String[] PENDING_PHASES = {"engine", "segment", "preload"};

    public static void main(String[] args) {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.Rank();
        int size = MPI.COMM_WORLD.Size();
        InitReport report = MpjRuntime.current().initReport();
        long pendingOps = 0;
        for (String phase : PENDING_PHASES) {
            InitReport.Phase p = report.get(phase);
            pendingOps += p.puts() + p.gets() + p.barriers() + p.rings();
        }
        PmiClient pmi = MpjRuntime.current().pmi();
        PmiCounters c = pmi.counters();
        long puts = c.puts();
        long gets = c.gets();
        long barriers = c.barriers();
        pmi.put("fenceprobe-" + rank, "v" + rank);
        pmi.barrierBegin();
        String early;
        try {
            pmi.get("fenceprobe-" + (rank + 1) % size);
            early = "answered";
        } catch (PmiException e) {
            early = "refused";
        }
        pmi.barrierEnd();
        for (int r = 0; r < size; r++) {
            Check.that(("v" + r).equals(pmi.get("fenceprobe-" + r)), "the key of rank " + r + " after the fence");
        }
        System.out.println("fenceprobe rank " + rank + " overlapped " + (report.overlapNanos() > 0 ? "yes" : "no")
                + " pending-ops " + pendingOps + " early-get " + early + " puts " + (c.puts() - puts) + " gets "
                + (c.gets() - gets) + " barriers " + (c.barriers() - barriers));
        MPI.COMM_WORLD.Barrier();
        Check.done("fenceprobe");
        MPI.Finalize();
    }
}
