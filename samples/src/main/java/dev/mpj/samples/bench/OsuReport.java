package dev.mpj.samples.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The OSU table ({@code # Size  Latency (us)} then {@code size value} rows) and its CSV twin. */
final class OsuReport {
    private final String title;
    private final String column;
    private final String csvColumn;
    private final List<String> csvRows = new ArrayList<>();
    private final PrintStream out;

    OsuReport(String title, String column, String csvColumn, PrintStream out) {
        this.title = title;
        this.column = column;
        this.csvColumn = csvColumn;
        this.out = out;
    }

    void header() {
        out.println("# " + title);
        out.printf(Locale.ROOT, "%-10s%18s%n", "# Size", column);
        out.flush();
    }

    void row(int size, double value) {
        out.printf(Locale.ROOT, "%-10d%18.2f%n", size, value);
        out.flush();
        csvRows.add(size + "," + String.format(Locale.ROOT, "%.3f", value));
    }

    /** Writes the CSV where {@code target} says: a file, "-" for standard output, null for nowhere. */
    void csv(String target) throws IOException {
        if (target == null) {
            return;
        }
        StringBuilder sb = new StringBuilder("size," + csvColumn + "\n");
        for (String row : csvRows) {
            sb.append(row).append('\n');
        }
        if (target.equals("-")) {
            out.print(sb);
            out.flush();
        } else {
            Files.writeString(Path.of(target), sb);
        }
    }
}
