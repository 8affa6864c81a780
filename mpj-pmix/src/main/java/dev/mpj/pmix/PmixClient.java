package dev.mpj.pmix;

import dev.mpj.runtime.pmi.PmiClient;
import dev.mpj.runtime.pmi.PmiCounters;
import dev.mpj.runtime.pmi.wire.PmiException;
import dev.mpj.runtime.pmi.wire.PmiLimits;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * The PMIx client: {@code libpmix} through the Foreign Function and Memory API, for ranks started by a PMIx
 * server (Open MPI's {@code mpirun}, PRRTE, Slurm's {@code --mpi=pmix}). The runtime loads it by name
 * ({@code PmiClients}) when {@code mpj.pmi=pmix}, or under {@code auto} when {@code PMIX_NAMESPACE} is set.
 *
 * <p><b>One table from per-rank keys.</b> PMI's KVS is one table for the job; PMIx keys belong to the rank that
 * put them, and a get must name that rank (the shared-memory store of PMIx 4, which Open MPI and Slurm use,
 * refuses {@code PMIX_RANK_UNDEF}). So each rank also puts {@value #DIRECTORY_KEY}, the list of every key it has
 * put, and {@link #barrier()} is a fence that collects all ranks' data ({@code PMIX_COLLECT_DATA}). The first
 * {@link #get} after a barrier reads the directories of all ranks (local reads, after that fence) and from
 * then on gets each key from its owner with {@code PMIX_OPTIONAL}: a missing key answers null at once instead
 * of waiting for a put. Keys and values keep the PMI-1 limits, so an exchange does the same puts and gets as
 * under PMI-1 and PMI-2 and the counters compare across dialects; they leave out the directory, and the byte
 * counters hold the keys and values handed to the library.
 *
 * <p>The node map comes from {@code PMIX_NODEID} of every rank ({@link #nodeIds()}). PMIx offers no store that
 * is visible at once to the ranks of a node, so {@link #nodeAttributes()} is null.
 *
 * <p>Not thread-safe, like the other clients.
 */
public final class PmixClient implements PmiClient {
    static final String JOB_SIZE = "pmix.job.size";
    static final String LOCAL_RANK = "pmix.lrank";
    static final String LOCAL_PEERS = "pmix.lpeers";
    static final String NODE_ID = "pmix.nodeid";
    private static final String COLLECT_DATA = "pmix.collect";
    private static final String OPTIONAL = "pmix.optional";
    /** The key under which a rank lists the keys it has put, space-separated (keys hold no spaces). */
    static final String DIRECTORY_KEY = "mpj-pmix-keys";

    private final PmixLibrary lib;
    private final Arena arena = Arena.ofShared();
    /** This process's {@code pmix_proc_t}, as PMIx_Init filled it. */
    private final MemorySegment self;
    private final String nspace;
    private final int rank;
    private final int size;
    private final PmiCounters counters = new PmiCounters();
    /** Every key this rank has put, in order; published as {@value #DIRECTORY_KEY}. */
    private final Set<String> ownKeys = new LinkedHashSet<>();
    private boolean directoryPublished;
    /** The rank that put each key, as the directories read after the last barrier say; null until read. */
    private Map<String, Integer> owners;
    private boolean pending;
    private boolean closed;

    private PmixClient(PmixLibrary lib) {
        this.lib = lib;
        self = arena.allocate(PmixLibrary.PROC_SIZE, 4);
        try {
            check((int) lib.init.invokeExact(self, MemorySegment.NULL, 0L), "PMIx_Init");
        } catch (RuntimeException e) {
            arena.close();
            throw e;
        } catch (Throwable t) {
            arena.close();
            throw new PmiException("PMIx_Init failed", t);
        }
        nspace = self.getString(0);
        rank = self.get(JAVA_INT, PmixLibrary.PROC_RANK);
        size = (int) number(PmixLibrary.RANK_WILDCARD, JOB_SIZE);
        if (size < 1 || rank < 0 || rank >= size) {
            throw new PmiException("the PMIx server placed this process as rank " + rank + " of " + size);
        }
    }

    /**
     * Connects to the PMIx server of the environment ({@code PMIX_SERVER_URI*}, {@code PMIX_NAMESPACE},
     * {@code PMIX_RANK}, which {@code PMIx_Init} reads itself).
     *
     * @throws PmiException when the server refuses or cannot be reached
     */
    public static PmixClient fromEnvironment(Map<String, String> env) {
        return new PmixClient(PmixLibrary.load());
    }

    /**
     * What this JVM lacks to run the PMIx client, or null when {@value PmixLibrary#NAME} loads. Called by the
     * runtime before {@link #fromEnvironment}, so a missing library reads as missing support, not as a failed
     * job.
     */
    public static String missing() {
        try {
            PmixLibrary.load();
            return null;
        } catch (IllegalArgumentException | UnsatisfiedLinkError e) {
            return PmixLibrary.NAME + " (" + e.getMessage() + "; Debian and Ubuntu ship it as libpmix2)";
        }
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return size;
    }

    /** The PMIx namespace of the job. */
    @Override
    public String jobId() {
        return nspace;
    }

    /** PMIx gives no {@code PMI_process_mapping}; the node map comes from {@link #nodeIds()}. */
    @Override
    public String processMapping() {
        return "";
    }

    /** {@code PMIX_NODEID} of every rank, or null when the server does not give it per rank. */
    @Override
    public int[] nodeIds() {
        int[] ids = new int[size];
        for (int r = 0; r < size; r++) {
            Long id = optionalNumber(r, NODE_ID);
            if (id == null) {
                return null;
            }
            ids[r] = id.intValue();
        }
        return ids;
    }

    /** {@code PMIX_LOCAL_RANK}: this process's index among the ranks of its node. */
    public int localRank() {
        return (int) number(rank, LOCAL_RANK);
    }

    /** {@code PMIX_LOCAL_PEERS}: the ranks on this node, as the server lists them (e.g. {@code 0,1,2,3}). */
    public String localPeers() {
        try (Arena call = Arena.ofConfined()) {
            return PmixValue.asString(require(call, PmixLibrary.RANK_WILDCARD, LOCAL_PEERS));
        }
    }

    @Override
    public int maxValueLength() {
        return PmiLimits.DEFAULT_MAX_VALUE_LENGTH;
    }

    /** {@code PMIx_Put} at global scope; committed by the next {@link #barrier()}. */
    @Override
    public void put(String key, String value) {
        ensureOpen();
        PmiLimits.checkPut(key, value, PmiLimits.MAX_KEY_LENGTH, maxValueLength());
        if (key.equals(DIRECTORY_KEY)) {
            throw new PmiException("PMI key '" + key + "' is reserved for the PMIx client's key directory");
        }
        putGlobal(key, value);
        if (ownKeys.add(key)) {
            directoryPublished = false;
        }
        counters.countPut();
        counters.countBytes(key.length() + value.length(), 0);
    }

    private void putGlobal(String key, String value) {
        try (Arena call = Arena.ofConfined()) {
            int status = (int) lib.put.invokeExact(PmixLibrary.SCOPE_GLOBAL, call.allocateFrom(key),
                    PmixValue.string(call, value));
            check(status, "PMIx_Put of key '" + key + "'");
        } catch (RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new PmiException("PMIx_Put failed", t);
        }
        pending = true;
    }

    /** The key from the rank whose directory lists it; null when no rank has published it by the last barrier. */
    @Override
    public String get(String key) {
        ensureOpen();
        PmiLimits.checkKey(key, PmiLimits.MAX_KEY_LENGTH);
        Integer owner = owners().get(key);
        String value = null;
        if (owner != null) {
            try (Arena call = Arena.ofConfined()) {
                MemorySegment v = lookup(call, owner, key, true);
                value = v == null ? null : PmixValue.asString(v);
            }
        }
        counters.countGet();
        counters.countBytes(key.length(), value == null ? 0 : value.length());
        return value;
    }

    /** Which rank put each key: every rank's directory, read once per barrier. */
    private Map<String, Integer> owners() {
        if (owners == null) {
            owners = new HashMap<>();
            for (int r = 0; r < size; r++) {
                try (Arena call = Arena.ofConfined()) {
                    MemorySegment v = lookup(call, r, DIRECTORY_KEY, true);
                    String keys = v == null ? null : PmixValue.asString(v);
                    if (keys != null && !keys.isEmpty()) {
                        for (String k : keys.split(" ")) {
                            owners.put(k, r);
                        }
                    }
                }
            }
        }
        return owners;
    }

    /**
     * {@code PMIx_Commit} of pending puts (with this rank's directory when it has new keys), then
     * {@code PMIx_Fence} over the job with data collection.
     */
    @Override
    public void barrier() {
        ensureOpen();
        if (!directoryPublished) {
            putGlobal(DIRECTORY_KEY, String.join(" ", ownKeys));
            directoryPublished = true;
        }
        try (Arena call = Arena.ofConfined()) {
            if (pending) {
                check((int) lib.commit.invokeExact(), "PMIx_Commit");
                pending = false;
            }
            int status = (int) lib.fence.invokeExact(MemorySegment.NULL, 0L, PmixValue.flag(call, COLLECT_DATA), 1L);
            check(status, "PMIx_Fence");
            owners = null;
        } catch (RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new PmiException("PMIx_Fence failed", t);
        }
        counters.countBarrier();
    }

    /** {@code PMIx_Finalize}, then the client is closed. */
    @Override
    public void finish() {
        if (closed) {
            return;
        }
        try {
            check((int) lib.finalize.invokeExact(MemorySegment.NULL, 0L), "PMIx_Finalize");
        } catch (RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new PmiException("PMIx_Finalize failed", t);
        } finally {
            close();
        }
    }

    /** {@code PMIx_Abort} of the whole namespace; the server ends the job (Open MPI's mpirun with this code). */
    @Override
    public void abort(int exitCode, String message) {
        if (closed) {
            return;
        }
        try (Arena call = Arena.ofConfined()) {
            int ignored = (int) lib.abort.invokeExact(exitCode, call.allocateFrom(message == null ? "" : message),
                    MemorySegment.NULL, 0L);
        } catch (Throwable t) {
            // the caller ends the process whatever the server did
        } finally {
            close();
        }
    }

    @Override
    public String dialect() {
        return "pmix";
    }

    @Override
    public PmiCounters counters() {
        return counters;
    }

    /**
     * Marks the client closed. The library stays connected until {@link #finish()}: PMIx has no way to drop
     * the connection without finalizing, and the server sees the process end.
     */
    @Override
    public void close() {
        closed = true;
    }

    @Override
    public String toString() {
        return "PmixClient[rank=" + rank + " size=" + size + " nspace=" + nspace + " " + counters + "]";
    }

    private long number(int ofRank, String key) {
        try (Arena call = Arena.ofConfined()) {
            return PmixValue.asLong(require(call, ofRank, key));
        }
    }

    private Long optionalNumber(int ofRank, String key) {
        try (Arena call = Arena.ofConfined()) {
            MemorySegment v = lookup(call, ofRank, key, false);
            return v == null ? null : PmixValue.asLong(v);
        }
    }

    private MemorySegment require(Arena call, int ofRank, String key) {
        MemorySegment v = lookup(call, ofRank, key, false);
        if (v == null) {
            throw new PmiException("the PMIx server has no " + key + " for rank " + rankName(ofRank)
                    + " of namespace " + nspace);
        }
        return v;
    }

    /**
     * {@code PMIx_Get} of {@code key} from {@code ofRank}, copied into {@code call}, or null when not found;
     * {@code localOnly} adds {@code PMIX_OPTIONAL} (no wait for a put that has not reached this process).
     */
    private MemorySegment lookup(Arena call, int ofRank, String key, boolean localOnly) {
        MemorySegment proc = call.allocate(PmixLibrary.PROC_SIZE, 4);
        MemorySegment.copy(self, 0, proc, 0, PmixLibrary.PROC_SIZE);
        proc.set(JAVA_INT, PmixLibrary.PROC_RANK, ofRank);
        MemorySegment out = call.allocate(ADDRESS);
        MemorySegment info = localOnly ? PmixValue.flag(call, OPTIONAL) : MemorySegment.NULL;
        int status;
        try {
            status = (int) lib.get.invokeExact(proc, call.allocateFrom(key), info, localOnly ? 1L : 0L, out);
        } catch (Throwable t) {
            throw new PmiException("PMIx_Get of '" + key + "' failed", t);
        }
        if (status == PmixLibrary.ERR_NOT_FOUND) {
            return null;
        }
        check(status, "PMIx_Get of '" + key + "' from rank " + rankName(ofRank));
        MemorySegment value = out.get(ADDRESS, 0).reinterpret(PmixLibrary.VALUE_SIZE);
        try {
            MemorySegment copy = call.allocate(PmixLibrary.VALUE_SIZE, 8);
            copy.copyFrom(value);
            if (copy.get(JAVA_SHORT, 0) == PmixValue.STRING) {
                // the string belongs to the library's value: keep a copy that outlives it
                String s = PmixLibrary.string(copy.get(ADDRESS, PmixLibrary.VALUE_DATA));
                copy.set(ADDRESS, PmixLibrary.VALUE_DATA, s == null ? MemorySegment.NULL : call.allocateFrom(s));
            }
            return copy;
        } finally {
            release(value);
        }
    }

    /** PMIX_VALUE_RELEASE: the value's contents, then the value. */
    private void release(MemorySegment value) {
        try {
            lib.valueDestruct.invokeExact(value);
            lib.free.invokeExact(value);
        } catch (Throwable t) {
            // a leak of one small value is no reason to fail the get
        }
    }

    private void check(int status, String what) {
        if (status != PmixLibrary.SUCCESS) {
            throw new PmiException(what + " failed: " + lib.describe(status));
        }
    }

    private static String rankName(int rank) {
        return rank == PmixLibrary.RANK_WILDCARD ? "WILDCARD" : rank == PmixLibrary.RANK_UNDEF ? "UNDEF"
                : Integer.toString(rank);
    }

    private void ensureOpen() {
        if (closed) {
            throw new PmiException("the PMIx client is closed");
        }
    }
}
