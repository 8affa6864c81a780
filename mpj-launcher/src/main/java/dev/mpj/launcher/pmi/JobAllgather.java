package dev.mpj.launcher.pmi;

import dev.mpj.runtime.pmi.wire.Pmi1Message;
import dev.mpj.runtime.pmi.wire.Pmi2Message;
import dev.mpj.runtime.pmi.wire.PmiAllgather;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The job's allgather ({@link PmiAllgather}): each rank enters with one value; once all have, every rank is
 * answered with all values in rank order, in its own dialect. The value lines are the same for every rank, so
 * they are encoded once per dialect and shared by the connections' write queues. Independent of the KVS and the
 * barrier: it neither publishes puts nor waits for them. Used on the server thread only.
 */
final class JobAllgather extends RankCollective<JobAllgather.Entry> {
    /** What one rank entered with: its value, its dialect, and the request's {@code thrid} (PMI-2). */
    record Entry(PmiClientConnection connection, String value, boolean pmi2, String thrid) {
    }

    private final PmiUpstream upstream;
    /** The served ranks' entries, sent up the tree and waiting for every rank's value. */
    private List<Entry> pending = List.of();

    /** @param upstream where the served ranks' values go, null to complete here */
    JobAllgather(int size, int served, PmiUpstream upstream) {
        super("allgather", size, served);
        this.upstream = upstream;
    }

    /** {@code c} enters with {@code value}; {@code thrid} is echoed in a PMI-2 reply when not null. */
    void enter(PmiClientConnection c, String value, boolean pmi2, String thrid) {
        String problem = PmiAllgather.problem(value);
        if (problem != null) {
            c.fail("entered the PMI allgather with " + problem);
            return;
        }
        enter(c, new Entry(c, value, pmi2, thrid));
    }

    @Override
    PmiClientConnection connection(Entry entry) {
        return entry.connection();
    }

    @Override
    void complete(List<Entry> all) {
        if (upstream != null) {
            SortedMap<Integer, String> values = new TreeMap<>();
            for (Entry e : all) {
                values.put(e.connection().rank(), e.value());
            }
            pending = all;
            upstream.allgatherEntered(values);
            return;
        }
        List<String> values = new ArrayList<>(all.size());
        for (Entry e : all) {
            values.add(e.value());
        }
        answer(all, values);
    }

    /** The whole job's allgather completed upstream with {@code values}, in rank order: answers the served ranks. */
    void completeUpstream(List<String> values) {
        List<Entry> answered = pending;
        pending = List.of();
        answer(answered, values);
    }

    private static void answer(List<Entry> all, List<String> values) {
        ByteBuffer pmi1Values = null;
        ByteBuffer pmi2Values = null;
        String count = Integer.toString(values.size());
        for (Entry e : all) {
            PmiClientConnection c = e.connection();
            if (e.pmi2()) {
                if (pmi2Values == null) {
                    pmi2Values = encode(values, true);
                }
                c.send(e.thrid() == null
                        ? Pmi2Message.of(PmiAllgather.PMI2_RESULT, "rc", "0", PmiAllgather.COUNT, count)
                        : Pmi2Message.of(PmiAllgather.PMI2_RESULT, "rc", "0", PmiAllgather.COUNT, count, "thrid",
                                e.thrid()));
                c.sendShared(pmi2Values);
            } else {
                if (pmi1Values == null) {
                    pmi1Values = encode(values, false);
                }
                c.send(Pmi1Message.of(PmiAllgather.PMI1_RESULT, "rc", "0", PmiAllgather.COUNT, count));
                c.sendShared(pmi1Values);
            }
        }
    }

    /** The value lines (PMI-1) or frames (PMI-2) that carry {@code values}, as one buffer. */
    private static ByteBuffer encode(List<String> values, boolean pmi2) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (String chunk : PmiAllgather.chunks(values, pmi2)) {
            out.writeBytes(pmi2 ? Pmi2Message.of(PmiAllgather.PMI2_VALUES, PmiAllgather.VALUES, chunk).encode()
                    : Pmi1Message.of(PmiAllgather.PMI1_VALUES, PmiAllgather.VALUES, chunk).encode());
        }
        return ByteBuffer.wrap(out.toByteArray());
    }
}
