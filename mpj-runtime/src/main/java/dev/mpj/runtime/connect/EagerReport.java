package dev.mpj.runtime.connect;

import java.util.concurrent.TimeUnit;

/**
 * How this rank's eager phase went: the connects it opened, the slowest of them per round (a connect that takes
 * a second or more means a dropped SYN was retried), and the whole phase, waiting for the peers' connects
 * included.
 *
 * @param initiated          connects this rank issued
 * @param slowestPerRoundNanos slowest connect of each round (index 0 is round 1); 0 where this rank issued none
 * @param startWaitNanos     time waiting until this rank's and every other rank's transport could connect, before
 *                           the first connect
 * @param elapsedNanos       the whole phase, that wait included
 */
public record EagerReport(int initiated, long[] slowestPerRoundNanos, long startWaitNanos, long elapsedNanos) {
    /** The slowest connect of the phase, in nanoseconds. */
    public long slowestNanos() {
        long max = 0;
        for (long t : slowestPerRoundNanos) {
            max = Math.max(max, t);
        }
        return max;
    }

    /** The round (from 1) of the slowest connect, 0 if none was issued. */
    public int slowestRound() {
        int round = 0;
        long max = 0;
        for (int i = 0; i < slowestPerRoundNanos.length; i++) {
            if (slowestPerRoundNanos[i] > max) {
                max = slowestPerRoundNanos[i];
                round = i + 1;
            }
        }
        return round;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("eager ").append(ms(elapsedNanos)).append(" ms (transport start ")
                .append(ms(startWaitNanos)).append(" ms), ").append(initiated)
                .append(" connects, slowest ").append(ms(slowestNanos())).append(" ms (round ").append(slowestRound())
                .append("), per round [");
        for (int i = 0; i < slowestPerRoundNanos.length; i++) {
            sb.append(i == 0 ? "" : " ").append(ms(slowestPerRoundNanos[i]));
        }
        return sb.append("] ms").toString();
    }

    private static String ms(long nanos) {
        return String.format("%.2f", nanos / (double) TimeUnit.MILLISECONDS.toNanos(1));
    }
}
