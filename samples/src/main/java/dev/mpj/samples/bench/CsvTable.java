package dev.mpj.samples.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A CSV file as the benchmarks write it: a header row, then rows of fields; a field may be quoted ("a,b"), a
 * quote inside doubled. Lines starting with {@code #} and blank lines are left out.
 */
record CsvTable(List<String> columns, List<List<String>> rows) {
    static CsvTable read(Path file) throws IOException {
        List<List<String>> lines = new ArrayList<>();
        for (String line : Files.readAllLines(file)) {
            if (!line.isBlank() && !line.startsWith("#")) {
                lines.add(fields(line));
            }
        }
        if (lines.isEmpty()) {
            throw new IllegalArgumentException(file + " has no header row");
        }
        return new CsvTable(List.copyOf(lines.get(0)), List.copyOf(lines.subList(1, lines.size())));
    }

    /** The position of {@code column}. */
    int index(String column) {
        int i = columns.indexOf(column);
        if (i < 0) {
            throw new IllegalArgumentException("no column '" + column + "' (columns: " + columns + ")");
        }
        return i;
    }

    /** Columns whose every value is a number. */
    List<String> numericColumns() {
        List<String> numeric = new ArrayList<>();
        for (int c = 0; c < columns.size(); c++) {
            boolean all = !rows.isEmpty();
            for (List<String> row : rows) {
                all &= c < row.size() && isNumber(row.get(c));
            }
            if (all) {
                numeric.add(columns.get(c));
            }
        }
        return numeric;
    }

    static List<String> fields(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder f = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char ch = line.charAt(i);
            if (quoted) {
                if (ch == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    f.append('"');
                    i++;
                } else if (ch == '"') {
                    quoted = false;
                } else {
                    f.append(ch);
                }
            } else if (ch == '"') {
                quoted = true;
            } else if (ch == ',') {
                out.add(f.toString().trim());
                f.setLength(0);
            } else {
                f.append(ch);
            }
        }
        out.add(f.toString().trim());
        return out;
    }

    private static boolean isNumber(String s) {
        try {
            Double.parseDouble(s);
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
