package dev.mpj.runtime.spi;

/**
 * What one rank's TCP transport did with connections: the connections that carry a pair's frames (opened by
 * this rank, or accepted from the peer), the attempts dropped because both ranks of a pair connected at once,
 * and the distinct peers this rank exchanged frames with over TCP.
 * <p>
 * Summed over a job, {@code initiated} (and likewise {@code accepted}) is the number of TCP connections, since
 * every pair has at most one.
 *
 * @param initiated  connections this rank opened that carry a pair's frames
 * @param accepted   connections a peer opened to this rank that carry a pair's frames
 * @param superseded attempts of either side closed after a simultaneous connect lost the tie-break
 * @param peersTalkedTo distinct peers this rank sent a frame to or received one from over TCP
 */
public record ConnectionStats(int initiated, int accepted, int superseded, int peersTalkedTo) {
    /** No transport, no connections. */
    public static final ConnectionStats NONE = new ConnectionStats(0, 0, 0, 0);

    /** Connections of this rank in either direction. */
    public int opened() {
        return initiated + accepted;
    }

    @Override
    public String toString() {
        return "connections " + opened() + " (initiated " + initiated + ", accepted " + accepted + ", superseded "
                + superseded + "), peers talked to " + peersTalkedTo;
    }
}
