package dev.mpj.launcher.pmi;

import dev.mpj.runtime.pmi.wire.Pmi1Message;
import dev.mpj.runtime.pmi.wire.PmiSecret;

import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Who may talk to the job: a connection is served only once it has shown the job's secret, and counts for
 * the job once it has identified itself as a rank ({@code initack}). Until it shows the secret it is a stranger:
 * at most {@link Limits#maxStrangers} such connections are kept (a new one beyond is closed at once), and each
 * must show the secret within {@link Limits#secretTimeout}. A connection that has shown it is the job's own, and
 * may wait without a deadline before its {@code initack}: mpjrun's rank supervisor opens a rank's connection and
 * shows the secret before the rank's JVM starts, and a program may do any amount of work before {@code MPI.Init}.
 * Every rejected connection is closed and counted, and told to the listener through a {@link RejectionLog}, so no
 * stranger can fail or flood the job. Used on the server thread only.
 */
final class ConnectionGate {
    /**
     * The bounds on strangers: connections that have not shown the secret yet.
     *
     * @param maxStrangers how many may be open at once
     * @param secretTimeout how long one may take to show the secret
     */
    record Limits(int maxStrangers, Duration secretTimeout) {
        /**
         * Room for every rank to reconnect a few times, and as long to show the secret as the rank waits for the
         * answer ({@code initTimeout}, the ranks' {@code mpj.initTimeout}): a rank sends its first line at once, but
         * on a machine crowded with booting JVMs its process, or the server's, can stall for longer than 10 s
         * between the connect and the line.
         */
        static Limits forJob(int size, Duration initTimeout) {
            return new Limits(4 * size + 64, initTimeout);
        }
    }

    private final String secret;
    private final Limits limits;
    private final PmiServer.Listener listener;
    private final RejectionLog log = new RejectionLog();
    /** The strangers in the order they came, each with the time it must show the secret by. */
    private final Map<PmiClientConnection, Long> strangers = new LinkedHashMap<>();

    ConnectionGate(String secret, Limits limits, PmiServer.Listener listener) {
        this.secret = secret;
        this.limits = limits;
        this.listener = listener;
    }

    /** Whether a newly accepted connection may stay; one beyond the cap is counted as rejected. */
    boolean admits(InetAddress source, long nowNanos) {
        if (strangers.size() < limits.maxStrangers()) {
            return true;
        }
        rejected(source, "came while " + limits.maxStrangers() + " connections were waiting to show"
                + " the secret", nowNanos);
        return false;
    }

    /** {@code c} was accepted: it must show the secret in time. */
    void accepted(PmiClientConnection c, long nowNanos) {
        strangers.put(c, nowNanos + limits.secretTimeout().toNanos());
    }

    /** Whether {@code first}, a connection's first line, shows the job's secret. */
    boolean showsSecret(Pmi1Message first) {
        return PmiSecret.shows(first, secret);
    }

    /** {@code c} showed the secret, identified itself as a rank, or closed: it is no longer a stranger. */
    void settled(PmiClientConnection c) {
        strangers.remove(c);
    }

    /** Counts a connection closed for {@code problem} (phrased to follow "it") and logs it when due. */
    void rejected(InetAddress source, String problem, long nowNanos) {
        String line = log.reject(source, problem, nowNanos);
        if (line != null) {
            listener.connectionsRejected(line);
        }
    }

    /**
     * Closes the strangers that did not show the secret in time and logs the summaries that are due; returns the
     * nanoseconds until it has something to do again.
     */
    long tick(long nowNanos) {
        List<PmiClientConnection> late = new ArrayList<>();
        long next = Long.MAX_VALUE;
        for (Map.Entry<PmiClientConnection, Long> e : strangers.entrySet()) {
            if (e.getValue() - nowNanos > 0) {
                next = e.getValue() - nowNanos; // the oldest left: all others came later
                break;
            }
            late.add(e.getKey());
        }
        for (PmiClientConnection c : late) {
            long millis = limits.secretTimeout().toMillis();
            c.reject("did not show the job's secret within "
                    + (millis % 1000 == 0 ? millis / 1000 + " s" : millis + " ms"));
        }
        for (String summary : log.due(nowNanos, false)) {
            listener.connectionsRejected(summary);
        }
        return Math.min(next, log.nanosToNextSummary(nowNanos));
    }

    /** At the end: the summaries still pending. */
    List<String> pendingSummaries(long nowNanos) {
        return log.due(nowNanos, true);
    }

    /** How many connections were rejected so far. */
    long rejectedConnections() {
        return log.rejected();
    }

    /** How many strangers are open. */
    int strangers() {
        return strangers.size();
    }
}
