package dev.mpj.runtime.engine;

import dev.mpj.runtime.spi.FrameHeader;

import java.util.Arrays;

/**
 * Per-peer flow control of eager data, both ends of it. As a sender, the engine may have at most {@code budget}
 * bytes of eager payload to one peer that the peer has not yet reported consumed; a message that would go beyond
 * goes by rendezvous instead, which costs the receiver only an envelope. As a receiver, it counts the eager bytes
 * each peer's receives consumed and returns them once half a budget has gathered, so returns stay rare.
 *
 * <p>Early on they come sooner: the first once a peer's consumed bytes in all reach a 64th of half a budget, the
 * next at each power-of-two fraction of half a budget beyond (a 32nd, ..., a half of it), so at totals that about
 * double; from half a budget on at each of its multiples, as before. The return's path (the due test of every
 * progress pass, the control frame out, its handling at the sender) so runs several times in a job's first
 * exchanges, while the JIT still profiles the wait loop that holds it: a loop compiled from a profile without a
 * return had never seen that branch taken and went back to the interpreter at the first return, to be compiled
 * again. Small messages, as a collective's first call to many peers, make no more returns than before.
 *
 * <p>Messages of at most {@link #FREE_BYTES} are not charged: a rendezvous request would hold as much receiver
 * memory as such a message does. Both ends apply the same rule, so they agree on what was charged.
 */
final class EagerCredit {
    /** Payloads this small always go eagerly and uncharged: no bigger than a rendezvous request's header. */
    static final int FREE_BYTES = FrameHeader.LENGTH;

    private final long budget;
    private final long returnAt;
    /** Sender side: charged bytes per peer not yet returned. */
    private long[] outstanding = new long[0];
    /** Receiver side: consumed bytes per peer not yet returned. */
    private long[] consumed = new long[0];
    /** Receiver side: consumed bytes per peer in all, returned or not. */
    private long[] total = new long[0];
    /** Receiver side: per peer, the {@link #total} at which the next return is due; 0 (none yet): {@link #firstMark}. */
    private long[] mark = new long[0];
    private final long firstMark;
    /** Peers whose consumed bytes reached the return mark, in the order they did; {@code dueCount} of them. */
    private int[] due = new int[4];
    private int dueCount;

    EagerCredit(long budget) {
        this.budget = budget;
        this.returnAt = Math.max(1, budget / 2);
        this.firstMark = Math.max(1, returnAt / 64);
    }

    static boolean charged(long length) {
        return length > FREE_BYTES;
    }

    /** Sender: takes credit for an eager message of {@code length} bytes to {@code peer}, or says it may not go eagerly. */
    boolean tryCharge(int peer, int length) {
        if (!charged(length)) {
            return true;
        }
        outstanding = ensure(outstanding, peer);
        if (outstanding[peer] + length > budget) {
            return false;
        }
        outstanding[peer] += length;
        return true;
    }

    /** Sender: {@code peer} consumed {@code bytes} of charged eager data. */
    void returned(int peer, long bytes) {
        outstanding = ensure(outstanding, peer);
        outstanding[peer] = Math.max(0, outstanding[peer] - bytes);
    }

    /** Sender: charged bytes to {@code peer} not yet returned. */
    long outstanding(int peer) {
        return peer < outstanding.length ? outstanding[peer] : 0;
    }

    /** Receiver: a receive consumed an eager message of {@code length} bytes from {@code peer}. */
    void consumed(int peer, long length) {
        if (!charged(length)) {
            return;
        }
        consumed = ensure(consumed, peer);
        total = ensure(total, peer);
        mark = ensure(mark, peer);
        long at = Math.max(firstMark, mark[peer]);
        long before = total[peer];
        total[peer] = before + length;
        consumed[peer] += length;
        if (before < at && total[peer] >= at) {
            if (dueCount == due.length) {
                due = Arrays.copyOf(due, dueCount * 2);
            }
            due[dueCount++] = peer;
        }
    }

    /** Whether some peer is owed a return. */
    boolean anyDue() {
        return dueCount > 0;
    }

    /**
     * Receiver: hands every owed return to {@code out} (peer, bytes) and forgets it. A send may handle frames in
     * place and so make more returns due meanwhile: they are taken too.
     */
    void drainDue(Returns out) {
        while (dueCount > 0) {
            int peer = due[--dueCount];
            long bytes = consumed[peer];
            consumed[peer] = 0;
            mark[peer] = nextMark(total[peer]);
            out.send(peer, bytes);
        }
    }

    /**
     * The next return's mark after {@code total} bytes: the next multiple of half a budget, or below it the least
     * half, quarter, ... of it that is beyond {@code total}.
     */
    private long nextMark(long total) {
        if (total >= returnAt) {
            return (total / returnAt + 1) * returnAt;
        }
        long m = returnAt;
        while (m / 2 > total) {
            m /= 2;
        }
        return m;
    }

    /** Where owed returns go. */
    interface Returns {
        void send(int peer, long bytes);
    }

    private static long[] ensure(long[] a, int peer) {
        return peer < a.length ? a : Arrays.copyOf(a, Math.max(peer + 1, a.length * 2));
    }
}
