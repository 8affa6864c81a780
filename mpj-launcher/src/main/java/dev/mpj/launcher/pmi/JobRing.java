package dev.mpj.launcher.pmi;

import dev.mpj.runtime.pmi.wire.Pmi2Message;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

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

    private final PmiUpstream upstream;
    /** The served ranks' entries, sent up the tree and waiting for their answers. */
    private List<Entry> pending = List.of();

    /** @param upstream where the served ranks' parts go, null to complete here */
    JobRing(int size, int served, PmiUpstream upstream) {
        super("ring", size, served);
        this.upstream = upstream;
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
        if (upstream != null) {
            SortedMap<Integer, PmiUpstream.RingPart> parts = new TreeMap<>();
            for (Entry e : entries) {
                parts.put(e.connection().rank(), new PmiUpstream.RingPart(e.count(), e.left(), e.right()));
            }
            pending = entries;
            upstream.ringEntered(parts);
            return;
        }
        List<PmiUpstream.RingPart> parts = new ArrayList<>(entries.size());
        for (Entry e : entries) {
            parts.add(new PmiUpstream.RingPart(e.count(), e.left(), e.right()));
        }
        List<PmiUpstream.RingAnswer> answers = answers(parts);
        for (int i = 0; i < entries.size(); i++) {
            answer(entries.get(i), answers.get(i));
        }
    }

    /** The whole job's ring completed upstream: answers the served ranks from {@code answers}, by rank. */
    void completeUpstream(Map<Integer, PmiUpstream.RingAnswer> answers) {
        List<Entry> answered = pending;
        pending = List.of();
        for (Entry e : answered) {
            if (e.connection().rank() >= 0) {
                answer(e, answers.get(e.connection().rank()));
            }
        }
    }

    private static void answer(Entry e, PmiUpstream.RingAnswer a) {
        e.connection().send(reply(e.thrid(), a.count(), a.left(), a.right()));
    }

    /** Every rank's answer, in rank order, from every rank's part in rank order. */
    static List<PmiUpstream.RingAnswer> answers(List<PmiUpstream.RingPart> parts) {
        int size = parts.size();
        String[] lefts = new String[size];
        String fromLeft = parts.get(size - 1).right();
        for (int i = 0; i < size; i++) {
            lefts[i] = fromLeft;
            if (parts.get(i).right() != null) {
                fromLeft = parts.get(i).right();
            }
        }
        String[] rights = new String[size];
        String fromRight = parts.get(0).left();
        for (int i = size - 1; i >= 0; i--) {
            rights[i] = fromRight;
            if (parts.get(i).left() != null) {
                fromRight = parts.get(i).left();
            }
        }
        List<PmiUpstream.RingAnswer> answers = new ArrayList<>(size);
        long before = 0;
        for (int i = 0; i < size; i++) {
            answers.add(new PmiUpstream.RingAnswer(before, lefts[i], rights[i]));
            before += parts.get(i).count();
        }
        return answers;
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
