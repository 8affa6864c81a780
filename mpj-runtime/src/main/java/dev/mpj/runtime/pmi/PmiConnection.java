package dev.mpj.runtime.pmi;

import dev.mpj.runtime.pmi.wire.Pmi1Message;
import dev.mpj.runtime.pmi.wire.Pmi2Message;
import dev.mpj.runtime.pmi.wire.PmiException;
import dev.mpj.runtime.pmi.wire.PmiSecret;
import dev.mpj.runtime.pmi.wire.PmiVariables;

import java.io.Closeable;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The wire layer under {@link Pmi1Client} and {@link Pmi2Client}: writes each message with one {@code write}
 * call (Slurm reads a request with a single {@code read}, Hydra's proxy shares one buffer between local ranks)
 * and reads replies through a small buffer of its own, either as PMI-1 lines (rejecting lines longer than
 * {@link Pmi1Message#MAX_LINE}) or as PMI-2 frames (a PMI-2 conversation starts with PMI-1 lines). Counts the
 * bytes both ways.
 */
final class PmiConnection implements Closeable {
    /** Room for a few lines or one PMI-2 frame: the port-mode handshake answers with four lines at once. */
    private static final int BUFFER = 4 * Pmi1Message.MAX_LINE;

    private final InputStream in;
    private final OutputStream out;
    private final Closeable resource;
    private final PmiCounters counters = new PmiCounters();
    private final byte[] buffer = new byte[BUFFER];
    private int start;
    private int end;
    private boolean closed;

    PmiConnection(InputStream in, OutputStream out, Closeable resource) {
        this.in = in;
        this.out = out;
        this.resource = resource;
    }

    /**
     * A connection over the socket the process's starter left open as file descriptor {@code fd}: the AF_UNIX socket
     * of {@code PMI_FD}, or mpjrun's TCP connection to {@code PMI_PORT} ({@code MPJ_PMI_PORT_FD}).
     */
    static PmiConnection overFd(int fd) {
        FileDescriptor descriptor = InheritedFileDescriptor.of(fd);
        FileInputStream in = new FileInputStream(descriptor);
        FileOutputStream out = new FileOutputStream(descriptor);
        return new PmiConnection(in, out, new BothStreams(in, out));
    }

    /** Closes the two streams over one descriptor (a class, not a lambda: no lambda bootstrap in MPI.Init). */
    private record BothStreams(FileInputStream in, FileOutputStream out) implements Closeable {
        @Override
        public void close() throws IOException {
            try {
                out.close();
            } finally {
                in.close();
            }
        }
    }

    /**
     * A TCP connection to {@code hostPort} ({@code PMI_PORT}, Hydra's {@code -pmi-port} mode, mpjrun). When
     * {@code secret} is not null (mpjrun's {@value PmiVariables#SECRET}) it is shown first, unanswered.
     */
    static PmiConnection overPort(String hostPort, String secret) {
        InetSocketAddress address = Pmi1Client.parseHostPort(hostPort);
        // PMI never goes through a proxy; a plain Socket would ask the proxy selector, loaded cold for it
        Socket socket = new Socket(Proxy.NO_PROXY);
        try {
            socket.setTcpNoDelay(true);
            socket.connect(address);
            PmiConnection connection = new PmiConnection(socket.getInputStream(), socket.getOutputStream(), socket);
            if (secret != null) {
                connection.send(PmiSecret.message(secret));
            }
            return connection;
        } catch (IOException e) {
            try {
                socket.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw new PmiException("cannot connect to the process manager at PMI_PORT=" + hostPort + ": "
                    + e.getMessage(), e);
        }
    }

    /**
     * Readies, on another thread, the JDK's network start-up that {@link #overPort} would otherwise do first on the
     * caller's: the address's classes and parsing, the native libraries and the socket layer (a socket is made,
     * its option set and closed, never connected). Never throws: a failure shows again, with its own error, in
     * {@link #overPort}.
     */
    static void warmUpPort(String hostPort) {
        try {
            Pmi1Client.parseHostPort(hostPort);
            try (Socket socket = new Socket(Proxy.NO_PROXY)) {
                socket.setTcpNoDelay(true);
            }
        } catch (IOException | RuntimeException | LinkageError e) {
            // the connection itself will say what is wrong
        }
    }

    PmiCounters counters() {
        return counters;
    }

    /** Sends one request and returns its reply, which must be the command {@code expectedReply}. */
    Pmi1Message call(Pmi1Message request, String expectedReply) {
        send(request);
        return reply(request, expectedReply);
    }

    /** The reply to {@code request}, sent earlier; it must be the command {@code expectedReply}. */
    Pmi1Message reply(Pmi1Message request, String expectedReply) {
        Pmi1Message reply = receive(expectedReply);
        if (!expectedReply.equals(reply.command())) {
            throw new PmiException("expected cmd=" + expectedReply + " in reply to cmd=" + request.command()
                    + " but the process manager sent: " + reply);
        }
        return reply;
    }

    /** Sends one message as a single write. Encoding errors surface before any byte leaves. */
    void send(Pmi1Message message) {
        write(message.encode(), message.command());
    }

    /** Sends one PMI-2 frame as a single write. */
    void send(Pmi2Message message) {
        write(message.encode(), message.command());
    }

    /** Sends one PMI-2 request and returns its reply, which must be the command {@code expectedReply}. */
    Pmi2Message call(Pmi2Message request, String expectedReply) {
        send(request);
        Pmi2Message reply = receiveFrame(expectedReply);
        if (!expectedReply.equals(reply.command())) {
            throw new PmiException("expected cmd=" + expectedReply + " in reply to cmd=" + request.command()
                    + " but the process manager sent: " + reply);
        }
        return reply;
    }

    /** Reads and parses the next PMI-2 frame; {@code awaited} names what the caller waits for. */
    Pmi2Message receiveFrame(String awaited) {
        int length;
        try {
            length = Pmi2Message.parseLength(new String(readExactly(Pmi2Message.LENGTH_FIELD, awaited),
                    StandardCharsets.ISO_8859_1));
        } catch (PmiException e) {
            throw new PmiException("malformed PMI-2 frame while waiting for cmd=" + awaited + ": " + e.getMessage(), e);
        }
        return Pmi2Message.parse(new String(readExactly(length, awaited), StandardCharsets.ISO_8859_1));
    }

    private void write(byte[] bytes, String command) {
        ensureOpen();
        try {
            out.write(bytes);
            out.flush();
        } catch (IOException e) {
            throw new PmiException("cannot send cmd=" + command + " to the process manager: "
                    + e.getMessage(), e);
        }
        counters.countBytes(bytes.length, 0);
    }

    /** The next {@code n} bytes (n ≤ the buffer size). */
    private byte[] readExactly(int n, String awaited) {
        ensureOpen();
        while (end - start < n) {
            if (start > 0) {
                System.arraycopy(buffer, start, buffer, 0, end - start);
                end -= start;
                start = 0;
            }
            fill(awaited);
        }
        byte[] bytes = Arrays.copyOfRange(buffer, start, start + n);
        start += n;
        counters.countBytes(0, n);
        return bytes;
    }

    /** Reads more bytes into the buffer after {@code end}; fails on end of stream. */
    private void fill(String awaited) {
        int n;
        try {
            n = in.read(buffer, end, buffer.length - end);
        } catch (IOException e) {
            throw new PmiException("cannot read from the process manager while waiting for cmd=" + awaited
                    + ": " + e.getMessage(), e);
        }
        if (n < 0) {
            throw new PmiException("process manager closed the PMI connection while this process waited for cmd="
                    + awaited + (end > start ? " (in the middle of a message)" : ""));
        }
        end += n;
    }

    /** Reads and parses the next line; {@code awaited} names what the caller waits for, for error messages. */
    Pmi1Message receive(String awaited) {
        return Pmi1Message.parse(readLine(awaited));
    }

    private String readLine(String awaited) {
        ensureOpen();
        int scanned = start;
        while (true) {
            for (int i = scanned; i < end; i++) {
                if (buffer[i] == '\n') {
                    // ISO-8859-1 maps every byte to one char, so Pmi1Message.parse sees and rejects non-ASCII bytes.
                    String line = new String(buffer, start, i - start, StandardCharsets.ISO_8859_1);
                    counters.countBytes(0, i + 1 - start);
                    start = i + 1;
                    return line;
                }
            }
            if (end - start >= Pmi1Message.MAX_LINE) {
                throw new PmiException("the process manager sent a line longer than " + (Pmi1Message.MAX_LINE - 1)
                        + " characters while this process waited for cmd=" + awaited);
            }
            scanned = end;
            if (end == buffer.length) {
                System.arraycopy(buffer, start, buffer, 0, end - start);
                scanned -= start;
                end -= start;
                start = 0;
            }
            fill(awaited);
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new PmiException("the PMI connection is closed");
        }
    }

    boolean isClosed() {
        return closed;
    }

    /** Closes the underlying channel; idempotent, never throws. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            resource.close();
        } catch (IOException e) {
            // Nothing useful to do: the conversation is over either way.
        }
    }
}
