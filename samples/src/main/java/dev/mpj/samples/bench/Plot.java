package dev.mpj.samples.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Draws any benchmark's CSV as a line chart ({@code bench/plot}): a header row, then one row per point.
 * <pre>
 * Plot CSV OUT.svg|OUT.png [--x COLUMN] [--y COLUMN[,COLUMN...]] [--by COLUMN] [--logx] [--logy] [--title TEXT]
 * </pre>
 * The x column is the first one unless {@code --x} names another; the lines are every other numeric column, or
 * those {@code --y} names; {@code --by} splits the rows into one line per value of a column (a mode, a
 * transport), as in {@code bench/conn-sweep}'s CSV.
 */
public final class Plot {
    private Plot() {
    }

    public static void main(String[] args) throws IOException {
        boolean help = args.length > 0 && (args[0].equals("-h") || args[0].equals("--help"));
        if (help || args.length < 2) {
            System.out.println("usage: plot CSV OUT.svg|OUT.png [--x COLUMN] [--y COLUMN[,COLUMN...]] [--by COLUMN]"
                    + " [--logx] [--logy] [--title TEXT]");
            System.exit(help ? 0 : 2);
        }
        Path csv = Path.of(args[0]);
        Path out = Path.of(args[1]);
        String x = null;
        List<String> ys = null;
        String by = null;
        boolean logX = false;
        boolean logY = false;
        String title = csv.getFileName().toString();
        for (int i = 2; i < args.length; i++) {
            switch (args[i]) {
                case "--x" -> x = value(args, ++i);
                case "--y" -> ys = List.of(value(args, ++i).split(","));
                case "--by" -> by = value(args, ++i);
                case "--logx" -> logX = true;
                case "--logy" -> logY = true;
                case "--title" -> title = value(args, ++i);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        chart(CsvTable.read(csv), x, ys, by, logX, logY, title).write(out);
        System.out.println("plot: wrote " + out);
    }

    /** The chart of {@code table}; see the class comment for what the arguments choose. */
    static LineChart chart(CsvTable table, String x, List<String> ys, String by, boolean logX, boolean logY,
                           String title) {
        String xColumn = x != null ? x : table.columns().get(0);
        List<String> yColumns = ys != null ? ys : table.numericColumns().stream()
                .filter(c -> !c.equals(xColumn) && !c.equals(by)).toList();
        for (String c : concat(List.of(xColumn), yColumns, by == null ? List.of() : List.of(by))) {
            table.index(c);
        }
        if (yColumns.isEmpty()) {
            throw new IllegalArgumentException("no numeric column to draw besides " + xColumn);
        }
        LineChart chart = new LineChart(title, xColumn, yColumns.size() == 1 ? yColumns.get(0) : "");
        if (logX) {
            chart.logX();
        }
        if (logY) {
            chart.logY();
        }
        Map<String, List<List<String>>> groups = new LinkedHashMap<>();
        for (List<String> row : table.rows()) {
            groups.computeIfAbsent(by == null ? "" : row.get(table.index(by)), k -> new ArrayList<>()).add(row);
        }
        for (Map.Entry<String, List<List<String>>> group : groups.entrySet()) {
            for (String y : yColumns) {
                String name = group.getKey().isEmpty() ? y
                        : yColumns.size() == 1 ? group.getKey() : group.getKey() + " " + y;
                List<List<String>> rows = group.getValue();
                chart.series(name, rows.stream().mapToDouble(r -> number(r.get(table.index(xColumn)))).toArray(),
                        rows.stream().mapToDouble(r -> number(r.get(table.index(y)))).toArray());
            }
        }
        return chart;
    }

    private static List<String> concat(List<String> a, List<String> b, List<String> c) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        all.addAll(c);
        return all;
    }

    private static double number(String s) {
        try {
            return Double.parseDouble(s.trim());
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }

    private static String value(String[] args, int i) {
        if (i >= args.length) {
            throw new IllegalArgumentException(args[i - 1] + " needs a value");
        }
        return args[i];
    }
}
