package dev.mpj.transport.tcp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.socket.DuplexChannel;

import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One TCP connection between this rank and a peer, in either direction: its channel, whether the handshake
 * has completed, and the frames waiting to be written.
 * <p>
 * Frames are enqueued by the MPI thread and written by the channel's event loop: a drain task writes every
 * queued frame and flushes once, so frames sent in a burst share a system call. Nothing is written before
 * the handshake completes; the frames queued until then go out first, in order. Closing writes a BYE after
 * the last queued frame and then shuts the output down, so the peer reads everything, then BYE, then EOF.
 * <p>
 * When both ranks of a pair connect at once, one attempt loses the tie-break ({@link #supersede}) before any
 * frame was written on it; its frames {@linkplain #handOver move} to the winning connection ahead of any later
 * frame, and frames enqueued on it afterwards are forwarded there, so nothing is lost, doubled or reordered.
 */
final class Connection {
    private final int rank;
    private final Queue<ByteBuf> outbound = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean drainScheduled = new AtomicBoolean();
    private final CompletableFuture<Void> finished = new CompletableFuture<>();
    /** A class rather than {@code this::drain}: linking a method reference costs a cold JVM's first connection. */
    private final Runnable drainTask = new Drain();

    private volatile Channel channel;
    private volatile int peer;
    private volatile boolean ready;
    private volatile boolean closeRequested;
    private volatile boolean byeReceived;
    private volatile Throwable failure;
    /** Lost a simultaneous connect: its channel closes, but its frames wait for {@link #successor}. */
    private volatile boolean superseded;
    /** Guarded by this: where frames go once this attempt lost to another connection. */
    private Connection successor;
    /** Written by the event loop only. */
    private boolean byeSent;

    /**
     * @param rank this rank, written into BYE
     * @param peer the peer's rank, or -1 for an inbound connection not yet authenticated
     */
    Connection(int rank, int peer) {
        this.rank = rank;
        this.peer = peer;
        this.initiatedHere = peer >= 0;
    }

    boolean isOutbound() {
        return initiatedHere;
    }

    /** Whether this rank opened the connection (only those know their peer from the start). */
    private final boolean initiatedHere;

    /** The peer's rank, or -1 while an inbound connection is not authenticated. */
    int peer() {
        return peer;
    }

    Channel channel() {
        return channel;
    }

    /** Called on the event loop when the channel exists, before it becomes active. */
    void attach(Channel channel) {
        this.channel = channel;
    }

    /** Queues a frame (which this connection now owns) and has it written once the handshake is done. */
    void enqueue(ByteBuf frame) {
        Connection next;
        synchronized (this) { // uncontended but for a hand-over in progress
            next = successor;
            if (next == null) {
                outbound.offer(frame);
            }
        }
        if (next != null) {
            next.enqueue(frame);
        } else if (finished.isDone()) {
            releaseQueued();
        } else if (ready) {
            if (channel.eventLoop().inEventLoop()) {
                drain(); // the caller drives the loop: write now, no hand-off
            } else {
                scheduleDrain();
            }
        }
    }

    /** On the event loop: the handshake with {@code peerRank} succeeded, frames may flow. */
    void handshakeDone(int peerRank) {
        peer = peerRank;
        ready = true;
        drain();
    }

    /** This attempt lost the tie-break of a simultaneous connect: no frame will ever be written on it. */
    void supersede() {
        superseded = true;
    }

    boolean isSuperseded() {
        return superseded;
    }

    /**
     * Moves the queued frames, in order, to {@code winner} and forwards every later frame there. Call before
     * {@code winner} may write, so that these frames go out before any frame enqueued on it directly.
     */
    void handOver(Connection winner) {
        synchronized (this) {
            for (ByteBuf frame; (frame = outbound.poll()) != null; ) {
                winner.enqueue(frame);
            }
            successor = winner;
            superseded = true;
        }
    }

    /** Whether this superseded attempt still holds frames for a winner that has not arrived. */
    synchronized boolean awaitsSuccessor() {
        return initiatedHere && superseded && successor == null && !finished.isDone();
    }

    /** Writes BYE after every frame queued so far, then shuts the output down. Any thread. */
    void requestClose() {
        closeRequested = true;
        Channel ch = channel;
        if (superseded) {
            finish(); // nothing was written on it; its frames, if any, have nowhere to go now
        } else if (ready) {
            scheduleDrain();
        } else if (ch != null && peer < 0) {
            ch.close(); // an unauthenticated inbound connection has nothing to flush
        }
    }

    void byeReceived() {
        byeReceived = true;
    }

    boolean hasReceivedBye() {
        return byeReceived;
    }

    /** Remembers why the connection is about to close, for the report of the lost peer. */
    void recordFailure(Throwable cause) {
        if (failure == null) {
            failure = cause;
        }
    }

    Throwable failure() {
        return failure;
    }

    /** The channel closed, or it could never be opened; queued frames are dropped. Returns whether first. */
    boolean finish() {
        boolean first = finished.complete(null);
        releaseQueued();
        return first;
    }

    boolean isFinished() {
        return finished.isDone();
    }

    CompletableFuture<Void> finished() {
        return finished;
    }

    private void scheduleDrain() {
        if (drainScheduled.compareAndSet(false, true)) {
            try {
                channel.eventLoop().execute(drainTask);
            } catch (RejectedExecutionException e) {
                // the event loops are shutting down and the channel with them
                drainScheduled.set(false);
                finish();
            }
        }
    }

    private void drain() {
        drainScheduled.set(false);
        Channel ch = channel;
        if (finished.isDone() || !ch.isActive()) {
            releaseQueued();
            return;
        }
        boolean wrote = false;
        for (ByteBuf frame; (frame = outbound.poll()) != null; ) {
            ch.write(frame, ch.voidPromise());
            wrote = true;
        }
        if (closeRequested && !byeSent) {
            byeSent = true;
            ch.writeAndFlush(WireFormat.bye(ch.alloc(), rank)).addListener((ChannelFutureListener) f -> {
                if (f.isSuccess() && f.channel() instanceof DuplexChannel duplex) {
                    duplex.shutdownOutput(); // the peer closes on EOF, and we close on its EOF
                } else {
                    f.channel().close();
                }
            });
        } else if (wrote) {
            ch.flush();
        }
    }

    private void releaseQueued() {
        for (ByteBuf frame; (frame = outbound.poll()) != null; ) {
            frame.release();
        }
    }

    @Override
    public String toString() {
        Channel ch = channel;
        String where = ch == null ? "" : " (" + ch.remoteAddress() + ")";
        return peer < 0 ? "unauthenticated peer" + where : "rank " + peer + where;
    }

    private final class Drain implements Runnable {
        @Override
        public void run() {
            drain();
        }
    }
}
