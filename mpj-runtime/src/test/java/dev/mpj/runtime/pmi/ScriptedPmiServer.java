package dev.mpj.runtime.pmi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A PMI server on 127.0.0.1 that plays a script: for each expected request (a PMI-1 line, or a PMI-2 frame
 * body), it checks the request and writes the scripted reply with one write, optionally after a gate opens
 * (to play a server that holds its answer back). It records every chunk it reads, so tests can check that
 * each command arrived whole. Serves one connection.
 */
final class ScriptedPmiServer implements AutoCloseable {
    static final String KVS = "kvs_1109_0_1085937641_vm";

    private record Step(String request, String reply, boolean closeAfter, boolean framed, CountDownLatch gate) {
    }

    private final ServerSocket listener;
    private final List<Step> script = new ArrayList<>();
    private final List<String> requests = new CopyOnWriteArrayList<>();
    private final List<String> chunks = new ArrayList<>();
    private Thread thread;
    private volatile Throwable failure;
    private volatile long bytesReceived;
    private volatile long bytesSent;

    ScriptedPmiServer() throws IOException {
        listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
    }

    /** Expects {@code request}; answers with {@code replies}, one line each, in a single write. */
    ScriptedPmiServer expect(String request, String... replies) {
        return add(request, replies, false);
    }

    /** Expects {@code request}, answers, then closes the connection. */
    ScriptedPmiServer expectThenClose(String request, String... replies) {
        return add(request, replies, true);
    }

    private ScriptedPmiServer add(String request, String[] replies, boolean closeAfter) {
        script.add(new Step(request, replies.length == 0 ? "" : String.join("\n", replies) + "\n", closeAfter,
                false, null));
        return this;
    }

    /**
     * Expects a PMI-2 frame whose body is {@code body}; answers with {@code reply} as given (the test frames
     * it, e.g. with {@link Pmi2Frames#hydra}), or with nothing when {@code reply} is empty.
     */
    ScriptedPmiServer expectFrame(String body, String reply) {
        return expectFrame(body, reply, null);
    }

    /** As {@link #expectFrame(String, String)}, replying only once {@code gate} is open. */
    ScriptedPmiServer expectFrame(String body, String reply, CountDownLatch gate) {
        script.add(new Step(body, reply, false, true, gate));
        return this;
    }

    /** The three-command init sequence, answered in the given style. */
    ScriptedPmiServer expectInit(PmiServerStyle style) {
        return expect("cmd=init pmi_version=1 pmi_subversion=1", style.responseToInit())
                .expect("cmd=get_maxes", style.maxes())
                .expect("cmd=get_my_kvsname", style.myKvsName(KVS));
    }

    String hostPort() {
        return "127.0.0.1:" + listener.getLocalPort();
    }

    int port() {
        return listener.getLocalPort();
    }

    ScriptedPmiServer start() {
        thread = new Thread(this::serve, "scripted-pmi-server");
        thread.setDaemon(true);
        thread.start();
        return this;
    }

    private void serve() {
        try (Socket socket = listener.accept()) {
            InputStream in = socket.getInputStream();
            OutputStream out = socket.getOutputStream();
            StringBuilder pending = new StringBuilder();
            byte[] buffer = new byte[8192];
            for (Step step : script) {
                String line;
                if (step.framed()) {
                    readAtLeast(in, buffer, pending, 6, step);
                    int length = Integer.parseInt(pending.substring(0, 6).strip());
                    readAtLeast(in, buffer, pending, 6 + length, step);
                    line = pending.substring(6, 6 + length);
                    pending.delete(0, 6 + length);
                } else {
                    int nl;
                    while ((nl = pending.indexOf("\n")) < 0) {
                        readChunk(in, buffer, pending, step);
                    }
                    line = pending.substring(0, nl);
                    pending.delete(0, nl + 1);
                }
                requests.add(line);
                assertEquals(step.request(), line, "request #" + requests.size());
                if (step.gate() != null) {
                    step.gate().await();
                }
                byte[] reply = step.reply().getBytes(StandardCharsets.ISO_8859_1);
                out.write(reply);
                out.flush();
                bytesSent += reply.length;
                if (step.closeAfter()) {
                    return;
                }
            }
            // Script done: anything more the client sends is unexpected, up to its close.
            int n = in.read(buffer);
            if (n > 0) {
                String extra = new String(buffer, 0, n, StandardCharsets.ISO_8859_1);
                chunks.add(extra);
                throw new AssertionError("unexpected request after the script: " + extra.strip());
            }
        } catch (Throwable t) {
            failure = t;
        }
    }

    private void readAtLeast(InputStream in, byte[] buffer, StringBuilder pending, int n, Step step)
            throws IOException {
        while (pending.length() < n) {
            readChunk(in, buffer, pending, step);
        }
    }

    private void readChunk(InputStream in, byte[] buffer, StringBuilder pending, Step step) throws IOException {
        int n = in.read(buffer);
        if (n < 0) {
            throw new AssertionError("client closed the connection; expected " + step.request());
        }
        String chunk = new String(buffer, 0, n, StandardCharsets.ISO_8859_1);
        chunks.add(chunk);
        bytesReceived += n;
        pending.append(chunk);
    }

    /** The requests received so far, in order (PMI-1 lines without '\n', PMI-2 bodies). */
    List<String> requests() {
        return List.copyOf(requests);
    }

    /** Waits for the script to finish (the client closed or the server hung up) and rethrows its failure. */
    void verify() throws Throwable {
        thread.join(10_000);
        if (thread.isAlive()) {
            throw new AssertionError("scripted PMI server still waiting; requests so far: " + requests);
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** Every chunk a read returned, in order. */
    List<String> chunks() {
        return chunks;
    }

    long bytesReceived() {
        return bytesReceived;
    }

    long bytesSent() {
        return bytesSent;
    }

    @Override
    public void close() throws IOException {
        listener.close();
    }
}
