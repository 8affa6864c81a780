package dev.mpj.transport.shm;

import dev.mpj.runtime.spi.FrameSink;

import java.io.IOException;
import java.util.Optional;

/**
 * Tells a dead local peer from a slow one through the liveness slots of the transport room: a peer that started
 * (its pid is there) and did not close in order, whose process no longer exists, is lost. Checked at a bounded
 * rate ({@link #INTERVAL_NANOS}) while this rank waits, and each lost peer is reported to the sink once.
 */
final class PeerWatch {
    /** How often a waiting rank looks at its peers' processes. */
    static final long INTERVAL_NANOS = 100_000_000L;

    private final ShmLayout layout;
    private final int[] ranks;
    private final int self;
    private final long selfPid;
    private final FrameSink sink;
    private final boolean[] lost;
    private long nextCheck;

    /**
     * @param ranks the world rank of each local rank
     * @param self  this rank's local rank
     */
    PeerWatch(ShmLayout layout, int[] ranks, int self, long selfPid, FrameSink sink) {
        this.layout = layout;
        this.ranks = ranks;
        this.self = self;
        this.selfPid = selfPid;
        this.sink = sink;
        this.lost = new boolean[ranks.length];
        this.nextCheck = System.nanoTime() + INTERVAL_NANOS;
    }

    /** Checks every local peer when the interval has passed since the last check. */
    void checkIfDue() {
        long now = System.nanoTime();
        if (now - nextCheck < 0) {
            return;
        }
        nextCheck = now + INTERVAL_NANOS;
        for (int local = 0; local < ranks.length; local++) {
            if (local != self) {
                isGone(local);
            }
        }
    }

    /**
     * Whether frames to {@code local} can no longer be read: it closed in order, or its process died (then
     * reported). Looks at the process every time: callers bound the rate.
     */
    boolean isGone(int local) {
        if (lost[local]) {
            return true;
        }
        int state = layout.state(local);
        if (state == ShmLayout.STATE_CLOSED) {
            return true;
        }
        if (state != ShmLayout.STATE_RUNNING) {
            return false;
        }
        long pid = layout.pid(local);
        if (pid == selfPid || processIsAlive(pid)) {
            return false;
        }
        if (layout.state(local) == ShmLayout.STATE_CLOSED) {
            return true; // closed in order, then exited, while we looked
        }
        lost[local] = true;
        sink.onPeerLost(ranks[local], new IOException("process " + pid + " of rank " + ranks[local]
                + " died without leaving shared memory in order"));
        return true;
    }

    boolean isLost(int local) {
        return lost[local];
    }

    private static boolean processIsAlive(long pid) {
        Optional<ProcessHandle> p = ProcessHandle.of(pid);
        return p.isPresent() && p.get().isAlive();
    }
}
