package dev.mpj.runtime.pmi;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The line layer under {@link Pmi1Client}: writes each message with one {@code write} call (Slurm reads a
 * request with a single {@code read}, Hydra's proxy shares one buffer between local ranks) and reads replies
 * one line at a time through a small buffer of its own, rejecting lines longer than
 * {@link Pmi1Message#MAX_LINE}. Counts the bytes both ways.
 */
final class Pmi1Connection implements Closeable {
    /** Room for a few lines: the port-mode handshake answers with four at once. */
    private static final int BUFFER = 4 * Pmi1Message.MAX_LINE;

    private final InputStream in;
    private final OutputStream out;
    private final Closeable resource;
    private final PmiCounters counters = new PmiCounters();
    private final byte[] buffer = new byte[BUFFER];
    private int start;
    private int end;
    private boolean closed;

    Pmi1Connection(InputStream in, OutputStream out, Closeable resource) {
        this.in = in;
        this.out = out;
        this.resource = resource;
    }

    PmiCounters counters() {
        return counters;
    }

    /** Sends one request and returns its reply, which must be the command {@code expectedReply}. */
    Pmi1Message call(Pmi1Message request, String expectedReply) {
        send(request);
        Pmi1Message reply = receive(expectedReply);
        if (!expectedReply.equals(reply.command())) {
            throw new PmiException("expected cmd=" + expectedReply + " in reply to cmd=" + request.command()
                    + " but the process manager sent: " + reply);
        }
        return reply;
    }

    /** Sends one message as a single write. Encoding errors surface before any byte leaves. */
    void send(Pmi1Message message) {
        byte[] bytes = message.encode();
        ensureOpen();
        try {
            out.write(bytes);
            out.flush();
        } catch (IOException e) {
            throw new PmiException("cannot send cmd=" + message.command() + " to the process manager: "
                    + e.getMessage(), e);
        }
        counters.countBytes(bytes.length, 0);
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
            int n;
            try {
                n = in.read(buffer, end, buffer.length - end);
            } catch (IOException e) {
                throw new PmiException("cannot read from the process manager while waiting for cmd=" + awaited
                        + ": " + e.getMessage(), e);
            }
            if (n < 0) {
                throw new PmiException("process manager closed the PMI connection while this process waited for cmd="
                        + awaited + (end > start ? " (in the middle of a line)" : ""));
            }
            end += n;
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
