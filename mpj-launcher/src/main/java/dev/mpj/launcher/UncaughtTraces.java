package dev.mpj.launcher;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Holds back the stack traces a rank's JVM prints for uncaught exceptions ({@code Exception in thread "…"} and
 * the lines that continue it: those starting with a tab or {@code Caused by: }), so the launcher can decide at
 * the end of the job whether they are shown, logged, or summed up in one line. Other lines pass on. Fed by one
 * forwarder thread, read by the launcher once that thread has ended.
 */
final class UncaughtTraces {
    private static final String HEADER = "Exception in thread \"";

    private final List<List<String>> traces = new ArrayList<>();
    private boolean inTrace;

    /** Whether {@code line} (with its end of line) is part of an uncaught trace, which is then held here. */
    synchronized boolean holds(byte[] line) {
        String text = new String(line, StandardCharsets.UTF_8);
        if (text.startsWith(HEADER)) {
            traces.add(new ArrayList<>());
            inTrace = true;
        } else if (!inTrace || !(text.startsWith("\t") || text.startsWith("Caused by: "))) {
            inTrace = false;
            return false;
        }
        traces.get(traces.size() - 1).add(text);
        return true;
    }

    synchronized boolean isEmpty() {
        return traces.isEmpty();
    }

    /** Every held line, as printed. */
    synchronized String text() {
        StringBuilder b = new StringBuilder();
        traces.forEach(t -> t.forEach(b::append));
        return b.toString();
    }

    /** The first uncaught exception, e.g. {@code java.lang.IllegalStateException: broken}; null when none. */
    synchronized String firstCause() {
        if (traces.isEmpty()) {
            return null;
        }
        String header = traces.get(0).get(0).strip();
        int thread = header.indexOf("\" ", HEADER.length());
        return thread < 0 ? header : header.substring(thread + 2);
    }
}
