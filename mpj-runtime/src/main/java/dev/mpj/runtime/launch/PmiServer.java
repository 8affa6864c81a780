package dev.mpj.runtime.launch;

import dev.mpj.runtime.pmi.Pmi1Message;
import dev.mpj.runtime.pmi.PmiException;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The process manager's PMI-1 server in port mode (PMI.md §2, §6): ranks connect to 127.0.0.1 on an ephemeral
 * port named in {@code PMI_PORT}, identify themselves with {@code cmd=initack pmiid=R}, then speak PMI-1
 * lock-step. One thread with one selector serves every connection, as Hydra's proxy does, so the KVS and the
 * barrier need no locks and every reply order is deterministic.
 *
 * <p>Semantics follow Hydra and Slurm: a {@code put} stays invisible, even to its putter, until the next
 * barrier; {@code barrier_in} completes when all ranks have entered it; {@code PMI_process_mapping} is always
 * served. Unlike Hydra, an unknown command gets an {@code rc=-1} reply instead of killing the job. A client
 * that breaks the protocol (a line over 1024 bytes, a line {@link Pmi1Message#parse} rejects, a command out
 * of order) is reported to the {@link Listener} and its connection closed; the server keeps serving the
 * others and never throws from its thread.
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

        /** The server itself failed (its selector broke) and serves nobody any more. */
        void serverFailed(Exception cause);
    }

    /** Limits announced by {@code get_maxes}, counting the terminating NUL as Hydra and Slurm do. */
    static final int KVSNAME_MAX = 256;
    static final int KEYLEN_MAX = 64;
    static final int VALLEN_MAX = 1024;

    /** The key every server answers itself, before any barrier. */
    static final String PROCESS_MAPPING_KEY = "PMI_process_mapping";

    private final ProcessMapping mapping;
    private final String kvsName;
    private final Listener listener;
    private final Connection[] connectionOfRank;
    private final Map<String, String> published = new HashMap<>();
    private final Map<String, String> staged = new HashMap<>();
    private final List<Connection> barrierWaiters = new ArrayList<>();
    private int firstFinalizedRank = -1;

    private Selector selector;
    private ServerSocketChannel acceptor;
    private Thread thread;
    private volatile boolean closing;

    /**
     * A server for one job.
     *
     * @param mapping  the job's size and rank placement, served as {@value #PROCESS_MAPPING_KEY}
     * @param kvsName  the name served by {@code get_my_kvsname} (see {@link #newKvsName()})
     * @param listener receives the job's PMI events
     */
    public PmiServer(ProcessMapping mapping, String kvsName, Listener listener) {
        if (kvsName.isEmpty() || kvsName.length() >= KVSNAME_MAX || !kvsName.matches("[A-Za-z0-9_.-]+")) {
            throw new IllegalArgumentException("unusable KVS name '" + kvsName + "'");
        }
        this.mapping = mapping;
        this.kvsName = kvsName;
        this.listener = listener;
        this.connectionOfRank = new Connection[mapping.size()];
    }

    /** A KVS name unique to this launcher and job: {@code mpj_<launcher pid>_<random hex>}. */
    public static String newKvsName() {
        return "mpj_" + ProcessHandle.current().pid() + "_"
                + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 16);
    }

    /** Binds an ephemeral loopback port and starts serving; returns the bound address. */
    public InetSocketAddress start() throws IOException {
        if (thread != null) {
            throw new IllegalStateException("already started");
        }
        selector = Selector.open();
        try {
            acceptor = ServerSocketChannel.open();
            // the backlog covers every rank connecting at once, so no SYN is dropped at startup
            acceptor.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), Math.max(128, mapping.size()));
            acceptor.configureBlocking(false);
            acceptor.register(selector, SelectionKey.OP_ACCEPT);
        } catch (IOException | RuntimeException e) {
            closeQuietly(acceptor);
            closeQuietly(selector);
            throw e;
        }
        thread = new Thread(this::serve, "mpjrun-pmi-server");
        thread.setDaemon(true);
        thread.start();
        return address();
    }

    /** The bound address. */
    public InetSocketAddress address() throws IOException {
        return (InetSocketAddress) acceptor.getLocalAddress();
    }

    /** The value of {@code PMI_PORT} for the ranks: {@code host:port}. */
    public String portVariable() throws IOException {
        InetSocketAddress a = address();
        return a.getAddress().getHostAddress() + ":" + a.getPort();
    }

    public String kvsName() {
        return kvsName;
    }

    /** Stops serving and closes every connection; waits for the server thread to end. */
    @Override
    public void close() {
        if (thread == null) {
            return;
        }
        closing = true;
        selector.wakeup();
        try {
            thread.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void serve() {
        try {
            while (!closing) {
                selector.select();
                for (SelectionKey key : selector.selectedKeys()) {
                    if (!key.isValid()) {
                        continue;
                    }
                    if (key.isAcceptable()) {
                        accept();
                        continue;
                    }
                    Connection c = (Connection) key.attachment();
                    if (key.isWritable()) {
                        c.flush();
                    }
                    if (key.isValid() && key.isReadable()) {
                        c.read();
                    }
                }
                selector.selectedKeys().clear();
            }
        } catch (IOException | RuntimeException e) {
            if (!closing) {
                listener.serverFailed(e);
            }
        } finally {
            for (SelectionKey key : selector.keys()) {
                closeQuietly(key.channel());
            }
            closeQuietly(selector);
        }
    }

    private void accept() throws IOException {
        SocketChannel channel;
        while ((channel = acceptor.accept()) != null) {
            try {
                channel.configureBlocking(false);
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                SelectionKey key = channel.register(selector, SelectionKey.OP_READ);
                key.attach(new Connection(channel, key));
            } catch (IOException e) {
                closeQuietly(channel); // the client went away while connecting: it will fail on its side
            }
        }
    }

    // ---- PMI-1 commands, one method per request ----

    private void handle(Connection c, Pmi1Message m) {
        String cmd = m.command();
        if (m.get("mcmd") != null) {
            c.skippingMultiLineCommand = true; // spawn: read up to endcmd, then refuse it
            return;
        }
        if (c.rank < 0 && !cmd.equals("initack")) {
            c.fail("sent cmd=" + cmd + " before identifying itself with cmd=initack pmiid=<rank>");
            return;
        }
        switch (cmd) {
            case "initack" -> initack(c, m);
            case "init" -> init(c, m);
            case "get_maxes" -> c.send(Pmi1Message.of("maxes", "kvsname_max", Integer.toString(KVSNAME_MAX),
                    "keylen_max", Integer.toString(KEYLEN_MAX), "vallen_max", Integer.toString(VALLEN_MAX)));
            case "get_appnum" -> c.send(Pmi1Message.of("appnum", "appnum", "0"));
            case "get_my_kvsname" -> c.send(Pmi1Message.of("my_kvsname", "kvsname", kvsName));
            case "get_universe_size" -> c.send(Pmi1Message.of("universe_size", "size",
                    Integer.toString(mapping.size())));
            case "put" -> put(c, m);
            case "get" -> get(c, m);
            case "barrier_in" -> barrierIn(c);
            case "finalize" -> finalize(c);
            case "abort" -> abort(c, m);
            default -> c.send(Pmi1Message.of(cmd + "_result", "rc", "-1", "msg", "unknown_command"));
        }
    }

    private void initack(Connection c, Pmi1Message m) {
        if (c.rank >= 0) {
            c.fail("sent cmd=initack a second time");
            return;
        }
        int id = m.requireInt("pmiid");
        if (id < 0 || id >= mapping.size()) {
            c.fail("claimed pmiid=" + id + " in a job of " + mapping.size() + " ranks");
            return;
        }
        if (connectionOfRank[id] != null) {
            c.fail("claimed pmiid=" + id + ", which another connection already holds");
            return;
        }
        c.rank = id;
        connectionOfRank[id] = c;
        listener.rankConnected(id);
        c.send(Pmi1Message.of("initack"),
                Pmi1Message.of("set", "size", Integer.toString(mapping.size())),
                Pmi1Message.of("set", "rank", Integer.toString(id)),
                Pmi1Message.of("set", "debug", "0"));
    }

    private void init(Connection c, Pmi1Message m) {
        String version = m.get("pmi_version");
        // PMI-2 clients also start with this PMI-1 line; refusing it here is where PMI-2 framing will hook in
        boolean served = version == null || version.equals("1");
        c.send(Pmi1Message.of("response_to_init", "pmi_version", "1", "pmi_subversion", "1",
                "rc", served ? "0" : "-1", "msg", served ? "success" : "only_PMI-1_is_served"));
    }

    private void put(Connection c, Pmi1Message m) {
        String key = m.require("key");
        String value = m.require("value");
        if (!kvsNameMatches(m)) {
            c.send(Pmi1Message.of("put_result", "rc", "-1", "msg", "kvsname_not_found"));
        } else if (key.length() >= KEYLEN_MAX) {
            c.send(Pmi1Message.of("put_result", "rc", "-1", "msg", "key_longer_than_" + (KEYLEN_MAX - 1)));
        } else {
            staged.put(key, value);
            c.send(Pmi1Message.of("put_result", "rc", "0", "msg", "success"));
        }
    }

    private void get(Connection c, Pmi1Message m) {
        String key = m.require("key");
        String value = !kvsNameMatches(m) ? null
                : key.equals(PROCESS_MAPPING_KEY) ? mapping.pmiValue()
                : published.get(key);
        if (value == null) {
            c.send(Pmi1Message.of("get_result", "rc", "-1", "msg", "key_" + key + "_not_found", "value", "unknown"));
        } else {
            c.send(Pmi1Message.of("get_result", "rc", "0", "msg", "success", "value", value));
        }
    }

    private boolean kvsNameMatches(Pmi1Message m) {
        String requested = m.get("kvsname");
        return requested == null || requested.equals(kvsName);
    }

    private void barrierIn(Connection c) {
        if (c.inBarrier) {
            c.fail("entered the PMI barrier twice");
            return;
        }
        if (firstFinalizedRank >= 0) {
            c.fail("entered a PMI barrier after rank " + firstFinalizedRank + " had finalized; it could never "
                    + "complete");
            return;
        }
        c.inBarrier = true;
        barrierWaiters.add(c);
        if (barrierWaiters.size() == mapping.size()) {
            published.putAll(staged);
            staged.clear();
            Pmi1Message out = Pmi1Message.of("barrier_out");
            for (Connection waiting : barrierWaiters) {
                waiting.inBarrier = false; // before send: a failed write closes the connection
                waiting.send(out);
            }
            barrierWaiters.clear();
        }
    }

    private void finalize(Connection c) {
        c.finalized = true;
        if (firstFinalizedRank < 0) {
            firstFinalizedRank = c.rank;
        }
        listener.rankFinalized(c.rank);
        c.send(Pmi1Message.of("finalize_ack"));
        if (!barrierWaiters.isEmpty()) {
            c.fail("finalized while " + barrierWaiters.size() + " rank(s) wait in a PMI barrier that can now never "
                    + "complete");
        }
    }

    private void abort(Connection c, Pmi1Message m) {
        int exitCode = m.get("exitcode") == null ? 1 : m.requireInt("exitcode");
        c.aborted = true;
        listener.rankAborted(c.rank, exitCode);
        // no reply, as Hydra and Slurm: the job is ending
    }

    /** One client connection: a line buffer in, a queue of unwritten replies out. */
    private final class Connection {
        private final SocketChannel channel;
        private final SelectionKey key;
        private final ByteBuffer in = ByteBuffer.allocate(Pmi1Message.MAX_LINE);
        private final ArrayDeque<ByteBuffer> out = new ArrayDeque<>();
        int rank = -1;
        boolean finalized;
        boolean aborted;
        boolean inBarrier;
        boolean skippingMultiLineCommand;
        private boolean closed;

        Connection(SocketChannel channel, SelectionKey key) {
            this.channel = channel;
            this.key = key;
        }

        void read() {
            int n;
            try {
                n = channel.read(in);
            } catch (IOException e) {
                n = -1; // reset by the peer: same as a close
            }
            if (n < 0) {
                lost();
                return;
            }
            byte[] bytes = in.array();
            int lineStart = 0;
            for (int i = 0; i < in.position() && !closed; i++) {
                if (bytes[i] == '\n') {
                    // ISO-8859-1 keeps every byte one char, so Pmi1Message.parse sees and rejects non-ASCII
                    String line = new String(bytes, lineStart, i - lineStart, StandardCharsets.ISO_8859_1);
                    lineStart = i + 1;
                    handleLine(line);
                }
            }
            if (closed) {
                return;
            }
            in.flip().position(lineStart);
            in.compact();
            if (!in.hasRemaining()) {
                String head = new String(bytes, 0, 60, StandardCharsets.ISO_8859_1);
                fail("sent a malformed PMI line: longer than " + Pmi1Message.MAX_LINE + " bytes, starting \""
                        + head + "…\"");
            }
        }

        private void handleLine(String line) {
            if (skippingMultiLineCommand) {
                if (line.equals("endcmd")) {
                    skippingMultiLineCommand = false;
                    send(Pmi1Message.of("spawn_result", "rc", "-1", "msg", "spawn_not_supported"));
                }
                return;
            }
            try {
                handle(this, Pmi1Message.parse(line));
            } catch (PmiException e) {
                fail("sent a malformed PMI line: " + e.getMessage());
            } catch (RuntimeException e) {
                // a bug of ours must not take the server down for every other rank
                fail("sent a line the PMI server failed on: \"" + line + "\" (" + e + ")");
            }
        }

        void send(Pmi1Message... replies) {
            if (closed) {
                return;
            }
            int length = 0;
            byte[][] encoded = new byte[replies.length][];
            for (int i = 0; i < replies.length; i++) {
                encoded[i] = replies[i].encode();
                length += encoded[i].length;
            }
            ByteBuffer buffer = ByteBuffer.allocate(length);
            for (byte[] e : encoded) {
                buffer.put(e);
            }
            out.add(buffer.flip());
            flush();
        }

        void flush() {
            try {
                while (!out.isEmpty()) {
                    ByteBuffer head = out.peek();
                    channel.write(head);
                    if (head.hasRemaining()) {
                        key.interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
                        return;
                    }
                    out.poll();
                }
                key.interestOps(SelectionKey.OP_READ);
            } catch (IOException e) {
                lost();
            }
        }

        /** The peer closed or reset the connection. */
        private void lost() {
            boolean early = rank >= 0 && !finalized && !aborted;
            close();
            if (early) {
                listener.rankDisconnected(rank);
            }
        }

        void fail(String problem) {
            close();
            listener.protocolError(rank, problem);
        }

        private void close() {
            if (closed) {
                return;
            }
            closed = true;
            if (inBarrier) {
                barrierWaiters.remove(this);
                inBarrier = false;
            }
            key.cancel();
            closeQuietly(channel);
        }
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (Exception e) {
            // closing on the way out: nothing left to tell
        }
    }
}
