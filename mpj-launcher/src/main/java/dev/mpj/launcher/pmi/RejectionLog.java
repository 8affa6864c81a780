package dev.mpj.launcher.pmi;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Counts the connections the PMI server rejects and words what is worth logging about them, so a flood of
 * strangers cannot flood the log: the first rejection from a source address is reported with its reason, the
 * later ones as one summary line per source every {@value #SUMMARY_SECONDS} s at most, with their count. Used on
 * the server thread only.
 */
final class RejectionLog {
    static final long SUMMARY_SECONDS = 10;
    private static final long SUMMARY_NANOS = TimeUnit.SECONDS.toNanos(SUMMARY_SECONDS);
    /** Sources tracked one by one; more (only loopback addresses can reach the server) share one entry. */
    private static final int MAX_SOURCES = 256;

    private static final class Source {
        long windowStart;
        long unreported;
        String lastProblem;
    }

    private final Map<String, Source> sources = new LinkedHashMap<>();
    private long rejected;

    /** Counts one rejection at {@code nowNanos}; returns the line to log, or null when it waits for a summary. */
    String reject(InetAddress address, String problem, long nowNanos) {
        rejected++;
        String name = address == null ? "an unknown address" : address.getHostAddress();
        if (!sources.containsKey(name) && sources.size() >= MAX_SOURCES) {
            name = "other addresses";
        }
        Source s = sources.get(name);
        if (s == null) {
            s = new Source();
            s.windowStart = nowNanos;
            sources.put(name, s);
            return "rejected a PMI connection from " + name + ": it " + problem + " (later rejections from there are"
                    + " counted and reported every " + SUMMARY_SECONDS + " s at most)";
        }
        s.unreported++;
        s.lastProblem = problem;
        return nowNanos - s.windowStart >= SUMMARY_NANOS ? summary(name, s, nowNanos) : null;
    }

    /** The summaries whose time has come at {@code nowNanos}, or all that are pending when {@code all}. */
    List<String> due(long nowNanos, boolean all) {
        List<String> lines = new ArrayList<>();
        for (Map.Entry<String, Source> e : sources.entrySet()) {
            Source s = e.getValue();
            if (s.unreported > 0 && (all || nowNanos - s.windowStart >= SUMMARY_NANOS)) {
                lines.add(summary(e.getKey(), s, nowNanos));
            }
        }
        return lines;
    }

    /** Nanoseconds until the next summary is due, or {@code Long.MAX_VALUE} when none is pending. */
    long nanosToNextSummary(long nowNanos) {
        long next = Long.MAX_VALUE;
        for (Source s : sources.values()) {
            if (s.unreported > 0) {
                next = Math.min(next, Math.max(0, s.windowStart + SUMMARY_NANOS - nowNanos));
            }
        }
        return next;
    }

    /** How many connections were rejected so far. */
    long rejected() {
        return rejected;
    }

    private static String summary(String name, Source s, long nowNanos) {
        long seconds = Math.max(1, TimeUnit.NANOSECONDS.toSeconds(nowNanos - s.windowStart));
        String line = "rejected " + s.unreported + " more PMI connection" + (s.unreported == 1 ? "" : "s") + " from "
                + name + " in the last " + seconds + " s; the last one " + s.lastProblem;
        s.unreported = 0;
        s.windowStart = nowNanos;
        return line;
    }
}
