package dev.mpj.transport.tcp;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** Collects what is printed on {@code System.err} until closed, and still passes it through. */
final class StderrCapture implements AutoCloseable {
    private final PrintStream original = System.err;
    private final ByteArrayOutputStream captured = new ByteArrayOutputStream();

    StderrCapture() {
        PrintStream tee = new PrintStream(new java.io.OutputStream() {
            @Override
            public synchronized void write(int b) {
                captured.write(b);
                original.write(b);
            }

            @Override
            public synchronized void write(byte[] b, int off, int len) {
                captured.write(b, off, len);
                original.write(b, off, len);
            }
        }, true, StandardCharsets.UTF_8);
        System.setErr(tee);
    }

    synchronized String text() {
        return captured.toString(StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        System.setErr(original);
    }
}
