package dev.mpj.launcher;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import dev.mpj.runtime.engine.WaitReport;

/**
 * Copies one rank's stdout or stderr to a launcher stream on its own thread, whole lines at a time so that
 * lines of different ranks never interleave, each optionally prefixed with {@code [rank] }. A line longer than
 * {@value #MAX_PENDING} bytes is passed on in pieces rather than held in memory. Whole lines that an
 * {@link UncaughtTraces} holds are not passed on. Lines of a wait report ({@link WaitReport#LINE}) are counted once
 * passed on, so the launcher knows when a rank has answered. A last line a rank left unterminated (killed while
 * printing) is ended when lines are prefixed or traces held (a rank's stderr, which the launcher writes to as well);
 * otherwise bytes pass on unchanged.
 */
final class OutputForwarder implements Runnable {
    static final int MAX_PENDING = 64 * 1024;

    private final InputStream from;
    private final PrintStream to;
    private final byte[] prefix;
    private final UncaughtTraces traces;
    private final AtomicInteger reportLines;
    private final ByteArrayOutputStream pending = new ByteArrayOutputStream();
    private boolean midLine;
    /** Report lines in the batch not yet passed on. */
    private int batchReportLines;

    private OutputForwarder(InputStream from, PrintStream to, String prefix, UncaughtTraces traces,
                            AtomicInteger reportLines) {
        this.traces = traces;
        this.reportLines = reportLines;
        this.from = from;
        this.to = to;
        this.prefix = prefix.getBytes(StandardCharsets.UTF_8);
    }

    /** Starts forwarding {@code from} until its end on a daemon thread named {@code name}. */
    static Thread start(InputStream from, PrintStream to, String prefix, String name) {
        return start(from, to, prefix, name, null, null);
    }

    /**
     * As {@link #start(InputStream, PrintStream, String, String)}, holding back what {@code traces} (if any) holds
     * and adding the wait report lines passed on to {@code reportLines} (if any).
     */
    static Thread start(InputStream from, PrintStream to, String prefix, String name, UncaughtTraces traces,
                        AtomicInteger reportLines) {
        Thread t = new Thread(new OutputForwarder(from, to, prefix, traces, reportLines), name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    @Override
    public void run() {
        byte[] chunk = new byte[8192];
        ByteArrayOutputStream batch = new ByteArrayOutputStream();
        try (from) {
            int n;
            while ((n = from.read(chunk)) >= 0) {
                int lineStart = 0;
                for (int i = 0; i < n; i++) {
                    if (chunk[i] == '\n') {
                        pending.write(chunk, lineStart, i + 1 - lineStart);
                        lineStart = i + 1;
                        if (!midLine && traces != null && traces.holds(pending.toByteArray())) {
                            pending.reset();
                            continue;
                        }
                        if (!midLine && reportLines != null && isReportLine(pending)) {
                            batchReportLines++;
                        }
                        startLine(batch);
                        movePending(batch);
                        midLine = false;
                    }
                }
                pending.write(chunk, lineStart, n - lineStart);
                if (pending.size() > MAX_PENDING) {
                    startLine(batch);
                    movePending(batch);
                    midLine = true;
                }
                emit(batch);
            }
        } catch (IOException e) {
            // the rank was killed and its pipe closed under us: pass on what arrived
        }
        if (pending.size() > 0) {
            startLine(batch);
            movePending(batch);
            if (prefix.length > 0 || traces != null) {
                // the next rank's prefix, or the launcher's own line about this rank, must not continue this line
                batch.write('\n');
            }
            emit(batch);
        }
    }

    private static boolean isReportLine(ByteArrayOutputStream line) {
        String text = line.toString(StandardCharsets.UTF_8).strip();
        // the prefix first: most lines are the program's, and they need no regular expression compiled
        return text.startsWith("rank ") && WaitReport.LINE.matcher(text).matches();
    }

    private void startLine(ByteArrayOutputStream batch) {
        if (!midLine) {
            batch.writeBytes(prefix);
        }
    }

    private void movePending(ByteArrayOutputStream batch) {
        if (pending.size() > 0) {
            batch.writeBytes(pending.toByteArray());
            pending.reset();
        }
    }

    private void emit(ByteArrayOutputStream batch) {
        if (batch.size() > 0) {
            to.write(batch.toByteArray(), 0, batch.size()); // one call: PrintStream writes it atomically
            to.flush();
            batch.reset();
            if (batchReportLines > 0) {
                reportLines.addAndGet(batchReportLines);
                batchReportLines = 0;
            }
        }
    }
}
