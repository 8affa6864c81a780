package dev.mpj.runtime.init;

import dev.mpj.runtime.config.TransportMode;
import dev.mpj.runtime.engine.ProgressEngine;
import dev.mpj.runtime.node.NodeMap;
import dev.mpj.runtime.node.SharedRegions;
import dev.mpj.runtime.spi.DirectSource;
import dev.mpj.runtime.spi.Transport;
import mpi.MPIException;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Sends each peer's frames through the transport chosen for it (shared memory to ranks of the same node, TCP to
 * the others, as {@link TransportMode} says), and polls the transports that need it on every engine pass.
 *
 * <p>Typical use in {@code MPI.Init}: decide with {@link #wantsShm} and {@link #wantsTcp} which transports to
 * start, {@link #route} every peer to one of them (shared memory where {@link #viaShm} says so and shm started),
 * then hand the router to {@link ProgressEngine#setRouter}. {@link #close} closes each transport once.
 */
public final class TransportRouter implements ProgressEngine.FrameRouter, AutoCloseable {
    private final int rank;
    private final Transport[] byPeer;
    private final List<Transport> transports = new ArrayList<>(2);
    private Transport[] polled = new Transport[0];
    private DirectSource direct;
    private SharedRegions regions;

    /** A router for {@code rank} in a job of {@code size} ranks, with no peer routed yet. */
    public TransportRouter(int rank, int size) {
        this.rank = rank;
        this.byPeer = new Transport[size];
    }

    /** Whether this rank should start the shared-memory transport: some peer shares its node and mode allows. */
    public static boolean wantsShm(TransportMode mode, NodeMap map, int rank) {
        return mode != TransportMode.TCP && map.localSize(map.nodeOf(rank)) > 1;
    }

    /** Whether this rank should start TCP: some peer is on another node, or mode forces TCP. */
    public static boolean wantsTcp(TransportMode mode, NodeMap map, int rank) {
        return map.size() > 1 && (mode == TransportMode.TCP || map.localSize(map.nodeOf(rank)) < map.size());
    }

    /** Whether frames from {@code rank} to {@code peer} go through shared memory (when shm started). */
    public static boolean viaShm(TransportMode mode, NodeMap map, int rank, int peer) {
        return mode != TransportMode.TCP && peer != rank && map.nodeOf(peer) == map.nodeOf(rank);
    }

    /** Sends {@code peer}'s frames through {@code transport} from now on. */
    public void route(int peer, Transport transport) {
        if (peer == rank) {
            throw new IllegalArgumentException("frames to self never reach a transport");
        }
        byPeer[peer] = transport;
        if (!transports.contains(transport)) {
            transports.add(transport);
            if (transport.needsPolling()) {
                Transport[] p = Arrays.copyOf(polled, polled.length + 1);
                p[polled.length] = transport;
                polled = p;
                // a receive may skip the pass only when one transport holds every frame a pass would read first
                direct = p.length == 1 ? transport.directSource() : null;
            }
        }
    }

    /** This rank's shared regions and its views of its node peers' ({@code MPI.Alloc_mem}). */
    public void shareRegions(SharedRegions regions) {
        this.regions = regions;
    }

    @Override
    public long sharedPlace(int peer, ByteBuffer data) {
        return sharesMemoryWith(peer) ? regions.locate(data) : -1;
    }

    @Override
    public ByteBuffer sharedRegion(int owner, int id) throws IOException {
        if (!sharesMemoryWith(owner)) {
            throw new IOException("rank " + owner + " shares no memory with rank " + rank);
        }
        return regions.view(owner, id);
    }

    /** Whether this rank has shared regions and reaches {@code peer} through a transport that shares memory. */
    private boolean sharesMemoryWith(int peer) {
        Transport t = transportOf(peer);
        return regions != null && t != null && t.sharesMemory();
    }

    /** The transport that carries frames to {@code peer}, or null when none is routed (or no such rank). */
    public Transport transportOf(int peer) {
        return peer >= 0 && peer < byPeer.length ? byPeer[peer] : null;
    }

    @Override
    public void send(int peer, ByteBuffer header, ByteBuffer payload) {
        reaching(peer).send(peer, header, payload);
    }

    @Override
    public void send(int peer, ByteBuffer header, byte[] payload, int offset, int length) {
        reaching(peer).send(peer, header, payload, offset, length);
    }

    /** {@link #transportOf}, where no transport reaching {@code peer} is the caller's error. */
    private Transport reaching(int peer) {
        Transport t = transportOf(peer);
        if (t == null) {
            throw new MPIException(MPIException.ERR_RANK, "no transport reaches rank " + peer + " from rank " + rank);
        }
        return t;
    }

    @Override
    public int poll() {
        int work = 0;
        for (Transport t : polled) {
            work += t.poll();
        }
        return work;
    }

    @Override
    public DirectSource directSource() {
        return direct;
    }

    @Override
    public boolean needsPolling() {
        return polled.length > 0;
    }

    /** Closes every routed transport once. */
    @Override
    public void close() {
        RuntimeException failure = null;
        for (Transport t : transports) {
            try {
                t.close();
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
