package dev.mpj.samples.bench;

import dev.mpj.samples.JobExit;
import mpi.MPI;

import java.util.List;

/**
 * A storm of unexpected messages: rank 0 sends COUNT 8-byte messages to rank 1 with standard-mode {@code Send}
 * while rank 1 sleeps, so they all arrive before any receive is posted; then rank 1 wakes and receives them in
 * order. Prints the time rank 1 took to receive them after waking, the CPU time its thread spent on that (what a
 * loaded machine inflates least), rank 0's time to send them and its thread's CPU time over the sends (which
 * includes its waits for room while rank 1 sleeps and reads), and each rank's JIT compiler threads' CPU time over
 * the same spans ({@link ThreadCpu}: a receiver woken cold compiles its receive path during the storm); checks that every message carries its own index. {@code ./mpjrun -np 2 storm [-n COUNT] [-s SLEEP_MS] [--csv FILE|-]}
 */
public final class UnexpectedStorm {
    private static final String USAGE = "usage: storm [-n COUNT] [-s SLEEP_MS] [--csv FILE|-]";
    private static final int TAG = 4;
    private static final int REPORT_TAG = 5;

    private UnexpectedStorm() {
    }

    public static void main(String[] args) throws Exception {
        String[] rest = MPI.Init(args);
        if (JobExit.helpAsked(rest)) {
            JobExit.usage(USAGE);
        }
        int count = 600_000;
        long sleepMillis = 2_000;
        String csv = null;
        try {
            for (int i = 0; i < rest.length; i++) {
                switch (rest[i]) {
                    case "-n" -> count = Integer.parseInt(rest[++i]);
                    case "-s" -> sleepMillis = Long.parseLong(rest[++i]);
                    case "--csv" -> csv = rest[++i];
                    default -> throw new IllegalArgumentException("unknown option " + rest[i]);
                }
            }
            if (count < 1 || sleepMillis < 0) {
                throw new IllegalArgumentException("COUNT >= 1, SLEEP_MS >= 0");
            }
        } catch (RuntimeException e) {
            JobExit.refuse("storm", (e instanceof ArrayIndexOutOfBoundsException ? "an option needs a value"
                    : e.getMessage()) + "\n" + USAGE);
        }
        if (MPI.COMM_WORLD.Size() < 2) {
            JobExit.refuse("storm", "needs at least 2 ranks");
        }
        int rank = MPI.COMM_WORLD.Rank();
        long[] message = new long[1];
        // rank 1's receive time, then its thread's and its JIT compilers' CPU time over the receive, in seconds
        double[] receiveSeconds = new double[3];
        MPI.COMM_WORLD.Barrier();
        ThreadCpu threads = new ThreadCpu();
        if (rank == 0) {
            ThreadCpu.Sample before = threads.snapshot();
            double start = MPI.Wtime();
            for (int i = 0; i < count; i++) {
                message[0] = i;
                MPI.COMM_WORLD.Send(message, 0, 1, MPI.LONG, 1, TAG);
            }
            double sendSeconds = MPI.Wtime() - start;
            double[] sendCpu = ThreadCpu.millisPerCall(before, threads.snapshot(), 1000);
            MPI.COMM_WORLD.Recv(receiveSeconds, 0, 3, MPI.DOUBLE, 1, REPORT_TAG);
            OsuReport report = new OsuReport("mpj Unexpected Message Storm, 8-byte messages, receiver asleep "
                    + sleepMillis + " ms", false, List.of("Messages", "Receive (s)", "Send (s)", "Receive CPU (s)",
                    "Send CPU (s)", "Receive JIT (s)", "Send JIT (s)"), List.of("messages", "receive_s", "send_s",
                    "receive_cpu_s", "send_cpu_s", "receive_jit_s", "send_jit_s"), System.out);
            report.header();
            report.unsizedRow(count, receiveSeconds[0], sendSeconds, receiveSeconds[1],
                    sendCpu[ThreadCpu.Kind.MPI.ordinal()], receiveSeconds[2], sendCpu[ThreadCpu.Kind.JIT.ordinal()]);
            report.csv(csv);
        } else if (rank == 1) {
            Thread.sleep(sleepMillis);
            ThreadCpu.Sample before = threads.snapshot();
            double start = MPI.Wtime();
            for (int i = 0; i < count; i++) {
                MPI.COMM_WORLD.Recv(message, 0, 1, MPI.LONG, 0, TAG);
                if (message[0] != i) {
                    throw new IllegalStateException("message " + i + " carried " + message[0]);
                }
            }
            receiveSeconds[0] = MPI.Wtime() - start;
            double[] receiveCpu = ThreadCpu.millisPerCall(before, threads.snapshot(), 1000);
            receiveSeconds[1] = receiveCpu[ThreadCpu.Kind.MPI.ordinal()];
            receiveSeconds[2] = receiveCpu[ThreadCpu.Kind.JIT.ordinal()];
            MPI.COMM_WORLD.Send(receiveSeconds, 0, 3, MPI.DOUBLE, 0, REPORT_TAG);
        }
        MPI.Finalize();
    }
}
