package dev.mpj.launcher.pmi;

import dev.mpj.runtime.pmi.wire.Pmi1Message;
import dev.mpj.runtime.pmi.wire.Pmi2Message;
import dev.mpj.runtime.pmi.wire.PmiException;

import java.io.IOException;
import java.net.InetAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;

/**
 * The framing of one client connection: a buffer in, cut into PMI-1 lines and, once the client has switched to
 * PMI-2 ({@link #speakPmi2()}), length-framed PMI-2 messages, each handed to {@link Pmi1Commands} or
 * {@link Pmi2Commands}; a queue of unwritten replies out. Also what the job knows of the client: its rank, and
 * whether it finalized or aborted. The first line must show the job's secret ({@link ConnectionGate}); until it
 * has, nothing the client sends reaches the job. A client that breaks the framing, or whose message the commands
 * reject, is {@link #fail failed}: its connection is closed, and when it had identified itself as a rank the
 * job's listener is told; before that, the connection is merely {@link #reject rejected}.
 */
final class PmiClientConnection {
    private final SocketChannel channel;
    private final SelectionKey key;
    private final Pmi1Commands pmi1;
    private final Pmi2Commands pmi2Commands;
    private final PmiJob job;
    private final ConnectionGate gate;
    private final InetAddress source;
    private final ByteBuffer in = ByteBuffer.allocate(Pmi2Message.LENGTH_FIELD + Pmi2Message.MAX_BODY);
    private final ArrayDeque<ByteBuffer> out = new ArrayDeque<>();
    private int rank = -1;
    private boolean finalized;
    private boolean aborted;
    /** Set by {@code init pmi_version=2}: messages not starting with cmd= or mcmd= are PMI-2 frames. */
    private boolean pmi2;
    private boolean skippingMultiLineCommand;
    private boolean showedSecret;
    private boolean closed;

    PmiClientConnection(SocketChannel channel, SelectionKey key, InetAddress source, Pmi1Commands pmi1,
                        Pmi2Commands pmi2Commands, PmiJob job, ConnectionGate gate) {
        this.channel = channel;
        this.key = key;
        this.source = source;
        this.pmi1 = pmi1;
        this.pmi2Commands = pmi2Commands;
        this.job = job;
        this.gate = gate;
    }

    /** The client's rank, or -1 until it has identified itself. */
    int rank() {
        return rank;
    }

    void identify(int rank) {
        this.rank = rank;
        gate.settled(this);
    }

    void markFinalized() {
        finalized = true;
    }

    void markAborted() {
        aborted = true;
    }

    /** From the next message on, whatever does not start with cmd= or mcmd= is a PMI-2 frame. */
    void speakPmi2() {
        pmi2 = true;
    }

    /** Skips the lines of a multi-line command ({@code mcmd=spawn}) up to its {@code endcmd}. */
    void skipMultiLineCommand() {
        skippingMultiLineCommand = true;
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
        int consumed = 0;
        while (!closed) {
            int used = isFrame(bytes, consumed, in.position())
                    ? consumeFrame(bytes, consumed, in.position())
                    : consumeLine(bytes, consumed, in.position());
            if (used == 0) {
                break;
            }
            consumed += used;
        }
        if (closed) {
            return;
        }
        in.flip().position(consumed);
        in.compact();
        if (in.position() >= Pmi1Message.MAX_LINE && !isFrame(bytes, 0, in.position())) {
            lineTooLong(bytes, 0);
        }
    }

    private void lineTooLong(byte[] bytes, int from) {
        fail("sent a malformed PMI line: longer than " + Pmi1Message.MAX_LINE + " bytes, starting "
                + quote(new String(bytes, from, 61, StandardCharsets.ISO_8859_1)));
    }

    /**
     * Whether the message at {@code from} is a PMI-2 frame: only after {@code init pmi_version=2}, and then,
     * as Hydra decides, when it does not start with {@code cmd=} or {@code mcmd=} (a length field never does).
     */
    private boolean isFrame(byte[] bytes, int from, int to) {
        if (!pmi2 || skippingMultiLineCommand) {
            return false;
        }
        return !startsWith(bytes, from, to, "cmd=") && !startsWith(bytes, from, to, "mcmd=");
    }

    /** True also when the bytes so far are a prefix of {@code prefix}: the line is still arriving. */
    private static boolean startsWith(byte[] bytes, int from, int to, String prefix) {
        for (int i = 0; i < prefix.length(); i++) {
            if (from + i >= to) {
                return i > 0;
            }
            if (bytes[from + i] != prefix.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** Handles one complete line at {@code from}; returns the bytes used, 0 when the line is incomplete. */
    private int consumeLine(byte[] bytes, int from, int to) {
        for (int i = from; i < to; i++) {
            if (bytes[i] == '\n') {
                if (i + 1 - from > Pmi1Message.MAX_LINE) {
                    lineTooLong(bytes, from);
                    return 0;
                }
                // ISO-8859-1 keeps every byte one char, so Pmi1Message.parse sees and rejects non-ASCII
                handleLine(new String(bytes, from, i - from, StandardCharsets.ISO_8859_1));
                return i + 1 - from;
            }
        }
        return 0;
    }

    /** Handles one complete frame at {@code from}; returns the bytes used, 0 when incomplete or failed. */
    private int consumeFrame(byte[] bytes, int from, int to) {
        if (to - from < Pmi2Message.LENGTH_FIELD) {
            return 0;
        }
        String field = new String(bytes, from, Pmi2Message.LENGTH_FIELD, StandardCharsets.ISO_8859_1);
        int length;
        try {
            length = Pmi2Message.parseLength(field);
        } catch (PmiException e) {
            fail("sent a malformed PMI-2 frame: " + e.getMessage());
            return 0;
        }
        int end = from + Pmi2Message.LENGTH_FIELD + length;
        if (end > to) {
            return 0;
        }
        String body = new String(bytes, from + Pmi2Message.LENGTH_FIELD, length, StandardCharsets.ISO_8859_1);
        try {
            pmi2Commands.handle(this, Pmi2Message.parse(body));
        } catch (PmiException e) {
            fail("sent a malformed PMI-2 frame: " + e.getMessage());
        } catch (RuntimeException e) {
            fail("sent a PMI-2 message the PMI server failed on: \"" + body + "\" (" + e + ")");
        }
        return end - from;
    }

    private void handleLine(String line) {
        if (skippingMultiLineCommand) {
            if (line.equals("endcmd")) {
                skippingMultiLineCommand = false;
                pmi1.multiLineCommandEnded(this);
            }
            return;
        }
        try {
            Pmi1Message m = Pmi1Message.parse(line);
            if (showedSecret) {
                pmi1.handle(this, m);
            } else if (gate.showsSecret(m)) {
                showedSecret = true;
                gate.settled(this);
            } else {
                reject("sent " + quote(line) + " without showing the job's secret first");
            }
        } catch (PmiException e) {
            fail("sent a malformed PMI line: " + e.getMessage());
        } catch (RuntimeException e) {
            // a bug of ours must not take the server down for every other rank
            fail("sent a line the PMI server failed on: \"" + line + "\" (" + e + ")");
        }
    }

    /** Queues replies, each a {@link Pmi1Message} or a {@link Pmi2Message}, as one buffer, and flushes. */
    void send(Object... replies) {
        if (closed) {
            return;
        }
        int length = 0;
        byte[][] encoded = new byte[replies.length][];
        for (int i = 0; i < replies.length; i++) {
            encoded[i] = replies[i] instanceof Pmi2Message m2 ? m2.encode() : ((Pmi1Message) replies[i]).encode();
            length += encoded[i].length;
        }
        ByteBuffer buffer = ByteBuffer.allocate(length);
        for (byte[] e : encoded) {
            buffer.put(e);
        }
        out.add(buffer.flip());
        flush();
    }

    /** Queues bytes that other connections get too (encoded once, read-only here), and flushes. */
    void sendShared(ByteBuffer shared) {
        if (closed) {
            return;
        }
        out.add(shared.asReadOnlyBuffer());
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
            job.listener().rankDisconnected(rank);
        }
    }

    /**
     * The client broke the protocol: closes its connection. A rank's failure is the job's, so the listener is
     * told; a connection not identified yet is only rejected.
     */
    void fail(String problem) {
        if (rank < 0) {
            reject(problem);
            return;
        }
        close();
        job.listener().protocolError(rank, problem);
    }

    /** Closes a connection that is no rank's, at once and without lingering, and counts it; {@code problem} follows "it". */
    void reject(String problem) {
        if (closed) {
            return;
        }
        try {
            channel.setOption(StandardSocketOptions.SO_LINGER, 0); // a reset: no TIME_WAIT left on the server's port
        } catch (IOException | RuntimeException e) {
            // closed by the peer already
        }
        gate.rejected(source, problem, System.nanoTime()); // reported before the peer can see the close
        close();
    }

    private void close() {
        if (closed) {
            return;
        }
        closed = true;
        gate.settled(this);
        job.forget(this);
        key.cancel();
        PmiSelectorLoop.closeQuietly(channel);
    }

    /** A stranger's line for the log: printable ASCII, at most 60 characters, quoted. */
    private static String quote(String line) {
        StringBuilder sb = new StringBuilder("\"");
        for (int i = 0; i < Math.min(line.length(), 60); i++) {
            char ch = line.charAt(i);
            sb.append(ch >= 0x20 && ch < 0x7f ? ch : '?');
        }
        return sb.append(line.length() > 60 ? "…\"" : "\"").toString();
    }
}
