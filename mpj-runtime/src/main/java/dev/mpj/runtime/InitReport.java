package dev.mpj.runtime;

import java.util.LinkedHashMap;
import java.util.Map;

/** Wall-clock time of each MPI.Init phase, in the order they ran. */
public final class InitReport {
    private final long start = System.nanoTime();
    private long last = start;
    private final Map<String, Long> phases = new LinkedHashMap<>();

    /** Marks the end of a phase. */
    public void phase(String name) {
        long now = System.nanoTime();
        phases.put(name, now - last);
        last = now;
    }

    public Map<String, Long> phaseNanos() {
        return phases;
    }

    public long totalNanos() {
        return last - start;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(String.format("%.2f ms [", totalNanos() / 1e6));
        phases.forEach((k, v) -> sb.append(String.format(" %s=%.2f", k, v / 1e6)));
        return sb.append(" ]").toString();
    }
}
