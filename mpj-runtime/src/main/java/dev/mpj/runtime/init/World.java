package dev.mpj.runtime.init;

import dev.mpj.runtime.config.Settings;
import dev.mpj.runtime.config.ConnectionMode;
import dev.mpj.runtime.spi.ConnectionStats;
import dev.mpj.runtime.connect.EagerReport;
import dev.mpj.runtime.spi.PeerConnector;
import dev.mpj.runtime.engine.ProgressEngine;
import dev.mpj.runtime.node.NodeMap;
import dev.mpj.runtime.node.NodeSegment;
import dev.mpj.runtime.pmi.PmiClient;
import dev.mpj.runtime.spi.Transport;

/**
 * The job as {@link InitSequence} found and built it for this rank: what {@code MPI.Init} returns to the runtime.
 *
 * @param segment        this node's segment (its card table holds every rank's card); null in a job of one
 * @param router         each peer's transport; null in a job of one
 * @param tcp            the TCP transport, or null when no peer is reached through TCP
 * @param exchange       the address exchange that ran ("none" in a job of one)
 * @param connectionMode {@code mpj.connections} resolved for this job
 * @param eagerReport    how the eager connection phase went, or null when it did not run
 */
public record World(int rank, int size, Settings settings, PmiClient pmi, NodeMap nodeMap, NodeSegment segment,
                    ProgressEngine engine, TransportRouter router, Transport tcp, String exchange,
                    ConnectionMode connectionMode, EagerReport eagerReport, InitReport report) {

    /** This rank's TCP connections so far: opened, superseded, and the peers it exchanged frames with. */
    public ConnectionStats connectionStats() {
        return tcp instanceof PeerConnector connector ? connector.connectionStats() : ConnectionStats.NONE;
    }

    /**
     * Leaves the job in order: a PMI barrier (everyone is done communicating before connections close under
     * them), the transports closed, the node segment released (the last rank of the node removes it), PMI
     * finalized.
     */
    public void leave() {
        pmi.barrier();
        if (router != null) {
            router.close(); // shared memory marks this rank's liveness slot closed: peers see an orderly exit
        }
        if (segment != null) {
            segment.barrier();
            segment.close();
        }
        pmi.finish();
        pmi.close();
    }
}
