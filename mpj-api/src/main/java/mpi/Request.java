package mpi;

import dev.mpj.api.MpiBackend;
import dev.mpj.api.Operation;
import dev.mpj.api.WaitCondition;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;

/**
 * A nonblocking communication. Once a (non-persistent) request has completed through {@code Wait},
 * {@code Test} or one of the array forms it becomes a null request ({@link #Is_null()}); waiting on
 * or testing a null request returns an empty status (any source, any tag, count 0) at once. An error
 * of the communication (for example {@code ERR_TRUNCATE}) is raised as {@link MPIException} by the
 * call that completes it. Waiting lets the runtime drive progress; nothing here spins.
 */
public class Request {
    /** Starts the communication of a request: hands an operation to the runtime, or completes at once. */
    @FunctionalInterface
    interface Starter {
        void start(Request request);

        /** The call that started it with its envelope, as {@code Irecv(source=0, tag=99, COMM_WORLD)}; null if unknown. */
        default String describe(Comm comm) {
            return null;
        }
    }

    private final Comm comm;
    private final Starter starter;
    private Operation operation;
    private ReceiveBuffer target;
    /** A send's packed data, lent by {@link TransferBuffers} until the send completes; else null. */
    private ByteBuffer lent;
    /** The result of a request that completed when it started (PROC_NULL, buffered sends). */
    private Status immediate;
    private boolean active;

    /** A null request ({@link MPI#REQUEST_NULL}). */
    Request() {
        this(null, null);
    }

    Request(Comm comm, Starter starter) {
        this.comm = comm;
        this.starter = starter;
    }

    /**
     * A request that is its own starter: a non-blocking send or receive keeps its envelope in itself rather than in
     * a second object made per call.
     */
    Request(Comm comm) {
        this.comm = comm;
        this.starter = (Starter) this;
    }

    /**
     * An active request for a non-blocking collective the runtime has started as {@code op}; {@code result}, if any,
     * receives the collective's result when the request completes.
     */
    static Request collective(Comm comm, Operation op, Landing result) {
        ReceiveBuffer into = result == null ? null : result.onCompletion();
        Request request = new Request(comm, new Starter() {
            @Override
            public void start(Request r) {
                r.started(op, into);
            }
        });
        request.start();
        return request;
    }

    /** Starts the communication; the request stays inactive if starting fails. */
    final void start() {
        starter.start(this);
        active = true;
    }

    /** Called by a starter: the runtime is carrying out {@code op}; {@code into} unpacks a receive (else null). */
    final void started(Operation op, ReceiveBuffer into) {
        operation = op;
        target = into;
    }

    /** Called by a starter: the send reads {@code buffer}, lent by {@link TransferBuffers}, until it completes. */
    final void lent(ByteBuffer buffer) {
        lent = buffer;
    }

    /** Called by a starter: the communication is already complete with {@code status}. */
    final void completedWith(Status status) {
        immediate = status;
    }

    /** Called by a starter: the runtime copied out a send of {@code bytes} to world rank {@code dest} and completed it. */
    final void sentAtOnce(int dest, int tag, int bytes) {
        immediate = new Status(comm.toCommRank(dest), tag, bytes);
    }

    final boolean isActive() {
        return active;
    }

    /** An active request whose communication has finished (no progress is made). */
    private boolean isDone() {
        return active && (operation == null || operation.isComplete());
    }

    /** Blocks until the communication completes; returns its status. */
    public Status Wait() {
        return await("Wait");
    }

    /**
     * {@link #Wait} on behalf of {@code call}, which names the wait in the wait report; null when the call that
     * started the request is the one that blocks (Recv, Send, ...).
     */
    final Status await(String call) {
        if (!active) {
            return Status.empty();
        }
        Operation op = operation;
        if (op != null && !op.isComplete()) {
            Environment.backend().await(new OneDone(call, this));
        }
        return finish();
    }

    /** The status if the communication has completed, else null; makes one pass of progress first. */
    public Status Test() {
        if (!active) {
            return Status.empty();
        }
        if (!isDone()) {
            Environment.backend().poll();
            if (!isDone()) {
                return null;
            }
        }
        return finish();
    }

    /** True for {@link MPI#REQUEST_NULL} and for a completed non-persistent request. */
    public boolean Is_null() {
        return !active;
    }

    /**
     * Asks to cancel the communication: a receive not yet matched is cancelled (its status then
     * answers {@link Status#Test_cancelled()} true); a send is left to complete. Complete the request
     * with {@code Wait} or {@code Test} as usual.
     */
    public void Cancel() {
        if (operation != null) {
            operation.cancel();
        }
    }

    /** Completes a done request: makes it null (or inactive), unpacks a receive, raises its error. */
    private Status finish() {
        Operation op = operation;
        ReceiveBuffer into = target;
        Status early = immediate;
        ByteBuffer packed = lent;
        operation = null;
        target = null;
        immediate = null;
        lent = null;
        active = false;
        if (op == null) {
            return early;
        }
        if (packed != null && op.error() == null) {
            TransferBuffers.giveBack(packed);
        }
        Status status = completedStatus(comm, op, into);
        // nothing holds the operation any more: this request is null (or inactive until its next start)
        MpiBackend backend = Environment.backendIfRunning();
        if (backend != null) {
            backend.release(op);
        }
        return status;
    }

    /** The status of the completed {@code op} on {@code comm}; unpacks a receive through {@code into}, raises its error. */
    static Status completedStatus(Comm comm, Operation op, ReceiveBuffer into) {
        Status status = new Status(comm.toCommRank(op.source()), op.tag(), op.byteCount());
        if (op.isCancelled()) {
            status.cancelled = true;
            return status;
        }
        if (op.error() != null) {
            throw asMpiException(op.error());
        }
        if (into != null) {
            into.complete(op, status);
        }
        return status;
    }

    static MPIException asMpiException(RuntimeException error) {
        return error instanceof MPIException ? (MPIException) error
                : new MPIException(MPI.ERR_INTERN, "the mpj runtime failed: " + error, error);
    }

    // ---- completion of request arrays ----

    /** Waits for every request; returns their statuses in order (empty ones for null requests). */
    public static Status[] Waitall(Request[] requests) {
        check(requests, "Waitall");
        return awaitAll(requests, "Waitall");
    }

    /** {@link #Waitall} on behalf of {@code call}, as {@link #await(String)} says. */
    static Status[] awaitAll(Request[] requests, String call) {
        if (!allActiveDone(requests)) {
            Environment.backend().await(new Done(call, requests, false));
        }
        return finishAll(requests, false);
    }

    /**
     * Waits for one request to complete; returns its status with {@link Status#index} set. If no
     * request is active, returns at once an empty status whose index is {@link MPI#UNDEFINED}.
     */
    public static Status Waitany(Request[] requests) {
        check(requests, "Waitany");
        if (!anyActive(requests)) {
            return Status.empty();
        }
        awaitAny(requests, "Waitany");
        return finishFirstDone(requests);
    }

    /**
     * Waits until at least one request completes; returns the statuses of all that have completed,
     * each with its {@link Status#index}. If no request is active, returns an empty array at once
     * (MPI's outcount {@code MPI_UNDEFINED}), so a loop over the result ends rather than failing on null.
     */
    public static Status[] Waitsome(Request[] requests) {
        check(requests, "Waitsome");
        if (!anyActive(requests)) {
            return new Status[0];
        }
        awaitAny(requests, "Waitsome");
        return finishAll(requests, true);
    }

    /** The statuses of all requests if every one has completed, else null (and none is completed). */
    public static Status[] Testall(Request[] requests) {
        check(requests, "Testall");
        pollIfPending(requests);
        return allActiveDone(requests) ? finishAll(requests, false) : null;
    }

    /**
     * The status of one completed request (with its index), or null if none has completed. If no
     * request is active, an empty status whose index is {@link MPI#UNDEFINED}.
     */
    public static Status Testany(Request[] requests) {
        check(requests, "Testany");
        if (!anyActive(requests)) {
            return Status.empty();
        }
        pollIfPending(requests);
        return firstDone(requests) < 0 ? null : finishFirstDone(requests);
    }

    /**
     * The statuses of the requests that have completed, each with its index; an empty array if none
     * has, or if no request is active (as mpiJava 1.2 specifies for {@code Testsome}).
     */
    public static Status[] Testsome(Request[] requests) {
        check(requests, "Testsome");
        if (!anyActive(requests)) {
            return new Status[0];
        }
        pollIfPending(requests);
        return finishAll(requests, true);
    }

    private static void check(Request[] requests, String call) {
        if (requests == null) {
            throw new MPIException(MPI.ERR_REQUEST, call + ": the request array is null");
        }
    }

    private static boolean anyActive(Request[] requests) {
        for (Request r : requests) {
            if (r != null && r.active) {
                return true;
            }
        }
        return false;
    }

    private static int firstDone(Request[] requests) {
        for (int i = 0; i < requests.length; i++) {
            if (requests[i] != null && requests[i].isDone()) {
                return i;
            }
        }
        return -1;
    }

    /** Drives progress until some active request is done (the caller knows one is active). */
    private static void awaitAny(Request[] requests, String call) {
        if (firstDone(requests) < 0) {
            Environment.backend().await(new Done(call, requests, true));
        }
    }

    private static boolean allActiveDone(Request[] requests) {
        return firstPending(requests, 0) == requests.length;
    }

    /** The index of the first request from {@code from} that is active and not done, or the array's length. */
    private static int firstPending(Request[] requests, int from) {
        int i = from;
        while (i < requests.length && (requests[i] == null || !requests[i].pending())) {
            i++;
        }
        return i;
    }

    /** Active and not yet done. */
    private boolean pending() {
        return active && !isDone();
    }

    private static void pollIfPending(Request[] requests) {
        if (!allActiveDone(requests)) {
            Environment.backend().poll();
        }
    }

    private static Status finishFirstDone(Request[] requests) {
        int i = firstDone(requests);
        Status status = requests[i].finish();
        status.index = i;
        return status;
    }

    /**
     * Completes all the requests (null and inactive ones give empty statuses) or, {@code doneOnly}, only
     * the active ones that are done, in a result array just long enough. Every selected request is
     * completed even if some fail; the first error is raised after.
     */
    private static Status[] finishAll(Request[] requests, boolean doneOnly) {
        Status[] statuses = new Status[requests.length];
        int found = 0;
        MPIException failure = null;
        for (int i = 0; i < requests.length; i++) {
            Request r = requests[i];
            boolean active = r != null && r.active;
            if (doneOnly && !(active && r.isDone())) {
                continue;
            }
            try {
                Status status = active ? r.finish() : Status.empty();
                status.index = i;
                statuses[found++] = status;
            } catch (MPIException e) {
                if (failure == null) {
                    failure = e;
                } else if (e != failure) {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
        return found == statuses.length ? statuses : Arrays.copyOf(statuses, found);
    }

    /** Adds the wait report's entry for this request, pending in {@code call} (null: the call that started it). */
    private void describePending(String call, List<String> entries) {
        if (pending()) {
            String started = starter.describe(comm);
            String what = started != null ? started : "a request";
            entries.add(call == null ? what : call + " for " + what);
        }
    }

    /** The wait condition of {@link #await}: one request done (no array to allocate per blocking call). */
    private static final class OneDone implements WaitCondition {
        private final String call;
        private final Request request;

        OneDone(String call, Request request) {
            this.call = call;
            this.request = request;
        }

        @Override
        public boolean getAsBoolean() {
            return request.isDone();
        }

        @Override
        public void describePending(List<String> entries) {
            request.describePending(call, entries);
        }
    }

    /**
     * The wait condition of {@link #Waitall} (every active request done) or, {@code any}, of {@link #Waitany} and
     * {@link #Waitsome} (some request done), which names the call and the requests it waits for. A class, not a
     * lambda, for the reason {@link dev.mpj.api.AllComplete} is one.
     */
    private static final class Done implements WaitCondition {
        private final String call;
        private final Request[] requests;
        private final boolean any;

        Done(String call, Request[] requests, boolean any) {
            this.call = call;
            this.requests = requests;
            this.any = any;
        }

        /** Requests before this index are done, or null or inactive: a wait need not look at them again. */
        private int settled;

        @Override
        public boolean getAsBoolean() {
            if (any) {
                return firstDone(requests) >= 0;
            }
            // each pass looks at the requests from the first one not done, not at every request again
            settled = firstPending(requests, settled);
            return settled == requests.length;
        }

        @Override
        public void describePending(List<String> entries) {
            for (Request r : requests) {
                if (r != null) {
                    r.describePending(call, entries);
                }
            }
        }
    }
}
