package dev.mpj.samples;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * One run's result as a CSV row, for {@code --csv FILE|-}: {@code -} prints the header and the row; a file gets
 * the row appended, and the header first when the file is new or empty, so runs accumulate into one table.
 */
public final class ResultCsv {
    private ResultCsv() {
    }

    /** The value of {@code --csv} on a command line, or null when it has none. */
    public static String target(String[] args) {
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals("--csv")) {
                return args[i + 1];
            }
        }
        return null;
    }

    /** Writes {@code values} under {@code columns} to {@code target} (a file, or {@code -} for standard output). */
    public static void write(String target, List<String> columns, List<?> values) {
        if (columns.size() != values.size()) {
            throw new IllegalArgumentException(columns.size() + " columns, " + values.size() + " values");
        }
        String header = String.join(",", columns) + "\n";
        String row = values.stream().map(ResultCsv::field).collect(Collectors.joining(",")) + "\n";
        if (target.equals("-")) {
            System.out.print(header + row);
            System.out.flush();
            return;
        }
        Path file = Path.of(target);
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            boolean fresh = !Files.exists(file) || Files.size(file) == 0;
            Files.writeString(file, fresh ? header + row : row, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    private static String field(Object v) {
        String s = v instanceof Double d ? String.format(Locale.ROOT, "%.6g", d) : String.valueOf(v);
        return s.contains(",") || s.contains("\"") ? '"' + s.replace("\"", "\"\"") + '"' : s;
    }
}
