package dev.mpj.runtime.coll;

import dev.mpj.api.CollectiveOperation;
import dev.mpj.api.Operation;
import dev.mpj.runtime.engine.ProgressEngine;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * A collective as rounds of point-to-point sends and receives among {@link Peers}, as MPICH's and libNBC's
 * non-blocking collectives are: each round starts once every operation of the round before has completed, with
 * local work (combining, copying) at its start. A blocking collective {@link #run}s it, waiting for each round. A
 * non-blocking one {@link #start}s it and the progress engine advances it on every pass ({@link
 * ProgressEngine.Task}); it never waits, and no thread of its own runs it. As an operation it is complete once its
 * last round is, or at the first error (a failed operation, a block of the wrong size, a failing local step), which
 * it then reports.
 */
final class Schedule extends CollectiveOperation implements ProgressEngine.Task {
    /**
     * One round: local work first, then the sends and receives it starts through {@link #send}/{@link #receive}.
     * Rounds are named classes, not lambdas: linking a lambda is a bootstrap call in the first collective that
     * builds it, on every rank.
     */
    interface Round {
        void start(Schedule s);
    }

    /** A round of one receive from member {@code from} into {@code room}. */
    static final class Receive implements Round {
        private final int from;
        private final ByteBuffer room;

        Receive(int from, ByteBuffer room) {
            this.from = from;
            this.room = room;
        }

        @Override
        public void start(Schedule s) {
            s.receive(from, room);
        }
    }

    /** A round of one send of {@code data} to member {@code to}. */
    static final class Send implements Round {
        private final int to;
        private final ByteBuffer data;

        Send(int to, ByteBuffer data) {
            this.to = to;
            this.data = data;
        }

        @Override
        public void start(Schedule s) {
            s.send(to, data);
        }
    }

    /** A round that receives from member {@code from} into {@code room} and sends {@code data} to {@code to}. */
    static final class Exchange implements Round {
        private final int from;
        private final ByteBuffer room;
        private final int to;
        private final ByteBuffer data;

        Exchange(int from, ByteBuffer room, int to, ByteBuffer data) {
            this.from = from;
            this.room = room;
            this.to = to;
            this.data = data;
        }

        @Override
        public void start(Schedule s) {
            s.receive(from, room);
            s.send(to, data);
        }
    }

    /** A round of local work only: copies {@code from} into {@code to}. */
    static final class Copy implements Round {
        private final ByteBuffer from;
        private final ByteBuffer to;

        Copy(ByteBuffer from, ByteBuffer to) {
            this.from = from;
            this.to = to;
        }

        @Override
        public void start(Schedule s) {
            Bytes.copy(from, to);
        }
    }

    /** {@link #run}'s wait condition: the current round's operations have completed. */
    private static final class RoundDone implements BooleanSupplier {
        private final Schedule schedule;

        RoundDone(Schedule schedule) {
            this.schedule = schedule;
        }

        @Override
        public boolean getAsBoolean() {
            return schedule.roundComplete();
        }
    }

    private final Peers peers;
    private final List<Round> rounds = new ArrayList<>();
    private final List<Pending> pending = new ArrayList<>();
    /** The wait condition of {@link #run}: a field, so that a blocking collective's waits share one. */
    private final BooleanSupplier roundDone = new RoundDone(this);
    private int next;
    private volatile boolean complete;
    private RuntimeException error;

    Schedule(Peers peers) {
        this.peers = peers;
    }

    Peers peers() {
        return peers;
    }

    /** Appends a round. */
    Schedule then(Round round) {
        rounds.add(round);
        return this;
    }

    /** Within a round: starts a send of {@code data} to member {@code v}. */
    void send(int v, ByteBuffer data) {
        pending.add(new Pending(peers.startSend(v, data), -1, v));
    }

    /** Within a round: posts a receive from member {@code v} that must fill {@code room}. */
    void receive(int v, ByteBuffer room) {
        pending.add(new Pending(peers.startReceive(v, room), room.remaining(), v));
    }

    /** Runs the rounds that can run now; call once when the collective starts, then let the engine advance it. */
    Schedule start(ProgressEngine engine) {
        if (!advance()) {
            engine.addTask(this);
        }
        return this;
    }

    /**
     * Runs the whole schedule on the calling thread, waiting for each round in turn: the blocking collective.
     * Raises the first error.
     */
    void run() {
        while (!advance()) {
            peers.backend().await(roundDone);
        }
        if (error != null) {
            throw error;
        }
    }

    private boolean roundComplete() {
        for (Pending p : pending) {
            if (!p.op.isComplete()) {
                return false;
            }
        }
        return true;
    }

    /** Runs rounds while the current one has completed; true once the schedule has finished. */
    @Override
    public boolean advance() {
        while (!complete) {
            if (!roundComplete()) {
                return false;
            }
            try {
                checkPending();
                if (next == rounds.size()) {
                    complete = true;
                    break;
                }
                pending.clear();
                rounds.get(next++).start(this);
            } catch (RuntimeException e) {
                error = e;
                complete = true;
            }
        }
        return true;
    }

    private void checkPending() {
        for (Pending p : pending) {
            if (p.op.error() != null) {
                throw p.op.error();
            }
            if (p.length >= 0) {
                peers.checkLength(p.op, p.length, p.member);
            }
        }
    }

    /**
     * An operation of the current round with its member and, for a receive, the length it must fill (else -1). A
     * class, not a record, so that the package links no bootstrap method at all.
     */
    private static final class Pending {
        final Operation op;
        final int length;
        final int member;

        Pending(Operation op, int length, int member) {
            this.op = op;
            this.length = length;
            this.member = member;
        }
    }

    @Override
    public boolean isComplete() {
        return complete;
    }

    @Override
    public int byteCount() {
        return 0;
    }

    @Override
    public ByteBuffer buffer() {
        return null;
    }

    @Override
    public RuntimeException error() {
        return error;
    }
}
