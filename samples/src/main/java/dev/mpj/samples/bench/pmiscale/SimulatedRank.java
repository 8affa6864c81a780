package dev.mpj.samples.bench.pmiscale;

import dev.mpj.runtime.pmi.SharedKvsTable;
import dev.mpj.runtime.pmi.wire.Pmi2Message;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.function.Function;

/**
 * One simulated rank on a non-blocking socket: sends a step, reads its reply as it arrives, checks it, sends
 * the next, until the current part of its {@link RankScript} is done. As the real clients, it maps the shared KVS
 * table the server announces and answers a get from it when the table holds the key. Driven by one
 * {@link RankDriver} thread.
 */
final class SimulatedRank {
    /** Room for a reply line (1024 bytes) or frame (6 + 1152) and what arrived after it. */
    private static final int BUFFER = 4096;

    final int rank;
    private final RankScript script;
    private final RankScript.Job job;
    private final ByteBuffer in = ByteBuffer.allocate(BUFFER);
    /** The steps completed, by {@link Step.Op}, and last the gets answered by the shared table. */
    private final long[] counts = new long[Step.Op.values().length + 1];
    /** Maps an announced table, or gives null where the ranks must ask the server for every get. */
    private final Function<String, SharedKvsTable> tables;
    private SharedKvsTable table;
    private SocketChannel channel;
    private SelectionKey key;
    private ByteBuffer out;
    private Step current;
    private int part;
    private boolean finishSent;

    SimulatedRank(int rank, RankScript script, RankScript.Job job, Function<String, SharedKvsTable> tables) {
        this.rank = rank;
        this.script = script;
        this.job = job;
        this.tables = tables;
    }

    /** The steps completed, by {@link Step.Op}, then the gets of them that the shared table answered. */
    long[] counts() {
        return counts;
    }

    void connected(SocketChannel channel, SelectionKey key) {
        this.channel = channel;
        this.key = key;
    }

    /**
     * Starts part {@code part} (0 start, 1 exchange, 2 finalize) or goes on with it: sends its next step.
     *
     * @return false when the part has no step left
     */
    boolean advance(int part) throws IOException {
        this.part = part;
        while (true) {
            current = switch (part) {
                case 0 -> script.nextStartStep();
                case 1 -> script.nextExchangeStep(job);
                default -> finishSent ? null : script.finish();
            };
            if (current == null) {
                return false;
            }
            if (table == null || !current.answerFrom(table)) {
                break;
            }
            counts[current.op.ordinal()]++;
            counts[counts.length - 1]++;
        }
        finishSent |= part == 2;
        out = ByteBuffer.wrap(current.request());
        flush();
        return true;
    }

    void flush() throws IOException {
        channel.write(out);
        key.interestOps(out.hasRemaining() ? SelectionKey.OP_READ | SelectionKey.OP_WRITE : SelectionKey.OP_READ);
    }

    /**
     * Reads what arrived and checks complete replies.
     *
     * @return false when the part is done
     */
    boolean read() throws IOException {
        if (channel.read(in) < 0) {
            throw new IOException("the PMI server closed the connection of rank " + rank);
        }
        in.flip();
        try {
            while (current != null) {
                String unit = current.framed ? frame() : line();
                if (unit == null) {
                    return true;
                }
                if (current.reply(unit)) {
                    counts[current.op.ordinal()]++;
                    if (current.offeredTable() != null && table == null) {
                        table = tables.apply(current.offeredTable());
                    }
                    if (!advance(part)) {
                        return false;
                    }
                }
            }
            return true;
        } finally {
            in.compact();
        }
    }

    private String line() {
        for (int i = in.position(); i < in.limit(); i++) {
            if (in.get(i) == '\n') {
                String line = new String(in.array(), in.position(), i - in.position(), StandardCharsets.ISO_8859_1);
                in.position(i + 1);
                return line;
            }
        }
        if (in.remaining() == in.capacity()) {
            throw new IllegalStateException("rank " + rank + " got a line longer than its buffer");
        }
        return null;
    }

    private String frame() {
        if (in.remaining() < Pmi2Message.LENGTH_FIELD) {
            return null;
        }
        int length = Pmi2Message.parseLength(new String(in.array(), in.position(), Pmi2Message.LENGTH_FIELD,
                StandardCharsets.ISO_8859_1));
        if (in.remaining() < Pmi2Message.LENGTH_FIELD + length) {
            return null;
        }
        String body = new String(in.array(), in.position() + Pmi2Message.LENGTH_FIELD, length,
                StandardCharsets.ISO_8859_1);
        in.position(in.position() + Pmi2Message.LENGTH_FIELD + length);
        return body;
    }

    void close() {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException e) {
                // the simulation is over for this rank either way
            }
        }
    }
}
