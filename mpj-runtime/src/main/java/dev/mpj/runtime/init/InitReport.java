package dev.mpj.runtime.init;

import dev.mpj.runtime.bootstrap.PhaseClock;
import dev.mpj.runtime.pmi.PmiCounters;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one rank's {@code MPI.Init} did: the wall-clock time of each phase, in the order the phases first ran,
 * and the PMI operations each phase made. A phase that runs in several pieces (the address exchange around the
 * segment mapping it overlaps) accumulates them. Phases used by the runtime: {@code pmi}, {@code nodemap},
 * {@code listen}, {@code card}, {@code segment}, {@code cardlength} (only with irregular cards),
 * {@code exchange} (the strategy's own work: puts, gets, the roots' allgather, node barriers), {@code fence} (the
 * wait at the exchange's PMI barrier, or its PMIX_Ring, for the slowest rank), {@code connections}; while the
 * exchange's fence is pending (entered, not yet waited for) also {@code engine} and {@code preload}, whose time and
 * the segment's make the fence's {@linkplain #overlapNanos() overlap}.
 */
public final class InitReport implements PhaseClock {
    /**
     * One phase: its total time and the PMI operations made during it ({@code rings}: PMIX_Ring;
     * {@code allgathers}: mpjrun's allgather).
     */
    public record Phase(String name, long nanos, long puts, long gets, long barriers, long rings, long allgathers) {
        Phase plus(long dNanos, long dPuts, long dGets, long dBarriers, long dRings, long dAllgathers) {
            return new Phase(name, nanos + dNanos, puts + dPuts, gets + dGets, barriers + dBarriers, rings + dRings,
                    allgathers + dAllgathers);
        }

        public double millis() {
            return nanos / 1e6;
        }
    }

    private final long start;
    private final List<Phase> phases = new ArrayList<>();
    private long last;
    private PmiCounters counters;
    private long puts;
    private long gets;
    private long barriers;
    private long rings;
    private long allgathers;
    private String killAfter;
    private volatile String lastPhase = "none";
    private String exchange = "none";
    private int nodeCount = 1;
    /** Whether a fence is pending, since when, and the local work done while fences were pending. */
    private boolean fencePending;
    private long fenceStartedAt;
    private long overlap;

    /** A report whose first phase starts now. */
    public InitReport() {
        this(System.nanoTime());
    }

    /** A report whose first phase started at {@code startNanos} ({@link System#nanoTime()}). */
    public InitReport(long startNanos) {
        start = startNanos;
        last = startNanos;
    }

    /**
     * The counters phases are charged with: the PMI client's, once it exists. Everything it counted so far goes
     * to the phase that ends next.
     */
    public void countFrom(PmiCounters pmiCounters) {
        counters = pmiCounters;
    }

    /** Marks the end of a phase: the time and PMI operations since the previous mark are charged to it. */
    @Override
    public void phase(String name) {
        long now = System.nanoTime();
        long p = 0;
        long g = 0;
        long b = 0;
        long r = 0;
        long a = 0;
        if (counters != null) {
            p = counters.puts() - puts;
            g = counters.gets() - gets;
            b = counters.barriers() - barriers;
            r = counters.rings() - rings;
            a = counters.allgathers() - allgathers;
            puts += p;
            gets += g;
            barriers += b;
            rings += r;
            allgathers += a;
        }
        if (fencePending && name.equals("fence")) {
            overlap += last - fenceStartedAt;
            fencePending = false;
        }
        int i = indexOf(name);
        if (i < 0) {
            phases.add(new Phase(name, now - last, p, g, b, r, a));
        } else {
            phases.set(i, phases.get(i).plus(now - last, p, g, b, r, a));
        }
        last = now;
        lastPhase = name;
        if (name.equals(killAfter)) {
            SelfKill.now("phase " + name + " ended");
        }
    }

    @Override
    public void fenceStarted() {
        fencePending = true;
        fenceStartedAt = last;
    }

    /**
     * The local work done while the exchange's fence was pending, from its entry to the start of the wait (the
     * {@code fence} phase): time the non-blocking fence took off the critical path of every rank but the last.
     */
    public long overlapNanos() {
        return overlap;
    }

    /** The phase that ended last ("none" before the first), readable from any thread (for watchdog messages). */
    String lastPhaseName() {
        return lastPhase;
    }

    /** Makes this process SIGKILL itself when {@code phaseName} next ends (crash clean-up tests). */
    void killAfter(String phaseName) {
        killAfter = phaseName;
    }

    void describeJob(String exchangeName, int nodes) {
        exchange = exchangeName;
        nodeCount = nodes;
    }

    /** The phases in the order they first ran. */
    public List<Phase> phases() {
        return Collections.unmodifiableList(phases);
    }

    /** Nanoseconds of each phase, in the order the phases first ran. */
    public Map<String, Long> phaseNanos() {
        Map<String, Long> m = new LinkedHashMap<>();
        for (Phase p : phases) {
            m.put(p.name(), p.nanos());
        }
        return m;
    }

    /** The named phase, or an empty one when it did not run. */
    public Phase get(String name) {
        int i = indexOf(name);
        return i < 0 ? new Phase(name, 0, 0, 0, 0, 0, 0) : phases.get(i);
    }

    public long totalNanos() {
        return last - start;
    }

    /** The address-exchange strategy that ran ("none" in a job of one rank). */
    public String exchange() {
        return exchange;
    }

    /** Nodes of the job. */
    public int nodeCount() {
        return nodeCount;
    }

    private int indexOf(String name) {
        for (int i = 0; i < phases.size(); i++) {
            if (phases.get(i).name().equals(name)) {
                return i;
            }
        }
        return -1;
    }

    /** E.g. {@code 41.20 ms [ pmi=3.10 (gets=1) nodemap=0.20 … ]}; PMI operations shown where there were any. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(String.format("%.2f ms [", totalNanos() / 1e6));
        for (Phase p : phases) {
            sb.append(String.format(" %s=%.2f", p.name(), p.millis()));
            if (p.puts() + p.gets() + p.barriers() + p.rings() + p.allgathers() > 0) {
                sb.append(" (puts=").append(p.puts()).append(" gets=").append(p.gets())
                        .append(" barriers=").append(p.barriers());
                if (p.rings() > 0) {
                    sb.append(" rings=").append(p.rings());
                }
                if (p.allgathers() > 0) {
                    sb.append(" allgathers=").append(p.allgathers());
                }
                sb.append(')');
            }
        }
        return sb.append(" ]").toString();
    }
}
