package dev.mpj.runtime.engine;

import dev.mpj.api.Arrival;
import dev.mpj.api.BlockingReceiver;
import dev.mpj.api.Envelope;
import dev.mpj.api.MpiBackend;
import dev.mpj.api.Operation;
import dev.mpj.api.PendingCall;
import dev.mpj.api.SendMode;
import dev.mpj.runtime.config.Settings;
import dev.mpj.runtime.config.UnsafeExport;
import dev.mpj.runtime.config.WaitPolicy;
import dev.mpj.runtime.spi.DirectReceive;
import dev.mpj.runtime.spi.DirectSource;
import dev.mpj.runtime.spi.FrameHeader;
import dev.mpj.runtime.spi.FrameSink;
import mpi.MPIException;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.jctools.queues.MpscUnboundedXaddArrayQueue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;
import java.util.List;
import java.util.Queue;
import java.util.function.BooleanSupplier;

/**
 * The point-to-point progress engine of one process: MPI matching on (context, source, tag) with a
 * posted-receive queue ({@link PostedReceives}) and an unexpected-message queue ({@link UnexpectedMessages}),
 * both binned per context, source and tag so matching costs the same at any depth; eager and rendezvous
 * protocols, synchronous sends, and per-peer eager credit ({@link EagerCredit}): an eager message that would
 * take a peer beyond its budget of unconsumed eager bytes goes by rendezvous instead, so neither side holds
 * unbounded eager data. Driven by the threads that call MPI, under an {@link EngineLock} that follows the MPI
 * thread level (any thread at a time under {@code THREAD_MULTIPLE}, else one, a second refused); transports feed
 * it from their own threads through a lock-free inbox and unpark its waiters when they idle. A collective context
 * may be revoked ({@link #revoke}): its operations then fail at once, everywhere the {@code REVOKE} frame reaches.
 *
 * <p>Non-overtaking order holds because every transport delivers one peer's frames in order, the inbox
 * is FIFO, both queues match in arrival/post order (by sequence number across wildcard bins), and a rendezvous message is matched when its
 * request arrives, not when its data does.
 */
public final class ProgressEngine implements FrameSink, BlockingReceiver {
    /** A revocation's reason is cut to this, so it fits one shared-memory record. */
    private static final int MAX_REASON_BYTES = 2048;
    /** Tests of a condition set by others, after the first, before its wait loop: the loop's spins per clock read. */
    static final int POLLS_BEFORE_WAIT = PollingIdleStrategy.SPINS_PER_CLOCK_READ;
    private static final VarHandle WAITING_FOR;

    static {
        try {
            WAITING_FOR = MethodHandles.lookup().findVarHandle(ProgressEngine.class, "waitingFor", Object.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
    private final int rank;
    private final int eagerThreshold;
    private final int chunkSize;
    private final EagerCredit credit;
    /** A class, not a lambda: its linkage would be a bootstrap call in the first call that owes a return. */
    private final EagerCredit.Returns creditReturns = new CreditReturns();
    /**
     * Made by the first frame a transport pushes: a rank whose transports are all polled (one node, shared memory)
     * never needs it, and making it loads JCTools' queue classes and their reflective setup in {@code MPI.Init}.
     * Typed by its interface, so that linking this class does not load them either.
     */
    private volatile Queue<InboundFrame> inbox;
    private final PostedReceives posted = new PostedReceives();
    private final UnexpectedMessages unexpected = new UnexpectedMessages();
    private final UnexpectedPayloads payloads;
    private final Long2ObjectHashMap<SendOperation> sendsInFlight = new Long2ObjectHashMap<>();
    private final Long2ObjectHashMap<ReceiveOperation> receivesInFlight = new Long2ObjectHashMap<>();
    private final ByteBuffer header = FrameHeader.allocate();
    /** The payload of an {@code RTS_SHARED}: where the data lies in the sender's region. */
    private final ByteBuffer sharedPlace = ByteBuffer.allocate(Long.BYTES).order(ByteOrder.LITTLE_ENDIAN);
    /** Messages received by a copy straight out of a peer's shared region; read without the lock, by tests. */
    private volatile long sharedRegionReceives;
    /** What a blocking receive asks a polled transport for ({@link #receiveAndWait}); under the lock. */
    private final DirectReceive direct = new DirectReceive();
    private final WaitPolicy waitPolicy;
    private final IdleStrategy pushedIdle = pushedIdleStrategy();
    private IdleStrategy pollingIdle;
    /**
     * Frames a polled transport offered in place and the engine refused (they reach the inbox as copies) since
     * the inbox was last drained: while there are any, eager frames are refused too, so none overtakes them.
     */
    private int refusedInPlace;
    /**
     * Set when a frame taken in place matched the last posted receive: the polled transport is asked to leave the
     * frames after it in its memory until the next pass, where a receive posted meanwhile can take them in place
     * too, rather than have each copied into an unexpected message.
     */
    private boolean allPostedMatched;
    private FrameRouter router;
    /** Work advanced on every progress pass besides frames (non-blocking collectives); MPI thread only. */
    private final ArrayList<Task> tasks = new ArrayList<>();
    private final BooleanSupplier jobFailed = new JobFailed();
    private final BooleanSupplier frameWaiting = new FrameWaiting();
    private long nextId = 1;
    /** Receive operations their callers released ({@link #release}), made anew for the next receives. */
    private final SpareReceives spares = new SpareReceives();
    private EngineLock lock = EngineLock.beforeInit();
    /** The one waiter that idles, below {@code THREAD_MULTIPLE}. */
    private volatile Thread parked;
    /** The waiters that idle under {@code THREAD_MULTIPLE}; null below. */
    private volatile Set<Thread> parkedThreads;
    private volatile String failure;
    /** Null until a collective context is revoked, so operations pay one null check for the feature. */
    private RevokedContexts revoked;
    /**
     * What {@link #await} waits for, and since when ({@code System.nanoTime}): read by the wait report's thread.
     * Written with release stores, no fences: the report only needs the time written before the condition. Typed
     * {@code Object}: a store into a field of an interface type is checked against the type, which the JIT
     * speculates on from the conditions it has seen, and every new kind of condition undid the compiled wait loop.
     */
    private Object waitingFor;
    private long waitingSince;

    /** Where the engine sends frames to other ranks, and where it polls for frames nobody pushes. */
    public interface FrameRouter {
        void send(int peer, ByteBuffer header, ByteBuffer payload);

        /** {@link #send} of the {@code length} bytes of {@code payload} from {@code offset}, as transports take it. */
        default void send(int peer, ByteBuffer header, byte[] payload, int offset, int length) {
            send(peer, header, ByteBuffer.wrap(payload, offset, length).slice());
        }

        /** Hands polled transports' inbound frames to the engine (see {@code Transport.poll}); returns how many. */
        default int poll() {
            return 0;
        }

        /** The one polled transport's {@link DirectSource}, or null (none, or more than one). */
        default DirectSource directSource() {
            return null;
        }

        /** Whether some frames arrive only through {@link #poll}, so waits must not park for long. */
        default boolean needsPolling() {
            return false;
        }

        /**
         * Where {@code data} lies in a shared region of this rank's that {@code peer} can map (region id in the high
         * 32 bits, offset in the low), or -1: not wholly in one, or {@code peer} shares no memory with this rank.
         */
        default long sharedPlace(int peer, ByteBuffer data) {
            return -1;
        }

        /**
         * The bytes of region {@code id} of {@code owner}, a rank that named it in an {@code RTS_SHARED}.
         *
         * @throws java.io.IOException when it cannot be mapped
         */
        default ByteBuffer sharedRegion(int owner, int id) throws java.io.IOException {
            throw new java.io.IOException("rank " + owner + " shares no memory with this rank");
        }
    }

    /**
     * Work that advances on every progress pass, after the frames that arrived: a non-blocking collective's
     * schedule, which starts its next round once the current one has completed. It runs on the MPI thread and
     * never waits, so whatever call drives progress (a {@code Test}, a {@code Wait}, a blocking call) moves it on.
     */
    public interface Task {
        /** Advances as far as possible without waiting; true once finished, when the engine drops it. */
        boolean advance();
    }

    /** An engine whose polled waits follow {@code mpj.waitPolicy}. */
    public ProgressEngine(int rank, Settings settings) {
        this(rank, settings, settings.waitPolicy());
    }

    /** @param waitPolicy how waits on polled transports idle (see {@link PollingIdleStrategy#forPolicy}) */
    public ProgressEngine(int rank, Settings settings, WaitPolicy waitPolicy) {
        this.rank = rank;
        this.eagerThreshold = settings.eagerThreshold();
        this.chunkSize = settings.rendezvousChunk();
        this.credit = new EagerCredit(settings.eagerCredit());
        this.payloads = new UnexpectedPayloads(settings.eagerCredit());
        this.waitPolicy = waitPolicy;
        linkAccessors();
    }

    /**
     * Runs each of the engine's {@code VarHandle} accesses once, on an operation made for it and on the published
     * waiter, which is null until a wait publishes itself. A {@code VarHandle} call site links on its first run, and
     * {@code MPI.Init}, which builds the engine while its fence is pending, sends no message through it: without
     * this the four links fell in the rank's first message.
     */
    private void linkAccessors() {
        new ReceiveOperation(this, 0, null, 0, 0, 0).markPending(); // its constructor has run markComplete
        WAITING_FOR.setRelease(this, WAITING_FOR.getAcquire(this));
    }

    /**
     * Where frames go from now on. Waits idle as the router's transports need at the time of the wait: a router
     * may gain a polled transport (shared memory) after it is set.
     */
    public void setRouter(FrameRouter router) {
        this.router = router;
    }

    /**
     * Who may call the engine from now on, by the MPI thread level granted at {@code MPI.Init} (before it, one
     * thread at a time). Called by the thread that initialised MPI, before any other may call: under
     * {@code THREAD_SINGLE} and {@code THREAD_FUNNELED} it is the only one that may.
     */
    public void setThreadLevel(int level) {
        lock = EngineLock.forThreadLevel(level, Thread.currentThread());
        parkedThreads = lock.sharedWhileIdle() ? ConcurrentHashMap.newKeySet() : null;
    }

    private IdleStrategy idleStrategy() {
        if (router == null || !router.needsPolling()) {
            return lock.sharedWhileIdle() ? pushedIdleStrategy() : pushedIdle;
        }
        if (lock.sharedWhileIdle()) {
            return PollingIdleStrategy.forPolicy(waitPolicy);
        }
        IdleStrategy p = pollingIdle;
        if (p == null) {
            pollingIdle = p = PollingIdleStrategy.forPolicy(waitPolicy);
        }
        return p;
    }

    /**
     * The job's ranks on this node outnumber its cores: the process's {@link WaitPolicy#AUTO adaptive} waits judge
     * the cores crowded from now on rather than learn it anew after every quiet spell ({@link CoreContention}).
     */
    public void ranksOutnumberCores() {
        CoreContention.OF_THIS_PROCESS.crowdedForGood();
    }

    /** How this engine's polled waits idle; transports that wait for room follow it too. */
    public WaitPolicy waitPolicy() {
        return waitPolicy;
    }

    /**
     * For transports that wake the waiter (unpark): oversubscribed jobs (8 ranks on 2 cores) must not burn
     * cores, so a short spin, a few yields, then parks of up to 0.5 ms.
     */
    public static IdleStrategy pushedIdleStrategy() {
        return new BackoffIdleStrategy(16, 8, 1_000, 500_000);
    }

    // ---------------------------------------------------------------- transport side (any thread)

    @Override
    public void onFrame(int peer, ByteBuffer frame, Runnable release) {
        inbox().offer(new InboundFrame(peer, frame, release));
        wakeWaiters();
    }

    private Queue<InboundFrame> inbox() {
        Queue<InboundFrame> q = inbox;
        return q != null ? q : makeInbox();
    }

    /** A monitor rather than a compare-and-set: it runs once, and links no VarHandle call on a transport's thread. */
    private synchronized Queue<InboundFrame> makeInbox() {
        Queue<InboundFrame> q = inbox;
        if (q == null) {
            q = new MpscUnboundedXaddArrayQueue<>(1024);
            inbox = q;
        }
        return q;
    }

    /** Whether no pushed frame waits: read before idling, after publishing the waiter (see {@link #onFrame}). */
    private boolean inboxEmpty() {
        Queue<InboundFrame> q = inbox;
        return q == null || q.isEmpty();
    }

    private void wakeWaiters() {
        Thread t = parked;
        if (t != null) {
            LockSupport.unpark(t);
        }
        Set<Thread> all = parkedThreads;
        if (all != null) {
            for (Thread w : all) {
                LockSupport.unpark(w);
            }
        }
    }

    /**
     * Takes frames whose handling sends nothing straight from a polled transport's memory (called under the
     * engine's lock, within a progress pass or a send that waits for room), so no transport is re-entered:
     * rendezvous {@code DATA}, whose receive was matched when the request to send arrived, and so is free of
     * ordering with other frames; and
     * {@code EAGER}, copied straight into a posted receive (or once, into an unexpected message), unless a frame
     * refused before it still waits in the inbox, which it must not overtake; and {@code CREDIT}, a counter
     * update free of ordering (a return it triggers waits for the next progress pass). Everything else is refused and
     * comes back through {@link #onFrame}.
     */
    @Override
    public boolean onFrameInPlace(int peer, ByteBuffer frame) {
        long leading = FrameHeader.leadingWord(frame.order(ByteOrder.LITTLE_ENDIAN));
        byte kind = FrameHeader.kindOf(leading);
        // an eager frame, the storm's and the stream's, goes to its handler without handle's switch: one method
        // fewer on the path that C2 compiles, each with the rest inlined, while a woken receiver works through it
        if (kind == FrameHeader.EAGER && refusedInPlace == 0) {
            allPostedMatched = false;
            onEager(peer, kind, leading, frame);
            return true;
        }
        if (kind == FrameHeader.DATA || kind == FrameHeader.CREDIT) {
            allPostedMatched = false;
            handle(peer, frame);
            return true;
        }
        refusedInPlace++;
        return false;
    }

    /**
     * False right after a frame taken in place matched the last posted receive. The transport then stops reading
     * until the next progress pass, which costs nothing but a pass: every pass reads at least one frame, so no
     * frame waits for ever, and a wait for anything else polls again at once.
     */
    @Override
    public boolean keepReading() {
        return !allPostedMatched;
    }

    @Override
    public void onPeerLost(int peer, Throwable cause) {
        fail("rank " + peer + " disconnected without finalizing"
                + (cause != null && cause.getMessage() != null ? " (" + cause.getMessage() + ")" : ""));
    }

    /** Makes every current and later wait fail with this reason (job abort, lost peer). */
    public void fail(String reason) {
        if (failure == null) {
            failure = reason;
        }
        wakeWaiters();
    }

    // ---------------------------------------------------------------- MPI threads, under the lock

    public Operation send(ByteBuffer data, int dest, int tag, int context, SendMode mode) {
        lock.lock();
        try {
            return sendLocked(data, dest, tag, context, mode);
        } finally {
            lock.unlock();
        }
    }

    private Operation sendLocked(ByteBuffer data, int dest, int tag, int context, SendMode mode) {
        if (revoked != null && revoked.contains(context)) {
            SendOperation op = new SendOperation(nextId++, dest, tag, context, data);
            op.error = revoked.error(context);
            op.finish();
            return op;
        }
        int length = data.remaining();
        boolean sync = mode == SendMode.SYNCHRONOUS;
        if (mayGoEager(dest, length)) {
            // copied before router.send returns, so the operation keeps no view of the data
            SendOperation op = new SendOperation(nextId++, dest, tag, context, data);
            sendEager(data, dest, tag, context, sync, op.id);
            if (sync) {
                sendsInFlight.put(op.id, op);
                op.data = null;
            } else {
                op.finish();
            }
            return op;
        }
        SendOperation op = new SendOperation(nextId++, dest, tag, context, data.slice().order(ByteOrder.LITTLE_ENDIAN));
        if (dest == rank) {
            sendToSelf(op, sync);
        } else {
            sendsInFlight.put(op.id, op);
            long place = router.sharedPlace(dest, op.data);
            if (place < 0) {
                FrameHeader.write(header, FrameHeader.RTS, context, rank, tag, op.id, length);
                router.send(dest, header, op.data.slice(0, 0));
            } else {
                // the receiver copies straight out of this rank's region, then acknowledges
                FrameHeader.write(header, FrameHeader.RTS_SHARED, context, rank, tag, op.id, length);
                router.send(dest, header, sharedPlace.putLong(0, place).clear());
            }
        }
        return op;
    }

    /**
     * A standard send copied into the transport at once, with no operation made ({@link MpiBackend#sendNow}); false
     * when it must take {@link #send}'s path (to this rank, rendezvous, no credit, a revoked context).
     */
    public boolean sendNow(ByteBuffer data, int dest, int tag, int context) {
        lock.lock();
        try {
            if (!goesEagerNow(dest, data.remaining(), context)) {
                return false;
            }
            sendEager(data, dest, tag, context, false, nextId++);
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * {@link #sendNow(ByteBuffer, int, int, int)} of the {@code length} bytes of {@code array} from {@code offset},
     * copied from the array by the transport ({@link MpiBackend#sendNow(byte[], int, int, int, int, int)}).
     */
    public boolean sendNow(byte[] array, int offset, int length, int dest, int tag, int context) {
        lock.lock();
        try {
            if (!goesEagerNow(dest, length, context)) {
                return false;
            }
            router.send(dest, eagerHeader(context, tag, false, nextId++, length), array, offset, length);
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** {@link #mayGoEager} for a send that completes at once or not at all: none goes on a revoked context. */
    private boolean goesEagerNow(int dest, int length, int context) {
        return (revoked == null || !revoked.contains(context)) && mayGoEager(dest, length);
    }

    /** Whether a send goes eager now: to another rank, small enough, and charged to the peer's credit. */
    private boolean mayGoEager(int dest, int length) {
        return dest != rank && length <= eagerThreshold && credit.tryCharge(dest, length);
    }

    private void sendEager(ByteBuffer data, int dest, int tag, int context, boolean sync, long id) {
        router.send(dest, eagerHeader(context, tag, sync, id, data.remaining()), data);
    }

    /** The engine's header buffer, holding an eager frame's header from this rank. */
    private ByteBuffer eagerHeader(int context, int tag, boolean sync, long id, int length) {
        FrameHeader.write(header, sync ? FrameHeader.EAGER_SYNC : FrameHeader.EAGER, context, rank, tag, id, length);
        return header;
    }

    private void sendToSelf(SendOperation op, boolean sync) {
        int length = op.data.remaining();
        ReceiveOperation r = posted.take(op.context, rank, op.tag);
        if (r != null) {
            r.match(rank, op.tag, length);
            r.deliver(0, op.data, op.data.position(), length);
            r.markComplete();
            op.finish();
        } else if (!sync && length <= eagerThreshold) {
            unexpected.add(new UnexpectedMessage(FrameHeader.EAGER, op.context, rank, op.tag, length, 0,
                    payloads.copyOf(op.data, op.data.position(), length), null));
            op.finish();
        } else {
            // Held by reference like a rendezvous: completes when a receive matches it.
            unexpected.add(new UnexpectedMessage(FrameHeader.RTS, op.context, rank, op.tag, length, op.id,
                    null, op));
        }
    }

    public Operation receive(ByteBuffer room, int source, int tag, int context) {
        return receive(room, null, source, tag, context);
    }

    /** {@link MpiBackend#receive(ByteBuffer, Arrival, int, int, int)}: every byte that comes goes to {@code arrival}. */
    public Operation receive(ByteBuffer room, Arrival arrival, int source, int tag, int context) {
        lock.lock();
        try {
            return receiveLocked(room, arrival, source, tag, context);
        } finally {
            lock.unlock();
        }
    }

    private Operation receiveLocked(ByteBuffer room, Arrival arrival, int source, int tag, int context) {
        ReceiveOperation op = spares.take(this, nextId++, room, source, tag, context);
        op.arrival = arrival;
        return matchedOrPosted(op);
    }

    /**
     * {@link MpiBackend#receiveIntoArray}: a receive that copies into the array ({@link ReceiveOperation#landIn}),
     * so a window of non-blocking receives wraps no buffer per message and copies each with {@code Unsafe}'s word
     * reads and writes. Null without the {@code Unsafe} export, as {@link #receiveAndWait} declines arrays.
     */
    public Operation receiveIntoArray(Object array, int index, int itemBytes, int bytes, int source, int tag,
                                      int context) {
        if (!UnsafeExport.TO_AGRONA) {
            return null;
        }
        lock.lock();
        try {
            ReceiveOperation op = spares.take(this, nextId++, null, source, tag, context);
            op.landIn(array, index, itemBytes, bytes);
            return matchedOrPosted(op);
        } finally {
            lock.unlock();
        }
    }

    /** Matches the new {@code op} to a message that has come, else posts it; returns it. */
    private ReceiveOperation matchedOrPosted(ReceiveOperation op) {
        if (!matchedAtOnce(op)) {
            op.markPending(); // the caller's request, pending until its message has come
            posted.add(op);
        }
        return op;
    }

    /**
     * Takes back a completed operation whose caller has read it and holds it no more ({@link MpiBackend#release}):
     * a receive that ended without error into a room no larger than an eager message is kept for a later receive.
     * A failed or cancelled one is left alone (a table or a revocation may still refer to it), and so is a larger
     * room, which the spare would keep alive.
     */
    @Override
    public void release(Operation op) {
        if (!(op instanceof ReceiveOperation)) {
            return;
        }
        lock.lock();
        try {
            ReceiveOperation r = (ReceiveOperation) op;
            if (r.reusable(this, eagerThreshold)) {
                spares.give(r);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Receive operations kept for reuse (for tests). */
    int spareReceives() {
        lock.lock();
        try {
            return spares.size();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Ends {@code op} on a revoked context, or matches it to the earliest unexpected message it accepts; false when
     * it must be posted. A matched rendezvous message leaves it in flight, waiting for the data.
     */
    private boolean matchedAtOnce(ReceiveOperation op) {
        int context = op.context;
        if (revoked != null && revoked.contains(context)) {
            op.error = revoked.error(context);
            op.markComplete();
            return true;
        }
        UnexpectedMessage m = unexpected.take(context, op.wantSource, op.wantTag);
        if (m == null) {
            return false;
        }
        op.markPending(); // a rendezvous message leaves it in flight
        consumeUnexpected(op, m);
        returnCredit();
        return true;
    }

    /** {@link MpiBackend#receiveAndWait}: the blocking receive below, into a room. */
    @Override
    public Operation receiveAndWait(ByteBuffer room, int source, int tag, int context, PendingCall pending) {
        return receiveAndWait(room, null, 0, 0, 0, source, tag, context, pending);
    }

    /**
     * A blocking receive ({@link dev.mpj.api.BlockingReceiver}): takes an unexpected message; else the next frame of a
     * polled transport when that is an eager message it matches ({@link DirectSource}), copied from the transport's
     * memory into the room in this one method, with none of a progress pass's hand-offs (router, transport, reader,
     * sink, posted queue): every method a woken receiver runs per message is one more root its JIT compiles, each
     * with what it calls inlined. That only when nothing could take the frame before it ({@link #nothingAhead}).
     * Else it posts the receive where an arriving message finds it without a bin ({@link PostedReceives#park}) and
     * makes a progress pass, which handles the frame as any other, waiting until one matches ({@link
     * #postAndProgress}). Below
     * {@code THREAD_MULTIPLE} the entry holds across the wait, as a wait's own does, so no other thread enters
     * between the post and the wait; under it the lock is let go first, as {@link #await} must hold it once.
     * Into {@code array} instead of a room when that is not null ({@link ReceiveOperation#landIn}).
     */
    @Override
    public Operation receiveAndWait(ByteBuffer room, Object array, int index, int itemBytes, int bytes, int source,
                                    int tag, int context, PendingCall pending) {
        if (array != null && !UnsafeExport.TO_AGRONA) {
            return null; // the copy into arrays is Agrona's Unsafe: without its export the caller receives into a room
        }
        EngineLock l = lock;
        boolean shared = l.sharedWhileIdle();
        ReceiveOperation op;
        l.lock();
        try {
            op = spares.take(this, nextId++, room, source, tag, context);
            if (array != null) {
                op.landIn(array, index, itemBytes, bytes);
            }
            // a receive whose room the runtime allocates once it knows the length takes nothing directly
            DirectSource memory = router == null || room == null && array == null ? null : router.directSource();
            int from = -1;
            if (!matchedAtOnce(op)) {
                if (memory != null && nothingAhead()) {
                    direct.ask(context, source, tag, op.roomSize);
                    from = memory.takeDirect(direct);
                }
                if (from < 0) {
                    postAndProgress(op, pending, !shared);
                } else {
                    // the operation, new or spare, reads complete until put in flight (ReceiveOperation#reuse)
                    takeEager(op, direct.source(), direct.tag(), memory.memory(), from, direct.length());
                    returnCredit();
                }
            }
        } finally {
            l.unlock();
        }
        if (!op.complete) {
            await(pending.condition(op, source, tag));
        }
        return op;
    }

    /**
     * A blocking receive's way when nothing has arrived for it to take at once: posts it, then, when {@code wait}
     * (the lock held across the wait), waits for it through {@link #await}, whose loop makes the progress pass,
     * else makes one pass. In a stream of receives it runs only when the direct take declines, and every branch on
     * the way is one that run takes too, so a receiver that catches up with its sender and waits for the first
     * time meets no branch its compiled receive has never seen taken (a trap, which throws that code away).
     */
    private void postAndProgress(ReceiveOperation op, PendingCall pending, boolean wait) {
        op.markPending();
        posted.park(op);
        if (wait) {
            // the operation is its own condition: a call of PendingCall's here, on the first declined take, made
            // JDK 17's C2 inline this method's caller into Recv, which then compiled it again on its own as well
            op.waitingCall = pending;
            await(op);
        } else {
            drainInbox();
        }
    }

    /**
     * Whether a polled transport's next frame is the next this rank handles: no receive is posted that it could
     * match first, no frame waits in the inbox (pushed, or refused in place) that came before it, and no task
     * waits for a progress pass that taking it directly would skip.
     */
    private boolean nothingAhead() {
        return posted.size() == 0 && refusedInPlace == 0 && tasks.isEmpty() && inboxEmpty();
    }

    public Envelope probe(int source, int tag, int context) {
        lock.lock();
        try {
            drainInbox();
            UnexpectedMessage m = unexpected.peek(context, source, tag);
            return m == null ? null : new Envelope(m.source, m.tag, (int) Math.min(m.length, Integer.MAX_VALUE));
        } finally {
            lock.unlock();
        }
    }

    /** One progress pass (polled transports, then the inbox); returns the work done, 0 when there was none. */
    public int poll() {
        lock.lock();
        try {
            return drainInbox();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Drives progress until {@code done} holds, idling with back-off; fails fast when the job has failed. Under
     * {@code THREAD_MULTIPLE} each pass takes the lock and the idling lets go of it, so that whichever waiter
     * runs makes progress for all: {@code done} reads completion flags that need no lock.
     */
    public void await(BooleanSupplier done) {
        if (!done.getAsBoolean()) {
            awaitPending(done, 0);
        }
    }

    /**
     * Waits, as {@link #await} does, for a condition that another process or thread makes true by a store (a
     * collective room's counters) rather than this rank's progress pass, once the caller has found it false. The
     * caller makes that first test in its own code, where the JIT binds it to the caller's class: a test here, shared
     * by every caller, would speculate on the class of the job's first waits and trap at the first wait of another
     * (a pair's fold room after its collective room), discarding the compiled waits. It tests the condition up to
     * {@link #POLLS_BEFORE_WAIT} times, a spin-wait hint before each, with no pass, no clock read and no publishing
     * of the wait: a peer a core away stores within that spin, and a pass at every test would read the rings for
     * nothing. Then the wait loop; a receive's condition only a pass makes true, so {@link #await} makes one right
     * after its first test.
     */
    public void awaitSetByOthers(BooleanSupplier done) {
        awaitPending(done, POLLS_BEFORE_WAIT);
    }

    /**
     * The wait loop of {@link #await}, apart from its first test: the JIT compiles this loop on its own (it runs
     * long in few calls), and the first test, inlined into each caller, speculates there on the caller's own
     * condition class rather than here on whichever classes the job's first waits happened to pass. The spin of a
     * wait for others' stores is here too, out of the callers' compiles, which a collective inlines once per wait.
     */
    private void awaitPending(BooleanSupplier done, int polls) {
        for (int i = 0; i < polls; i++) {
            Thread.onSpinWait();
            if (holds(done)) {
                return;
            }
        }
        EngineLock l = lock;
        boolean shared = l.sharedWhileIdle();
        IdleStrategy idle = idleStrategy();
        idle.reset();
        boolean published = false;
        l.lock();
        try {
            while (true) {
                int work = drainInbox();
                if (holds(done)) {
                    return;
                }
                if (holds(jobFailed)) {
                    throw new MPIException(MPIException.ERR_PROC_FAILED, failure);
                }
                if (work != 0) {
                    idle.reset();
                    continue;
                }
                if (!published) {
                    // A wait that ends without idling is never reported, so it publishes nothing.
                    published = true;
                    waitingSince = System.nanoTime(); // published by the release store after it
                    WAITING_FOR.setRelease(this, (Object) done);
                }
                if (shared) {
                    l.unlock();
                    try {
                        idleShared(idle, done);
                    } finally {
                        l.lock();
                    }
                } else {
                    parked = Thread.currentThread();
                    if (!holds(frameWaiting) && !holds(jobFailed)) {
                        idle.idle(0);
                    }
                    parked = null;
                }
                // Tested before the next pass reads the rings: a wait that ended while this rank idled (a collective
                // room's, whose peer has arrived and sent on) returns without taking the peer's next messages ahead
                // of their receives, as unexpected ones copied out twice.
                if (holds(done)) {
                    return;
                }
            }
        } finally {
            if (published && WAITING_FOR.getAcquire(this) == done) {
                WAITING_FOR.setRelease(this, (Object) null);
            }
            l.unlock();
        }
    }

    /** Idles once outside the lock, where another waiter may complete {@code done} meanwhile. */
    private void idleShared(IdleStrategy idle, BooleanSupplier done) {
        Thread me = Thread.currentThread();
        Set<Thread> all = parkedThreads;
        all.add(me);
        try {
            if (!holds(frameWaiting) && !holds(jobFailed) && !holds(done)) {
                idle.idle(0);
            }
        } finally {
            all.remove(me);
        }
    }

    /**
     * Every test of the wait loop, the caller's condition and the engine's own two, goes through this one call
     * site. Its type profile so holds three classes from the loop's first profiled pass that idles, and C2
     * compiles a plain interface call here: a type guard on the classes the job's first waits passed would fail
     * at the first wait on another class (a collective's after point-to-point, say), and the loop would be
     * compiled again.
     */
    private static boolean holds(BooleanSupplier test) {
        return test.getAsBoolean();
    }

    /** The job has failed (see {@link #fail}): every wait ends with that error. */
    private final class JobFailed implements BooleanSupplier {
        @Override
        public boolean getAsBoolean() {
            return failure != null;
        }
    }

    /** A frame is in the inbox, pushed since the last pass: the wait makes another pass rather than idle. */
    private final class FrameWaiting implements BooleanSupplier {
        @Override
        public boolean getAsBoolean() {
            return !inboxEmpty();
        }
    }

    /** Advances {@code task} on every progress pass from now on until it reports it has finished. */
    public void addTask(Task task) {
        lock.lock();
        try {
            tasks.add(task);
        } finally {
            lock.unlock();
        }
    }

    /** Tasks not finished yet (for tests). */
    public int taskCount() {
        lock.lock();
        try {
            return tasks.size();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Revokes collective context {@code context} after an error this rank raised inside a collective: tells every
     * other rank of {@code members} (world ranks) with a {@code REVOKE} frame, then fails this rank's operations
     * on it as a received revocation does. A peer that cannot be reached is skipped: its loss is reported on its
     * own. Does nothing when the context is revoked already.
     */
    public void revoke(int context, int[] members, String reason) {
        lock.lock();
        try {
            revokeLocked(context, members, reason);
        } finally {
            lock.unlock();
        }
    }

    private void revokeLocked(int context, int[] members, String reason) {
        if (!markRevoked(context, rank, reason)) {
            return;
        }
        byte[] text = reason.getBytes(StandardCharsets.UTF_8);
        ByteBuffer payload = ByteBuffer.wrap(text, 0, Math.min(text.length, MAX_REASON_BYTES));
        for (int m : members) {
            if (m == rank) {
                continue;
            }
            FrameHeader.write(header, FrameHeader.REVOKE, context, rank, 0, 0, payload.remaining());
            try {
                router.send(m, header, payload.duplicate());
            } catch (RuntimeException unreachable) {
                // A lost peer waits for nothing; the others still hear of the revocation.
            }
        }
    }

    /** The error an operation on {@code context} fails with now that it is revoked, or null while it is not. */
    public MPIException revocationError(int context) {
        lock.lock();
        try {
            return revoked != null && revoked.contains(context) ? revoked.error(context) : null;
        } finally {
            lock.unlock();
        }
    }

    /** Whether {@code context} has been revoked, here or by a peer. */
    public boolean isRevoked(int context) {
        lock.lock();
        try {
            return revoked != null && revoked.contains(context);
        } finally {
            lock.unlock();
        }
    }

    /**
     * What this rank waits in now, one line per pending operation (see {@link WaitReport}). Safe from any thread:
     * it reads the wait published by {@link #await} and the queue's length, never the queues themselves.
     */
    public List<String> waitReport() {
        Object published = WAITING_FOR.getAcquire(this);
        BooleanSupplier condition = (BooleanSupplier) published;
        long waited = System.nanoTime() - waitingSince;
        return WaitReport.lines(rank, condition, waited, unexpected.size());
    }

    /** The context is free for reuse: a revocation of it no longer applies. */
    public void forgetRevocation(int context) {
        lock.lock();
        try {
            if (revoked != null) {
                revoked.forget(context);
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Records the revocation and completes, with its error, every operation of the context that waits for a
     * peer: posted receives leave their queue; rendezvous receives awaiting data and sends awaiting their match or
     * acknowledgement stay in flight, so data or a clear-to-send a peer sent before it heard of the revocation
     * still finds them (else it would fail the whole engine as a protocol error). Unmatched messages stay queued: no
     * receive on the context can take them any more.
     */
    private boolean markRevoked(int context, int origin, String reason) {
        if (revoked == null) {
            revoked = new RevokedContexts();
        }
        if (!revoked.add(context, origin, rank, reason)) {
            return false;
        }
        for (ReceiveOperation r : posted.takeAll(context)) {
            failRevoked(r, context);
        }
        for (ReceiveOperation r : receivesInFlight.values()) {
            if (r.context == context) {
                failRevoked(r, context);
            }
        }
        for (SendOperation op : sendsInFlight.values()) {
            if (op.context == context) {
                failRevoked(op, context);
            }
        }
        return true;
    }

    private void failRevoked(BaseOperation op, int context) {
        op.error = revoked.error(context);
        op.markComplete();
    }

    void cancelPosted(ReceiveOperation op) {
        lock.lock();
        try {
            if (posted.remove(op)) {
                op.cancelled = true;
                op.markComplete();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Why every wait fails from now on (lost peer, abort, protocol error), or null (diagnostics and tests). */
    public String failure() {
        return failure;
    }

    /** Messages this rank copied straight out of a peer's shared region (for diagnostics and tests). */
    public long sharedRegionReceives() {
        return sharedRegionReceives;
    }

    /** Messages that arrived with no receive posted yet (for diagnostics and tests). */
    public int unexpectedCount() {
        lock.lock();
        try {
            return unexpected.size();
        } finally {
            lock.unlock();
        }
    }

    // ---------------------------------------------------------------- frame handling

    private int drainInbox() {
        int n = router != null ? router.poll() : 0;
        Queue<InboundFrame> q = inbox;
        if (q != null) {
            InboundFrame f;
            while ((f = q.poll()) != null) {
                try {
                    handle(f.peer(), f.frame().order(ByteOrder.LITTLE_ENDIAN));
                } finally {
                    f.release().run();
                }
                n++;
            }
        }
        // Refused frames reach the inbox on this thread before the refusal returns: all are handled now.
        refusedInPlace = 0;
        returnCredit();
        return tasks.isEmpty() ? n : n + advanceTasks();
    }

    /** Advances every task once, dropping the finished ones; returns how many finished. */
    private int advanceTasks() {
        int finished = 0;
        for (int i = 0; i < tasks.size(); ) {
            if (tasks.get(i).advance()) {
                tasks.remove(i);
                finished++;
            } else {
                i++;
            }
        }
        return finished;
    }

    private void handle(int peer, ByteBuffer frame) {
        long leading = FrameHeader.leadingWord(frame);
        byte kind = FrameHeader.kindOf(leading);
        if (kind == FrameHeader.EAGER || kind == FrameHeader.EAGER_SYNC) {
            onEager(peer, kind, leading, frame);
            return;
        }
        int context = FrameHeader.contextOf(leading);
        int tag = FrameHeader.tagOf(FrameHeader.envelopeWord(frame));
        long cookie = FrameHeader.cookie(frame);
        long arg = FrameHeader.arg(frame);
        // the payload is read by absolute index, so no view of it is made per frame
        int from = frame.position() + FrameHeader.LENGTH;
        int length = frame.limit() - from;
        switch (kind) {
            case FrameHeader.RTS -> onRequestToSend(peer, context, tag, cookie, arg);
            case FrameHeader.RTS_SHARED -> onSharedRequestToSend(peer, context, tag, cookie, arg, frame, from, length);
            case FrameHeader.CTS -> onClearToSend(peer, cookie, arg);
            case FrameHeader.DATA -> onData(cookie, arg, frame, from, length);
            case FrameHeader.ACK -> onAck(cookie);
            case FrameHeader.CREDIT -> credit.returned(peer, arg);
            case FrameHeader.REVOKE -> markRevoked(context, peer,
                    StandardCharsets.UTF_8.decode(frame.slice(from, length)).toString());
            default -> fail("rank " + peer + " sent a frame of unknown kind " + kind);
        }
    }

    /** An eager frame (little-endian, from position to limit) whose header's first word is {@code leading}. */
    private void onEager(int peer, byte kind, long leading, ByteBuffer frame) {
        int context = FrameHeader.contextOf(leading);
        int tag = FrameHeader.tagOf(FrameHeader.envelopeWord(frame));
        // the payload is read by absolute index, so no view of it is made per frame
        int from = frame.position() + FrameHeader.LENGTH;
        int length = frame.limit() - from;
        ReceiveOperation r = posted.take(context, peer, tag);
        if (r == null) {
            unexpected.add(new UnexpectedMessage(kind, context, peer, tag, length, FrameHeader.cookie(frame),
                    payloads.copyOf(frame, from, length), null));
            return;
        }
        allPostedMatched = posted.size() == 0;
        completeEager(r, peer, tag, frame, from, length);
        if (kind == FrameHeader.EAGER_SYNC) {
            sendControl(peer, FrameHeader.ACK, FrameHeader.cookie(frame), 0);
        }
    }

    /** Completes the posted {@code r} with an eager payload, as {@link #takeEager} fills it. */
    private void completeEager(ReceiveOperation r, int peer, int tag, ByteBuffer frame, int from, int length) {
        takeEager(r, peer, tag, frame, from, length);
        r.markComplete();
    }

    /**
     * Fills {@code r} with the eager payload of {@code length} bytes at {@code from} in {@code frame}, charged to
     * {@code peer}'s credit: a frame handled by a pass and one a blocking receive took itself alike.
     */
    private void takeEager(ReceiveOperation r, int peer, int tag, ByteBuffer frame, int from, int length) {
        credit.consumed(peer, length);
        r.match(peer, tag, length);
        r.deliver(0, frame, from, length);
    }

    private void onRequestToSend(int peer, int context, int tag, long cookie, long length) {
        ReceiveOperation r = posted.take(context, peer, tag);
        if (r == null) {
            unexpected.add(new UnexpectedMessage(FrameHeader.RTS, context, peer, tag, length, cookie, null, null));
        } else {
            startRendezvousReceive(r, peer, tag, cookie, length);
        }
    }

    /**
     * A request to send data that lies in the sender's shared region: copied from there once matched, where the
     * payload (its place) waits with the envelope while unmatched.
     */
    private void onSharedRequestToSend(int peer, int context, int tag, long cookie, long length, ByteBuffer frame,
                                       int from, int payloadLength) {
        if (payloadLength != Long.BYTES) {
            fail("rank " + peer + " sent a shared request to send with " + payloadLength + " bytes of place");
            return;
        }
        long place = frame.getLong(from);
        ReceiveOperation r = posted.take(context, peer, tag);
        if (r == null) {
            ByteBuffer kept = ByteBuffer.allocate(Long.BYTES).order(ByteOrder.LITTLE_ENDIAN).putLong(0, place);
            unexpected.add(new UnexpectedMessage(FrameHeader.RTS_SHARED, context, peer, tag, length, cookie, kept,
                    null));
        } else {
            copyFromSharedRegion(r, peer, tag, cookie, length, place);
        }
    }

    /**
     * Completes {@code r} with the message at {@code place} in {@code peer}'s shared region, copied from there in
     * one pass, and tells the sender, whose send completes on that. A region that cannot be mapped or does not
     * hold the message fails the job, as a peer lost: the sender may be gone.
     */
    private void copyFromSharedRegion(ReceiveOperation r, int peer, int tag, long cookie, long length, long place) {
        r.match(peer, tag, length);
        if (length > 0) {
            ByteBuffer region;
            try {
                region = router.sharedRegion(peer, (int) (place >>> 32));
            } catch (java.io.IOException | RuntimeException e) {
                onPeerLost(peer, e);
                return;
            }
            long offset = place & 0xffffffffL;
            if (offset + length > region.capacity()) {
                fail("rank " + peer + " named " + length + " bytes at " + offset + " of a shared region of "
                        + region.capacity());
                return;
            }
            r.deliver(0, region, (int) offset, (int) length);
            sharedRegionReceives++;
        }
        r.markComplete();
        sendControl(peer, FrameHeader.ACK, cookie, 0);
    }

    private void startRendezvousReceive(ReceiveOperation r, int peer, int tag, long cookie, long length) {
        r.match(peer, tag, length);
        if (length == 0) {
            r.markComplete();
        } else {
            receivesInFlight.put(r.id, r);
        }
        sendControl(peer, FrameHeader.CTS, cookie, r.id);
    }

    private void onClearToSend(int peer, long sendId, long receiveId) {
        SendOperation s = sendsInFlight.remove(sendId);
        if (s == null) {
            fail("rank " + peer + " cleared an unknown send " + sendId);
            return;
        }
        ByteBuffer d = s.data;
        int length = d.remaining();
        for (int off = 0; off < length; off += chunkSize) {
            int n = Math.min(chunkSize, length - off);
            FrameHeader.write(header, FrameHeader.DATA, s.context, rank, s.tag, receiveId, off);
            router.send(peer, header, d.slice(d.position() + off, n));
        }
        s.finish();
    }

    private void onData(long receiveId, long offset, ByteBuffer frame, int from, int length) {
        ReceiveOperation r = receivesInFlight.get(receiveId);
        if (r == null) {
            fail("data for an unknown receive " + receiveId);
            return;
        }
        r.deliver(offset, frame, from, length);
        if (r.allReceived()) {
            receivesInFlight.remove(receiveId);
            r.markComplete();
        }
    }

    private void onAck(long sendId) {
        SendOperation s = sendsInFlight.remove(sendId);
        if (s != null) {
            s.finish();
        }
    }

    private void consumeUnexpected(ReceiveOperation r, UnexpectedMessage m) {
        if (m.selfSend != null) {
            ByteBuffer d = m.selfSend.data;
            r.match(rank, m.tag, m.length);
            r.deliver(0, d, d.position(), d.remaining());
            r.markComplete();
            m.selfSend.finish();
        } else if (m.kind == FrameHeader.RTS) {
            startRendezvousReceive(r, m.source, m.tag, m.cookie, m.length);
        } else if (m.kind == FrameHeader.RTS_SHARED) {
            copyFromSharedRegion(r, m.source, m.tag, m.cookie, m.length, m.data.getLong(0));
        } else {
            if (m.source != rank) {
                credit.consumed(m.source, m.length);
            }
            r.match(m.source, m.tag, m.length);
            r.deliver(0, m.data, 0, m.data.limit());
            payloads.giveBack(m.data);
            r.markComplete();
            if (m.kind == FrameHeader.EAGER_SYNC) {
                sendControl(m.source, FrameHeader.ACK, m.cookie, 0);
            }
        }
    }

    /**
     * Sends the credit returns that consumed eager data made due. Only from the MPI thread's own calls, never
     * while a frame is handled in place (that must not send).
     */
    private void returnCredit() {
        if (credit.anyDue()) {
            credit.drainDue(creditReturns);
        }
    }

    /** Bytes of free buffers kept for unexpected eager payloads (for tests). */
    long pooledPayloadBytes() {
        lock.lock();
        try {
            return payloads.retainedBytes();
        } finally {
            lock.unlock();
        }
    }

    /** Charged eager bytes sent to {@code peer} and not yet returned (for diagnostics and tests). */
    public long eagerBytesOutstanding(int peer) {
        lock.lock();
        try {
            return credit.outstanding(peer);
        } finally {
            lock.unlock();
        }
    }

    private void sendControl(int peer, byte kind, long cookie, long arg) {
        FrameHeader.write(header, kind, 0, rank, 0, cookie, arg);
        router.send(peer, header, header.slice(0, 0));
    }

    /** Sends each owed credit return as a control frame. */
    private final class CreditReturns implements EagerCredit.Returns {
        @Override
        public void send(int peer, long bytes) {
            sendControl(peer, FrameHeader.CREDIT, 0, bytes);
        }
    }
}
