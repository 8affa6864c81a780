package dev.mpj.runtime.engine;

import dev.mpj.runtime.config.WaitPolicy;

/**
 * What this process has seen of the competition for its cores, learned from its own waits rather than guessed
 * at start. A polled wait that lost its core (a gap between two looks at the clock far longer than the polling
 * between them: it was preempted while it spun, or its yield ran another thread) says other work wants the cores,
 * and the {@link WaitPolicy#AUTO adaptive} waits then give them up soon; once no wait has lost its core for a
 * quiet period, the cores are judged free and the waits keep them. Yields that come straight back are no proof of
 * free cores: on a loaded machine the rank waited for often sits in the other core's run queue, where a yield
 * here cannot reach it. It starts crowded, the safe side: a rank that spins on a full machine keeps the rank it
 * waits for off the CPU, while one that yields on an idle machine only pays for the waits longer than its short
 * spin. Each time the cores turn out crowded soon after being judged free, the quiet period doubles, so a job whose
 * ranks outnumber the cores does not keep trying to spin; a free spell much longer than the quiet period halves
 * it again. Shared by the threads of the process (every rank of an in-process job shares the machine); it is a
 * heuristic, so racing updates are harmless.
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
    private volatile long lastLost;
    private volatile long freeSince;
    private volatile long quietNanos = MIN_QUIET_NANOS;

    /** Cores judged crowded since {@code now} (nanoseconds, on the clock the waits read). */
    CoreContention(long now) {
        lastLost = now;
    }

    /** Whether other runnable work competes for the cores at {@code now}, as far as the waits have seen. */
    boolean crowded(long now) {
        if (crowded && now - lastLost >= quietNanos) {
            freeSince = now;
            crowded = false;
        }
        return crowded;
    }

    /** A wait lost its core at {@code now}: preempted while it spun, or its yield ran another thread. */
    void lostCore(long now) {
        lastLost = now;
        if (!crowded) {
            crowded = true;
            quietNanos = now - freeSince >= LONG_FREE_SPELL * quietNanos
                    ? Math.max(quietNanos >> 1, MIN_QUIET_NANOS)
                    : Math.min(quietNanos << 1, MAX_QUIET_NANOS);
        }
    }

    /** How long no wait must lose its core before the cores are judged free. */
    long quietNanos() {
        return quietNanos;
    }
}
