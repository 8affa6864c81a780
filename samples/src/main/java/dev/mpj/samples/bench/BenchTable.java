package dev.mpj.samples.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Rows of benchmark results with named columns: printed in the OSU layout ({@code # Size  Latency (us)}
 * header, then aligned rows) and written as CSV, so every benchmark reports the same way.
 */
public final class BenchTable {
    private final List<String> columns;
    private final List<Object[]> rows = new ArrayList<>();

    public BenchTable(String... columns) {
        this.columns = List.of(columns);
    }

    /** Adds a row; numbers print with two decimals unless integral. */
    public BenchTable row(Object... values) {
        if (values.length != columns.size()) {
            throw new IllegalArgumentException("row of " + values.length + " values for " + columns.size() + " columns");
        }
        rows.add(values.clone());
        return this;
    }

    public List<String> columns() {
        return columns;
    }

    public List<Object[]> rows() {
        return rows;
    }

    /** The OSU layout: a '#' header line, then one line per row, columns right-aligned. */
    public void print(PrintStream out) {
        int[] width = new int[columns.size()];
        for (int c = 0; c < width.length; c++) {
            width[c] = columns.get(c).length() + (c == 0 ? 2 : 0);
            for (Object[] r : rows) {
                width[c] = Math.max(width[c], format(r[c]).length());
            }
        }
        StringBuilder h = new StringBuilder();
        for (int c = 0; c < width.length; c++) {
            String name = c == 0 ? "# " + columns.get(c) : columns.get(c);
            h.append(c == 0 ? pad(name, width[c], false) : "  " + pad(name, width[c], true));
        }
        out.println(h);
        for (Object[] r : rows) {
            StringBuilder line = new StringBuilder();
            for (int c = 0; c < width.length; c++) {
                line.append(c == 0 ? pad(format(r[c]), width[c], false) : "  " + pad(format(r[c]), width[c], true));
            }
            out.println(line);
        }
        out.flush();
    }

    /** CSV with a header row; values unformatted beyond plain decimal notation. */
    public String csv() {
        StringBuilder sb = new StringBuilder(String.join(",", columns)).append('\n');
        for (Object[] r : rows) {
            sb.append(String.join(",", Arrays.stream(r).map(BenchTable::csvValue).toList())).append('\n');
        }
        return sb.toString();
    }

    public void writeCsv(Path file) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Files.writeString(file, csv());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    static String format(Object v) {
        if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            return String.format(Locale.ROOT, "%.2f", d);
        }
        return String.valueOf(v);
    }

    private static String csvValue(Object v) {
        String s = v instanceof Double || v instanceof Float
                ? String.format(Locale.ROOT, "%.6g", ((Number) v).doubleValue()) : String.valueOf(v);
        return s.contains(",") || s.contains("\"") ? "\"" + s.replace("\"", "\"\"") + "\"" : s;
    }

    private static String pad(String s, int width, boolean right) {
        if (s.length() >= width) {
            return s;
        }
        String fill = " ".repeat(width - s.length());
        return right ? fill + s : s + fill;
    }
}
