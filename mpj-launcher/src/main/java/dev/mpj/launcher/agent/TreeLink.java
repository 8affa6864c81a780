package dev.mpj.launcher.agent;

import dev.mpj.launcher.pmi.PmiUpstream;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One connection between a node agent and its parent: typed messages, each a kind byte and its fields (ints,
 * longs, and strings as a length and UTF-8 bytes). Sends may come from any thread; one thread reads.
 */
public final class TreeLink implements AutoCloseable {
    /** Longest string a peer may send before it has shown the job's secret. */
    static final int HELLO_MAX = 256;

    /** What travels between agents. */
    public sealed interface Message {
    }

    /** Child to parent, first: the job's secret and the child's node. */
    public record Hello(String secret, int node) implements Message {
    }

    /** Parent to child, after a hello: what the child needs to start its ranks, opaque here. */
    public record Spec(byte[] bytes) implements Message {
    }

    /** Up: the puts of a subtree's ranks, all in the fence. Down ({@code done}): the whole job's. */
    public record Fence(boolean done, Map<String, String> entries) implements Message {
    }

    /** Up: a subtree's allgather values by rank. */
    public record Allgather(SortedMap<Integer, String> values) implements Message {
    }

    /** Down: every rank's allgather value, in rank order. */
    public record AllgatherDone(List<String> values) implements Message {
    }

    /** Up: a subtree's ring parts by rank. */
    public record Ring(SortedMap<Integer, PmiUpstream.RingPart> parts) implements Message {
    }

    /** Down: the ring's answers by rank, for the ranks of the receiving subtree. */
    public record RingDone(Map<Integer, PmiUpstream.RingAnswer> answers) implements Message {
    }

    /** Up: something that happened to a rank or an agent, for the root ({@link TreeEvent}). */
    public record Event(TreeEvent.Kind kind, int subject, long value, String text) implements Message {
    }

    private static final byte HELLO = 1;
    private static final byte SPEC = 2;
    private static final byte FENCE = 3;
    private static final byte ALLGATHER = 4;
    private static final byte ALLGATHER_DONE = 5;
    private static final byte RING = 6;
    private static final byte RING_DONE = 7;
    private static final byte EVENT = 8;

    private final Socket socket;
    private final DataInputStream in;
    private final DataOutputStream out;

    public TreeLink(Socket socket) throws IOException {
        this.socket = socket;
        socket.setTcpNoDelay(true);
        this.in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
        this.out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
    }

    Socket socket() {
        return socket;
    }

    /** Sends {@code m} and flushes; an IOException means the peer is gone. */
    public synchronized void send(Message m) throws IOException {
        if (m instanceof Hello h) {
            out.writeByte(HELLO);
            writeString(h.secret());
            out.writeInt(h.node());
        } else if (m instanceof Spec s) {
            out.writeByte(SPEC);
            out.writeInt(s.bytes().length);
            out.write(s.bytes());
        } else if (m instanceof Fence f) {
            out.writeByte(FENCE);
            out.writeBoolean(f.done());
            out.writeInt(f.entries().size());
            for (Map.Entry<String, String> e : f.entries().entrySet()) {
                writeString(e.getKey());
                writeString(e.getValue());
            }
        } else if (m instanceof Allgather a) {
            out.writeByte(ALLGATHER);
            out.writeInt(a.values().size());
            for (Map.Entry<Integer, String> e : a.values().entrySet()) {
                out.writeInt(e.getKey());
                writeString(e.getValue());
            }
        } else if (m instanceof AllgatherDone a) {
            out.writeByte(ALLGATHER_DONE);
            out.writeInt(a.values().size());
            for (String v : a.values()) {
                writeString(v);
            }
        } else if (m instanceof Ring r) {
            out.writeByte(RING);
            out.writeInt(r.parts().size());
            for (Map.Entry<Integer, PmiUpstream.RingPart> e : r.parts().entrySet()) {
                out.writeInt(e.getKey());
                out.writeInt(e.getValue().count());
                writeString(e.getValue().left());
                writeString(e.getValue().right());
            }
        } else if (m instanceof RingDone r) {
            out.writeByte(RING_DONE);
            out.writeInt(r.answers().size());
            for (Map.Entry<Integer, PmiUpstream.RingAnswer> e : r.answers().entrySet()) {
                out.writeInt(e.getKey());
                out.writeLong(e.getValue().count());
                writeString(e.getValue().left());
                writeString(e.getValue().right());
            }
        } else if (m instanceof Event e) {
            out.writeByte(EVENT);
            out.writeByte(e.kind().ordinal());
            out.writeInt(e.subject());
            out.writeLong(e.value());
            writeString(e.text());
        }
        out.flush();
    }

    /** The peer's first message, which must be a hello, read with a cap on its size. */
    Hello readHello() throws IOException {
        if (in.readByte() != HELLO) {
            throw new IOException("the first message is not a hello");
        }
        return new Hello(readString(HELLO_MAX), in.readInt());
    }

    /** The next message; EOFException when the peer closed. */
    public Message read() throws IOException {
        byte kind = in.readByte();
        switch (kind) {
            case SPEC -> {
                byte[] bytes = new byte[count()];
                in.readFully(bytes);
                return new Spec(bytes);
            }
            case FENCE -> {
                boolean done = in.readBoolean();
                int n = count();
                Map<String, String> entries = new HashMap<>();
                for (int i = 0; i < n; i++) {
                    entries.put(readString(), readString());
                }
                return new Fence(done, entries);
            }
            case ALLGATHER -> {
                int n = count();
                SortedMap<Integer, String> values = new TreeMap<>();
                for (int i = 0; i < n; i++) {
                    values.put(in.readInt(), readString());
                }
                return new Allgather(values);
            }
            case ALLGATHER_DONE -> {
                int n = count();
                List<String> values = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    values.add(readString());
                }
                return new AllgatherDone(values);
            }
            case RING -> {
                int n = count();
                SortedMap<Integer, PmiUpstream.RingPart> parts = new TreeMap<>();
                for (int i = 0; i < n; i++) {
                    parts.put(in.readInt(), new PmiUpstream.RingPart(in.readInt(), readString(), readString()));
                }
                return new Ring(parts);
            }
            case RING_DONE -> {
                int n = count();
                Map<Integer, PmiUpstream.RingAnswer> answers = new HashMap<>();
                for (int i = 0; i < n; i++) {
                    answers.put(in.readInt(), new PmiUpstream.RingAnswer(in.readLong(), readString(), readString()));
                }
                return new RingDone(answers);
            }
            case EVENT -> {
                int k = in.readByte();
                if (k < 0 || k >= TreeEvent.Kind.values().length) {
                    throw new IOException("an event of unknown kind " + k);
                }
                return new Event(TreeEvent.Kind.values()[k], in.readInt(), in.readLong(), readString());
            }
            default -> throw new IOException("a message of unknown kind " + kind);
        }
    }

    private int count() throws IOException {
        int n = in.readInt();
        if (n < 0) {
            throw new IOException("a negative count " + n);
        }
        return n;
    }

    private void writeString(String s) throws IOException {
        if (s == null) {
            out.writeInt(-1);
            return;
        }
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(b.length);
        out.write(b);
    }

    private String readString() throws IOException {
        return readString(Integer.MAX_VALUE);
    }

    private String readString(int max) throws IOException {
        int n = in.readInt();
        if (n == -1) {
            return null;
        }
        if (n < -1 || n > max) {
            throw new IOException("a string of " + n + " bytes");
        }
        byte[] b = new byte[n];
        in.readFully(b);
        return new String(b, StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // gone already
        }
    }

    static boolean isEnd(IOException e) {
        return e instanceof EOFException;
    }
}
