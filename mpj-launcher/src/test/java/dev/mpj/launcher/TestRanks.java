package dev.mpj.launcher;

import dev.mpj.launcher.pmi.RawPmiClient;
import dev.mpj.runtime.pmi.SharedKvsTable;
import dev.mpj.runtime.node.NodeSegmentFiles;
import dev.mpj.runtime.pmi.wire.Pmi1Message;
import dev.mpj.runtime.pmi.wire.ProcessMapping;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Small rank programs that {@link JobTest} runs in child JVMs. They speak raw PMI-1 port mode, as any rank
 * started by mpjrun does, and print what the tests check.
 */
final class TestRanks {
    private TestRanks() {
    }

    static int rank() {
        return Integer.parseInt(System.getenv("PMI_RANK"));
    }

    static int size() {
        return Integer.parseInt(System.getenv("PMI_SIZE"));
    }

    static String kvsName(RawPmiClient pmi) {
        return pmi.call("get_my_kvsname").require("kvsname");
    }

    static void barrier(RawPmiClient pmi) {
        pmi.send(Pmi1Message.of("barrier_in"));
        Pmi1Message out = pmi.reply();
        if (!out.command().equals("barrier_out")) {
            throw new IllegalStateException("expected barrier_out, got " + out);
        }
    }

    static void finalizeAndExit(RawPmiClient pmi) {
        pmi.call("finalize");
        pmi.close();
        System.exit(0);
    }

    /**
     * The pid of the process that started this rank: the node agent, or the launcher for the first node. Each rank
     * runs under a {@link RankSupervisor} shell, whose parent that is.
     */
    static long agentPid() {
        return ProcessHandle.current().parent().flatMap(ProcessHandle::parent).map(ProcessHandle::pid).orElse(-1L);
    }

    static void sleepForever() throws InterruptedException {
        Thread.sleep(Long.MAX_VALUE);
    }

    /** Every rank puts a card, fences, and prints the cards of all ranks it can then read. */
    static final class ExchangeCards {
        public static void main(String[] args) {
            RawPmiClient pmi = RawPmiClient.fromEnvironment();
            String kvs = kvsName(pmi);
            pmi.call("put", "kvsname", kvs, "key", "card-" + rank(), "value", "v" + rank());
            barrier(pmi);
            List<String> seen = new ArrayList<>();
            for (int r = 0; r < size(); r++) {
                seen.add(pmi.call("get", "kvsname", kvs, "key", "card-" + r).get("value"));
            }
            System.out.println("rank " + rank() + " saw " + String.join(",", seen));
            barrier(pmi);
            finalizeAndExit(pmi);
        }
    }

    /**
     * Every rank prints its pid (rank 2 also starts a {@code sleep} child and prints its pid), all meet in a
     * barrier, then rank {@code args[0]} exits with status {@code args[1]} without finalizing while the others
     * wait forever.
     */
    static final class ExitBeforeFinalize {
        public static void main(String[] args) throws IOException, InterruptedException {
            RawPmiClient pmi = RawPmiClient.fromEnvironment();
            System.out.println("pid " + ProcessHandle.current().pid());
            System.out.println("agent pid " + agentPid());
            if (rank() == 2) {
                System.out.println("pid " + new ProcessBuilder("sleep", "60").start().pid());
            }
            System.out.flush();
            barrier(pmi);
            if (rank() == Integer.parseInt(args[0])) {
                System.exit(Integer.parseInt(args[1]));
            }
            sleepForever();
        }
    }

    /**
     * Rank 1 exits with status 0 at once, without connecting to PMI; the others connect only after
     * {@code args[0]} ms, so the launcher sees the exit first, and then wait in a barrier rank 1 never enters.
     */
    static final class ExitZeroBeforeOthersConnect {
        public static void main(String[] args) throws InterruptedException {
            if (rank() == 1) {
                System.exit(0);
            }
            Thread.sleep(Long.parseLong(args[0]));
            barrier(RawPmiClient.fromEnvironment());
            sleepForever();
        }
    }

    /** Rank 2 calls abort with exit code 3 after everyone has connected; the others wait forever. */
    static final class AbortOnRank2 {
        public static void main(String[] args) throws InterruptedException {
            RawPmiClient pmi = RawPmiClient.fromEnvironment();
            barrier(pmi);
            if (rank() == 2) {
                pmi.send(Pmi1Message.of("abort", "exitcode", "3"));
            }
            sleepForever();
        }
    }

    /** Rank 1 dies of an uncaught exception after init; the others wait forever. */
    static final class ThrowOnRank1 {
        public static void main(String[] args) throws InterruptedException {
            RawPmiClient pmi = RawPmiClient.fromEnvironment();
            barrier(pmi);
            if (rank() == 1) {
                throw new IllegalStateException("rank 1 fails on purpose");
            }
            sleepForever();
        }
    }

    /** Rank 1 sends a line that is not PMI; the others wait forever. */
    static final class GarbageOnRank1 {
        public static void main(String[] args) throws InterruptedException {
            RawPmiClient pmi = RawPmiClient.fromEnvironment();
            if (rank() == 1) {
                pmi.sendRaw("this is not PMI\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            }
            sleepForever();
        }
    }

    /** Prints where the rank lives, as the environment and PMI_process_mapping tell it. */
    static final class ReportLocality {
        public static void main(String[] args) {
            RawPmiClient pmi = RawPmiClient.fromEnvironment();
            String mapping = pmi.call("get", "kvsname", kvsName(pmi), "key", "PMI_process_mapping").get("value");
            System.out.println("rank " + rank() + " local " + System.getenv("MPI_LOCALRANKID") + " of "
                    + System.getenv("MPI_LOCALNRANKS") + " mapping " + mapping);
            finalizeAndExit(pmi);
        }
    }

    /**
     * Every rank creates a file named like its node segment in {@code MPJ_SEGMENT_DIR} and prints its name; after
     * a barrier rank 1 exits with status 7 while the others wait forever, so the launcher kills them.
     */
    static final class LeaveSegmentAndDie {
        public static void main(String[] args) throws IOException, InterruptedException {
            RawPmiClient pmi = RawPmiClient.fromEnvironment();
            Path file = NodeSegmentFiles.path(Path.of(System.getenv("MPJ_SEGMENT_DIR")), kvsName(pmi), rank());
            Files.createFile(file);
            System.out.println("created " + file.getFileName());
            System.out.flush();
            barrier(pmi);
            if (rank() == 1) {
                System.exit(7);
            }
            sleepForever();
        }
    }

    /**
     * Prints {@code tree rank R agent A parent B}: the pid of the process that started it (its node's agent) and
     * that process's parent, then meets the others in a barrier and finalizes.
     */
    static final class ReportAgent {
        public static void main(String[] args) {
            RawPmiClient pmi = RawPmiClient.fromEnvironment();
            long agent = agentPid();
            long parent = ProcessHandle.of(agent).flatMap(ProcessHandle::parent).map(ProcessHandle::pid).orElse(-1L);
            System.out.println("tree rank " + rank() + " agent " + agent + " parent " + parent);
            barrier(pmi);
            finalizeAndExit(pmi);
        }
    }

    /**
     * Maps the shared KVS table {@code get_maxes} names, reads the process mapping from it, puts a card, fences, then
     * reads every rank's card from the table alone and prints {@code rank R table PATH saw v0,v1,… mapping M}
     * ({@code null} for a value the table lacks).
     */
    static final class ReadSharedTable {
        public static void main(String[] args) {
            RawPmiClient pmi = RawPmiClient.fromEnvironment();
            String path = pmi.call("get_maxes").get(SharedKvsTable.PMI1_OFFER);
            SharedKvsTable table = SharedKvsTable.open(Path.of(path));
            String mapping = table.get(ProcessMapping.KEY); // before any barrier
            pmi.call("put", "kvsname", kvsName(pmi), "key", "card-" + rank(), "value", "v" + rank());
            barrier(pmi);
            List<String> seen = new ArrayList<>();
            for (int r = 0; r < size(); r++) {
                seen.add(table.get("card-" + r));
            }
            System.out.println("rank " + rank() + " table " + path + " saw " + String.join(",", seen) + " mapping "
                    + mapping);
            barrier(pmi);
            finalizeAndExit(pmi);
        }
    }

    /** After a barrier, rank {@code args[0]} prints its agent's pid and kills it (SIGKILL); all wait forever. */
    static final class KillAgent {
        public static void main(String[] args) throws InterruptedException {
            RawPmiClient pmi = RawPmiClient.fromEnvironment();
            System.out.println("pid " + ProcessHandle.current().pid());
            System.out.flush();
            barrier(pmi);
            if (rank() == Integer.parseInt(args[0])) {
                System.out.println("agent pid " + agentPid());
                System.out.flush();
                ProcessHandle.of(agentPid()).ifPresent(ProcessHandle::destroyForcibly);
            }
            sleepForever();
        }
    }

    /** The first node's ranks (rank &lt; {@code args[0]}) finalize at once; the others then enter a barrier. */
    static final class FinalizeBeforeOthersBarrier {
        public static void main(String[] args) throws InterruptedException {
            RawPmiClient pmi = RawPmiClient.fromEnvironment();
            if (rank() < Integer.parseInt(args[0])) {
                finalizeAndExit(pmi);
            }
            Thread.sleep(500);
            barrier(pmi);
            sleepForever();
        }
    }

    /** Connects, then never finishes. */
    static final class Hang {
        public static void main(String[] args) throws InterruptedException {
            RawPmiClient.fromEnvironment();
            sleepForever();
        }
    }

    /** Not an MPI program: prints a line on stdout and one on stderr, and the value of MPJ_TEST_GREETING. */
    static final class Greet {
        public static void main(String[] args) {
            System.out.println("hello from rank " + rank());
            System.err.println("note from rank " + rank() + ": " + System.getenv("MPJ_TEST_GREETING"));
        }
    }
}
