package dev.mpj.samples.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The OSU table ({@code # Size  Latency (us)} then {@code size value…} rows, printed as they come) and its CSV
 * twin. A table may have several value columns (OSU's {@code -f}: average, minimum, maximum, iterations) and no
 * size column at all (OSU's barrier test).
 */
final class OsuReport {
    private static final int SIZE_WIDTH = 10;
    private static final int VALUE_WIDTH = 18;

    private final String title;
    private final boolean sized;
    private final List<String> columns;
    private final List<String> csvColumns;
    private final List<String> csvRows = new ArrayList<>();
    private final PrintStream out;

    /** A table of one value per size. */
    OsuReport(String title, String column, String csvColumn, PrintStream out) {
        this(title, true, List.of(column), List.of(csvColumn), out);
    }

    /**
     * @param sized      whether rows start with a message size
     * @param columns    headings of the value columns in the table
     * @param csvColumns names of the same columns in the CSV
     */
    OsuReport(String title, boolean sized, List<String> columns, List<String> csvColumns, PrintStream out) {
        if (columns.isEmpty() || columns.size() != csvColumns.size()) {
            throw new IllegalArgumentException("needs one CSV name per column: " + columns + " " + csvColumns);
        }
        this.title = title;
        this.sized = sized;
        this.columns = List.copyOf(columns);
        this.csvColumns = List.copyOf(csvColumns);
        this.out = out;
    }

    void header() {
        StringBuilder h = new StringBuilder(sized ? String.format(Locale.ROOT, "%-" + SIZE_WIDTH + "s", "# Size") : "#");
        for (String c : columns) {
            h.append(String.format(Locale.ROOT, "%" + VALUE_WIDTH + "s", c));
        }
        out.println("# " + title);
        out.println(h);
        out.flush();
    }

    /** A row of a sized table; integral values print without decimals. */
    void row(int size, Number... values) {
        if (!sized) {
            throw new IllegalStateException("this table has no size column");
        }
        line(String.format(Locale.ROOT, "%-" + SIZE_WIDTH + "d", size), size + ",", values);
    }

    /** The row of a table without sizes. */
    void unsizedRow(Number... values) {
        if (sized) {
            throw new IllegalStateException("this table has a size column");
        }
        line(" ", "", values);
    }

    private void line(String sizeField, String csvSize, Number[] values) {
        if (values.length != columns.size()) {
            throw new IllegalArgumentException(values.length + " values for " + columns.size() + " columns");
        }
        StringBuilder text = new StringBuilder(sizeField);
        StringBuilder csv = new StringBuilder(csvSize);
        for (int i = 0; i < values.length; i++) {
            boolean integral = values[i] instanceof Integer || values[i] instanceof Long;
            text.append(integral ? String.format(Locale.ROOT, "%" + VALUE_WIDTH + "d", values[i].longValue())
                    : String.format(Locale.ROOT, "%" + VALUE_WIDTH + ".2f", values[i].doubleValue()));
            csv.append(i > 0 ? "," : "").append(integral ? values[i].toString()
                    : String.format(Locale.ROOT, "%.3f", values[i].doubleValue()));
        }
        out.println(text);
        out.flush();
        csvRows.add(csv.toString());
    }

    /** Writes the CSV where {@code target} says: a file, "-" for standard output, null for nowhere. */
    void csv(String target) throws IOException {
        if (target == null) {
            return;
        }
        StringBuilder sb = new StringBuilder(sized ? "size," : "").append(String.join(",", csvColumns)).append('\n');
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
