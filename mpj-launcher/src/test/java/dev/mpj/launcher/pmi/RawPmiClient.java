package dev.mpj.launcher.pmi;

import dev.mpj.runtime.pmi.wire.Pmi1Message;
import dev.mpj.runtime.pmi.wire.Pmi2Message;
import dev.mpj.runtime.pmi.wire.PmiSecret;
import dev.mpj.runtime.pmi.wire.PmiVariables;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A rank's side of PMI port mode in raw PMI-1 lines and PMI-2 frames, for tests: no client logic beyond writing
 * and reading messages.
 */
public final class RawPmiClient implements AutoCloseable {
    private final Socket socket;
    private final BufferedReader in;
    private final OutputStream out;

    private RawPmiClient(Socket socket) throws IOException {
        this.socket = socket;
        this.in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
        this.out = socket.getOutputStream();
    }

    /** Connects to {@code host:port}; replies not arriving within {@code timeoutMillis} fail the read. */
    public static RawPmiClient connect(String hostPort, int timeoutMillis) {
        int colon = hostPort.lastIndexOf(':');
        try {
            Socket s = new Socket();
            s.connect(new InetSocketAddress(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1))));
            s.setTcpNoDelay(true);
            s.setSoTimeout(timeoutMillis);
            return new RawPmiClient(s);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Connects to {@code host:port} and shows {@code secret} first, as a rank of mpjrun does. */
    public static RawPmiClient connect(String hostPort, int timeoutMillis, String secret) {
        RawPmiClient c = connect(hostPort, timeoutMillis);
        c.send(PmiSecret.message(secret));
        return c;
    }

    /** As a rank started by mpjrun: connect to PMI_PORT, show the job's secret, initack with PMI_ID, init. */
    public static RawPmiClient fromEnvironment() {
        RawPmiClient c = connect(System.getenv("PMI_PORT"), 0, System.getenv(PmiVariables.SECRET));
        c.initack(Integer.parseInt(System.getenv("PMI_ID")));
        Pmi1Message init = c.call(Pmi1Message.of("init", "pmi_version", "1", "pmi_subversion", "1"));
        if (init.rc() != 0) {
            throw new IllegalStateException("init refused: " + init);
        }
        return c;
    }

    /** Sends {@code cmd=initack pmiid=id} and returns the four lines of the answer. */
    public List<Pmi1Message> initack(int id) {
        send(Pmi1Message.of("initack", "pmiid", Integer.toString(id)));
        List<Pmi1Message> replies = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            replies.add(reply());
        }
        return replies;
    }

    public Pmi1Message call(Pmi1Message request) {
        send(request);
        return reply();
    }

    public Pmi1Message call(String command, String... keyValues) {
        return call(Pmi1Message.of(command, keyValues));
    }

    public void send(Pmi1Message request) {
        sendRaw(request.encode());
    }

    public void sendRaw(byte[] bytes) {
        try {
            out.write(bytes);
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Sends one PMI-2 frame and reads the reply frame. */
    public Pmi2Message call2(String command, String... keyValues) {
        send2(command, keyValues);
        return frame();
    }

    public void send2(String command, String... keyValues) {
        sendRaw(Pmi2Message.of(command, keyValues).encode());
    }

    /** The next PMI-2 frame. */
    public Pmi2Message frame() {
        int length = Pmi2Message.parseLength(new String(readChars(Pmi2Message.LENGTH_FIELD)));
        return Pmi2Message.parse(new String(readChars(length)));
    }

    private char[] readChars(int n) {
        char[] chars = new char[n];
        try {
            for (int done = 0; done < n; ) {
                int r = in.read(chars, done, n - done);
                if (r < 0) {
                    throw new IllegalStateException("the PMI server closed the connection");
                }
                done += r;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return chars;
    }

    public Pmi1Message reply() {
        String line = readLine();
        if (line == null) {
            throw new IllegalStateException("the PMI server closed the connection");
        }
        return Pmi1Message.parse(line);
    }

    /** The next line, or null at end of stream. */
    public String readLine() {
        try {
            return in.readLine();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The next line, or null at end of stream or when the server reset the connection. */
    public String readLineOrReset() {
        try {
            return in.readLine();
        } catch (SocketException e) {
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Whether nothing at all arrives within {@code millis}; what does arrive is left to be read. */
    public boolean silentFor(int millis) {
        try {
            int previous = socket.getSoTimeout();
            socket.setSoTimeout(millis);
            try {
                in.mark(1);
                in.read();
                in.reset();
                return false;
            } catch (SocketTimeoutException e) {
                return true;
            } finally {
                socket.setSoTimeout(previous);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
