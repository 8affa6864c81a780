package dev.mpj.runtime.engine;

import dev.mpj.api.WaitCondition;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.BooleanSupplier;
import java.util.regex.Pattern;

/**
 * The lines of the wait report, which tells a user of a hanging job where each rank waits: one line per pending
 * operation of the call the rank is blocked in, as {@code rank 1 waits in Recv(source=0, tag=99, COMM_WORLD) for
 * 10.0 s; unexpected queue: 0}, or one line saying it waits in none.
 */
public final class WaitReport {
    /** Matches every line of a report (and lets a launcher tell them from a rank's other output). */
    public static final Pattern LINE = Pattern.compile("rank (\\d+|\\?) (waits in |is not waiting ).*"
            + "; unexpected queue: \\d+");

    private WaitReport() {
    }

    /**
     * @param condition what the rank's MPI thread waits for, null when it is in none of mpj's waits
     * @param waitedNanos how long it has waited
     * @param unexpected messages that arrived with no receive posted for them
     */
    public static List<String> lines(int rank, BooleanSupplier condition, long waitedNanos, int unexpected) {
        if (condition == null) {
            return List.of(rankName(rank) + " is not waiting in an MPI call" + queue(unexpected));
        }
        List<String> entries = new ArrayList<>();
        if (condition instanceof WaitCondition described) {
            described.describePending(entries);
        }
        if (entries.isEmpty()) {
            entries.add(condition instanceof WaitCondition ? "a call that is completing"
                    : "a collective or another internal wait");
        }
        List<String> lines = new ArrayList<>(entries.size());
        for (String entry : entries) {
            lines.add(waitsIn(rank, entry, waitedNanos, unexpected));
        }
        return lines;
    }

    /** One line: {@code rank R waits in WHAT for S s; unexpected queue: N}; rank -1 when not known yet. */
    public static String waitsIn(int rank, String what, long waitedNanos, int unexpected) {
        return rankName(rank) + " waits in " + what + String.format(Locale.ROOT, " for %.1f s", waitedNanos / 1e9)
                + queue(unexpected);
    }

    private static String rankName(int rank) {
        return "rank " + (rank < 0 ? "?" : Integer.toString(rank));
    }

    private static String queue(int unexpected) {
        return "; unexpected queue: " + unexpected;
    }
}
