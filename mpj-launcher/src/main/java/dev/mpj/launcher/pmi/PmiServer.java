package dev.mpj.launcher.pmi;

import dev.mpj.runtime.pmi.wire.PmiLimits;
import dev.mpj.runtime.pmi.wire.PmiSecret;
import dev.mpj.runtime.pmi.wire.ProcessMapping;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The process manager's PMI server in port mode (PMI.md §2, §3, §6): ranks connect to 127.0.0.1 on an
 * ephemeral port named in {@code PMI_PORT}, identify themselves with {@code cmd=initack pmiid=R}, then speak
 * PMI-1 or PMI-2 lock-step. A connection speaks PMI-1 lines until its {@code init} asks for
 * {@code pmi_version=2}; from then on each message is detected as Hydra does: one starting with {@code cmd=} or
 * {@code mcmd=} is a PMI-1 line, anything else a length-framed PMI-2 message. One thread with one selector
 * ({@link PmiSelectorLoop}) serves every connection ({@link PmiClientConnection}), as Hydra's proxy does, so
 * the KVS and the barrier ({@link PmiJob}) need no locks and every reply order is deterministic.
 *
 * <p>Semantics follow Hydra and Slurm: a put ({@code put}, {@code kvs-put}) stays invisible, even to its
 * putter, until the next barrier; the barrier ({@code barrier_in}, and {@code kvs-fence}, a true barrier here
 * as in Slurm) completes when all ranks have entered it, whatever their dialect, and shares one KVS;
 * {@code PMI_process_mapping} is always served. PMI-2 node attributes are kept per node of the
 * {@link ProcessMapping}, and a get with {@code wait=TRUE} is answered when a rank of the same node puts the
 * key. Every barrier also writes what it publishes into a shared-memory table ({@link SharedKvsPublisher}) whose
 * path {@code maxes} and {@code fullinit-response} announce, so the ranks read published keys without a round
 * trip. Unlike Hydra, an unknown command gets an {@code rc=-1} reply instead of killing the job, and a PMI-2
 * {@code abort} ends the job with its {@code exitcode} field (1 without one).
 *
 * <p>Only the job's ranks are served ({@link ConnectionGate}): a connection's first line must show the job's
 * secret ({@code cmd=mpj_secret secret=<hex>}, from {@code MPJ_PMI_SECRET}) within the ranks' init timeout;
 * connections that have not shown it are capped. A connection that breaks the protocol (a line over 1024
 * bytes, a PMI-2 length field that is not a number or announces more than
 * {@link dev.mpj.runtime.pmi.wire.Pmi2Message#MAX_BODY} bytes, a message the parsers reject, a command out of
 * order) is closed. When it had identified itself as a rank that rank is broken and the {@link Listener} is told;
 * before that the connection is only counted as rejected, and logged at a limited rate. The server keeps serving
 * the others, keeps accepting after a failed accept, and never throws from its thread.
 */
public final class PmiServer implements AutoCloseable {

    /**
     * What the server tells the job. Called on the server thread in the order things happened (a rank's
     * {@code rankFinalized} comes before its {@code finalize_ack} is written), so implementations must be quick
     * and must not block.
     */
    public interface Listener {
        /** The rank identified its connection ({@code initack}). */
        void rankConnected(int rank);

        /** The rank sent {@code finalize}. */
        void rankFinalized(int rank);

        /** The rank asked to end the job ({@code abort exitcode=N}). */
        void rankAborted(int rank, int exitCode);

        /** The rank's connection closed before it sent {@code finalize} or {@code abort}. */
        void rankDisconnected(int rank);

        /**
         * A client broke the protocol; its connection is closed.
         *
         * @param rank    the client's rank, or -1 when it had not identified itself
         * @param problem what it did, phrased to follow "rank R", e.g. "sent a malformed PMI line: …"
         */
        void protocolError(int rank, String problem);

        /**
         * Connections that were no rank's were rejected: a line for the log, at most one per source address every
         * few seconds (the first rejection, then summaries with counts). Also failed accepts.
         */
        void connectionsRejected(String report);

        /** The server itself failed (its selector broke) and serves nobody any more. */
        void serverFailed(Exception cause);
    }

    private final PmiJob job;
    private final Pmi1Commands pmi1;
    private final Pmi2Commands pmi2;
    private final ConnectionGate gate;
    private final String tableName;
    private PmiSelectorLoop loop;
    private SharedKvsPublisher shared;
    /** The gate's count, published for other threads after every pass of the loop. */
    private volatile long rejected;

    /**
     * A server for one job.
     *
     * @param mapping  the job's size and rank placement, served as {@value ProcessMapping#KEY}
     * @param kvsName  the name served by {@code get_my_kvsname} (see {@link #newKvsName()})
     * @param secret   what every connection must show first (see {@link PmiSecret#newSecret()})
     * @param initTimeout the ranks' {@code mpj.initTimeout}: how long a connection may take to show the secret
     * @param listener receives the job's PMI events
     */
    public PmiServer(ProcessMapping mapping, String kvsName, String secret, Duration initTimeout, Listener listener) {
        this(mapping, kvsName, secret, listener, ConnectionGate.Limits.forJob(mapping.size(), initTimeout), -1, null,
                kvsName);
    }

    /**
     * A node agent's server (decision 0036): it serves the ranks of {@code node} only, and sends its collectives
     * to {@code upstream} once they have entered; its shared KVS table is named after {@code tableName}, which
     * starts {@code mpj_<pid>_} with the pid of the process that owns it, so a table left by a killed agent is
     * found stale.
     */
    public PmiServer(ProcessMapping mapping, String kvsName, String secret, Duration initTimeout, Listener listener,
                     int node, PmiUpstream upstream, String tableName) {
        this(mapping, kvsName, secret, listener,
                ConnectionGate.Limits.forJob(PmiJob.servedRanks(mapping, node), initTimeout), node, upstream,
                tableName);
    }

    PmiServer(ProcessMapping mapping, String kvsName, String secret, Listener listener, ConnectionGate.Limits limits) {
        this(mapping, kvsName, secret, listener, limits, -1, null, kvsName);
    }

    private PmiServer(ProcessMapping mapping, String kvsName, String secret, Listener listener,
                      ConnectionGate.Limits limits, int node, PmiUpstream upstream, String tableName) {
        if (kvsName.isEmpty() || kvsName.length() >= PmiLimits.KVSNAME_MAX || !isKvsName(kvsName)) {
            throw new IllegalArgumentException("unusable KVS name '" + kvsName + "'");
        }
        if (secret == null || secret.isEmpty()) {
            throw new IllegalArgumentException("a PMI server needs a job secret");
        }
        this.job = new PmiJob(mapping, kvsName, listener, node, upstream);
        this.tableName = tableName;
        this.pmi1 = new Pmi1Commands(job);
        this.pmi2 = new Pmi2Commands(job);
        this.gate = new ConnectionGate(secret, limits, listener);
    }

    /** A KVS name unique to this launcher and job: {@code mpj_<launcher pid>_<random hex>}. */
    public static String newKvsName() {
        return "mpj_" + ProcessHandle.current().pid() + "_"
                + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 16);
    }

    /**
     * Removes the shared KVS tables of servers that no longer run. An agent's JVM killed before its node's first
     * barrier was answered cannot remove its own table; the launcher sweeps once its agents have ended.
     */
    public static void removeTablesOfEndedServers() {
        SharedKvsPublisher.removeStale(sharedDirectory());
    }

    /** Binds an ephemeral loopback port and starts serving; returns the bound address. */
    public InetSocketAddress start() throws IOException {
        return start(PmiSelectorLoop.ACCEPT);
    }

    /** As {@link #start()}, taking connections through {@code accepting}. */
    InetSocketAddress start(PmiSelectorLoop.Accepting accepting) throws IOException {
        if (loop != null) {
            throw new IllegalStateException("already started");
        }
        shared = SharedKvsPublisher.create(sharedDirectory(), tableName, job.mapping().size(),
                Map.of(ProcessMapping.KEY, job.mapping().pmiValue()));
        if (shared != null) {
            job.shareKvs(shared);
        }
        try {
            // the backlog covers every rank connecting at once, so no SYN is dropped at startup
            loop = PmiSelectorLoop.start(Math.max(128, job.mapping().size()), new Handler(), accepting);
        } catch (IOException | RuntimeException e) {
            if (shared != null) {
                shared.close();
            }
            throw e;
        }
        return address();
    }

    /** Where the shared KVS table goes: memory-backed {@code /dev/shm} where there is one. */
    private static Path sharedDirectory() {
        Path shm = Path.of("/dev/shm");
        return Files.isDirectory(shm) && Files.isWritable(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir"));
    }

    /** The bound address. */
    public InetSocketAddress address() throws IOException {
        return loop.address();
    }

    /** The value of {@code PMI_PORT} for the ranks: {@code host:port}. */
    public String portVariable() throws IOException {
        InetSocketAddress a = address();
        return a.getAddress().getHostAddress() + ":" + a.getPort();
    }

    public String kvsName() {
        return job.kvsName();
    }

    /** Whether {@code name} is made of {@code [A-Za-z0-9_.-]} alone (checked without a regular expression's lambdas). */
    private static boolean isKvsName(String name) {
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean valid = c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
                    || c == '_' || c == '.' || c == '-';
            if (!valid) {
                return false;
            }
        }
        return true;
    }

    /** How many connections were rejected so far (no secret, broken before identifying, over the cap, too slow). */
    public long rejectedConnections() {
        return rejected;
    }

    /** The whole job's fence completed up the tree with {@code published}: answers the served ranks. Any thread. */
    public void completeFence(Map<String, String> published) {
        loop.execute(() -> job.barrier().complete(published));
    }

    /** The whole job's allgather completed with {@code values}, in rank order: answers the served ranks. Any thread. */
    public void completeAllgather(List<String> values) {
        loop.execute(() -> job.allgather().completeUpstream(values));
    }

    /** The whole job's ring completed with {@code answers} by rank: answers the served ranks. Any thread. */
    public void completeRing(Map<Integer, PmiUpstream.RingAnswer> answers) {
        loop.execute(() -> job.ring().completeUpstream(answers));
    }

    /** Every rank's ring answer, in rank order, from every rank's part in rank order: what the tree's root does. */
    public static List<PmiUpstream.RingAnswer> ringAnswers(List<PmiUpstream.RingPart> parts) {
        return JobRing.answers(parts);
    }

    /** Stops serving and closes every connection; waits for the server thread to end. */
    @Override
    public void close() {
        if (loop != null) {
            loop.close();
            if (shared != null) {
                shared.close();
            }
            for (String summary : gate.pendingSummaries(System.nanoTime())) {
                job.listener().connectionsRejected(summary);
            }
        }
    }

    /** The loop's view of the server: connections pass the {@link ConnectionGate}. Runs on the server thread. */
    private final class Handler implements PmiSelectorLoop.Handler {
        private boolean acceptFailing;

        @Override
        public PmiClientConnection accepted(SocketChannel channel, SelectionKey key, InetAddress source,
                                            long nowNanos) {
            acceptFailing = false;
            if (!gate.admits(source, nowNanos)) {
                rejected = gate.rejectedConnections();
                return null;
            }
            PmiClientConnection c = new PmiClientConnection(channel, key, source, pmi1, pmi2, job, gate);
            gate.accepted(c, nowNanos);
            return c;
        }

        @Override
        public long tick(long nowNanos) {
            long next = gate.tick(nowNanos);
            rejected = gate.rejectedConnections();
            return next;
        }

        @Override
        public void acceptFailed(IOException cause, long pauseMillis) {
            if (!acceptFailing) {
                acceptFailing = true;
                job.listener().connectionsRejected("cannot accept PMI connections (" + cause.getMessage()
                        + "); retrying after " + pauseMillis + " ms, backing off to "
                        + PmiSelectorLoop.LAST_ACCEPT_PAUSE_MILLIS + " ms");
            }
        }

        @Override
        public void failed(Exception cause) {
            job.listener().serverFailed(cause);
        }
    }
}
