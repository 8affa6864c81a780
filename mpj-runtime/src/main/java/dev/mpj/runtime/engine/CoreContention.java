package dev.mpj.runtime.engine;

import dev.mpj.runtime.config.WaitPolicy;

/**
 * What this process has seen of the competition for its cores, learned from its own waits rather than guessed at
 * start. A polled wait that yields and loses its core (the yield ran another thread, so it came back only after that
 * thread's turn) says other work is queued for this very core, where a spinning wait would keep it off the CPU; the
 * {@link WaitPolicy#AUTO adaptive} waits then give the cores up soon. Once no yield has lost its core for a quiet
 * period, the cores are judged free and the waits keep them. A wait preempted while it spins proves nothing of the
 * kind: on a machine busy with other work the scheduler shares the cores out anyway, and a rank that gave its turns
 * away would only wait longer. Nor do yields that come straight back prove free cores: the rank waited for may sit in
 * the other core's run queue, out of this yield's reach. It starts crowded, the safe side: a rank that spins on a full
 * machine keeps the rank it waits for off the CPU, while one that yields on an idle machine only pays for the waits
 * longer than its short spin. Each time the cores turn out crowded soon after being judged free, the quiet period
 * doubles, so a job whose ranks outnumber the cores does not keep trying to spin; a free spell much longer than the
 * quiet period halves it again. Shared by the threads of the process (every rank of an in-process job shares the
 * machine); it is a heuristic, so racing updates are harmless.
 *
 * <p>A node whose ranks outnumber its cores is crowded for good ({@link #crowdedForGood}): there the waits' yields
 * mostly hand the core to a peer rank that polls a few microseconds and yields back, so they seldom look lost, and
 * the quiet period would judge the cores free again and again; each such spell lets a waiting rank spin while the
 * rank it waits for sits behind it in its core's run queue.
 */
public final class CoreContention {
    /** The contention of the cores this process runs on, as all its adaptive waits learn it. */
    static final CoreContention OF_THIS_PROCESS = new CoreContention(System.nanoTime());
    /** The first quiet period, and the shortest. */
    static final long MIN_QUIET_NANOS = 20_000_000;
    /** The longest quiet period: how often at most a crowded machine is tried with spinning waits. */
    static final long MAX_QUIET_NANOS = 1_000_000_000;
    /** A free spell this many quiet periods long halves the quiet period at the next lost core. */
    private static final int LONG_FREE_SPELL = 8;

    private volatile boolean crowded = true;
    private volatile boolean forGood;
    private volatile long lastLost;
    private volatile long freeSince;
    private volatile long quietNanos = MIN_QUIET_NANOS;

    /** Cores judged crowded since {@code now} (nanoseconds, on the clock the waits read). */
    CoreContention(long now) {
        lastLost = now;
    }

    /** Whether other runnable work competes for the cores at {@code now}, as far as the waits have seen. */
    boolean crowded(long now) {
        if (crowded && !forGood && now - lastLost >= quietNanos) {
            freeSince = now;
            crowded = false;
        }
        return crowded;
    }

    /** A wait's yield ran another thread, which held the core until {@code now}. */
    void lostCore(long now) {
        lastLost = now;
        if (!crowded) {
            crowded = true;
            quietNanos = now - freeSince >= LONG_FREE_SPELL * quietNanos
                    ? Math.max(quietNanos >> 1, MIN_QUIET_NANOS)
                    : Math.min(quietNanos << 1, MAX_QUIET_NANOS);
        }
    }

    /** Judges the cores crowded from now on, whatever the waits see: the job's own ranks outnumber them. */
    void crowdedForGood() {
        forGood = true;
        crowded = true;
    }

    /** Whether the job's own ranks outnumber the cores ({@link #crowdedForGood}). */
    boolean outnumberedByRanks() {
        return forGood;
    }

    /** How long no wait must lose its core before the cores are judged free. */
    long quietNanos() {
        return quietNanos;
    }
}
