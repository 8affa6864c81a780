package dev.mpj.launcher.pmi;

import dev.mpj.runtime.pmi.wire.Pmi2Message;

import java.util.ArrayList;
import java.util.List;

/**
 * The job's PMIX_Ring (PMI-2 {@code cmd=ring}), with the semantics of Slurm's pmi2 plugin ({@code ring.c}) for
 * one step daemon that holds every rank: the ring runs in rank order (mpjrun places ranks in blocks, so each
 * node's ranks are consecutive, as in Slurm's ring). Each rank enters with a count and optional left and right
 * values; once all have entered, rank i is answered with the sum of the counts of the ranks before it, the
 * right value of the nearest rank before it that gave one (the wrap-around: the last rank's right value), and
 * the left value of the nearest rank after it that gave one (the wrap-around: rank 0's left value). With every
 * count 1 and left = right = own value, as MPICH's {@code PMIX_Ring} sends, each rank learns its rank and its
 * two neighbours' values. A value nobody gave is left out of the reply. Once a rank has finalized no ring can
 * complete, so entering one fails. Used on the server thread only.
 */
final class JobRing extends RankCollective<JobRing.Entry> {
    /** What one rank entered with, and how to answer it. */
    record Entry(PmiClientConnection connection, int count, String left, String right, String thrid) {
    }

    JobRing(int size) {
        super("ring", size);
    }

    /** {@code c} enters with its request's {@code ring-count}, {@code ring-left} and {@code ring-right}. */
    void enter(PmiClientConnection c, int count, String left, String right, String thrid) {
        if (count < 0) {
            c.fail("entered the PMI ring with the negative ring-count " + count);
            return;
        }
        enter(c, new Entry(c, count, left, right, thrid));
    }

    @Override
    PmiClientConnection connection(Entry entry) {
        return entry.connection();
    }

    @Override
    void complete(List<Entry> entries) {
        int size = entries.size();
        String[] lefts = new String[size];
        String fromLeft = entries.get(size - 1).right();
        for (int i = 0; i < size; i++) {
            lefts[i] = fromLeft;
            if (entries.get(i).right() != null) {
                fromLeft = entries.get(i).right();
            }
        }
        String[] rights = new String[size];
        String fromRight = entries.get(0).left();
        for (int i = size - 1; i >= 0; i--) {
            rights[i] = fromRight;
            if (entries.get(i).left() != null) {
                fromRight = entries.get(i).left();
            }
        }
        long before = 0;
        for (int i = 0; i < size; i++) {
            Entry e = entries.get(i);
            e.connection().send(reply(e.thrid(), before, lefts[i], rights[i]));
            before += e.count();
        }
    }

    private static Pmi2Message reply(String thrid, long count, String left, String right) {
        List<String> fields = new ArrayList<>(List.of("rc", "0", "ring-count", Long.toString(count)));
        if (left != null) {
            fields.addAll(List.of("ring-left", left));
        }
        if (right != null) {
            fields.addAll(List.of("ring-right", right));
        }
        if (thrid != null) {
            fields.addAll(List.of("thrid", thrid));
        }
        return Pmi2Message.of("ring-response", fields.toArray(new String[0]));
    }
}
