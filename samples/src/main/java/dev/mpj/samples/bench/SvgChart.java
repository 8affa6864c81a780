package dev.mpj.samples.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A line chart written as a self-contained SVG file: one or more named series of (x, y) points, linear
 * or logarithmic axes, ticks and a legend. Enough for the benchmark figures in docs/PERFORMANCE.md
 * without a plotting dependency.
 */
public final class SvgChart {
    private static final String[] COLOURS = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
        "#e377c2", "#7f7f7f"};
    private static final int WIDTH = 720;
    private static final int HEIGHT = 440;
    private static final int LEFT = 80;
    private static final int RIGHT = 170;
    private static final int TOP = 40;
    private static final int BOTTOM = 60;

    private final String title;
    private final String xLabel;
    private final String yLabel;
    private boolean logX;
    private boolean logY;
    private final List<Series> series = new ArrayList<>();

    private record Series(String name, double[] x, double[] y) {
    }

    public SvgChart(String title, String xLabel, String yLabel) {
        this.title = title;
        this.xLabel = xLabel;
        this.yLabel = yLabel;
    }

    public SvgChart logX() {
        logX = true;
        return this;
    }

    public SvgChart logY() {
        logY = true;
        return this;
    }

    public SvgChart series(String name, double[] x, double[] y) {
        if (x.length != y.length) {
            throw new IllegalArgumentException("series " + name + ": " + x.length + " x values, " + y.length + " y");
        }
        series.add(new Series(name, x.clone(), y.clone()));
        return this;
    }

    public String svg() {
        double[] xr = range(true);
        double[] yr = range(false);
        if (!logY) {
            yr[0] = Math.min(0, yr[0]);
        }
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                + "font-family=\"sans-serif\" font-size=\"12\">%n", WIDTH, HEIGHT));
        s.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        s.append(text(WIDTH / 2.0, 22, title, "middle", 15));
        int plotW = WIDTH - LEFT - RIGHT;
        int plotH = HEIGHT - TOP - BOTTOM;
        s.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
                + "stroke=\"#444\"/>%n", LEFT, TOP, plotW, plotH));
        for (double t : ticks(xr, logX)) {
            double px = LEFT + plotW * frac(t, xr, logX);
            s.append(line(px, TOP + plotH, px, TOP + plotH + 5, "#444"));
            s.append(line(px, TOP, px, TOP + plotH, "#eee"));
            s.append(text(px, TOP + plotH + 18, label(t), "middle", 11));
        }
        for (double t : ticks(yr, logY)) {
            double py = TOP + plotH * (1 - frac(t, yr, logY));
            s.append(line(LEFT - 5, py, LEFT, py, "#444"));
            s.append(line(LEFT, py, LEFT + plotW, py, "#eee"));
            s.append(text(LEFT - 8, py + 4, label(t), "end", 11));
        }
        s.append(text(LEFT + plotW / 2.0, HEIGHT - 18, xLabel, "middle", 12));
        s.append(String.format(Locale.ROOT, "<text x=\"18\" y=\"%.1f\" text-anchor=\"middle\" "
                + "transform=\"rotate(-90 18 %.1f)\">%s</text>%n", TOP + plotH / 2.0, TOP + plotH / 2.0, esc(yLabel)));
        for (int i = 0; i < series.size(); i++) {
            Series sr = series.get(i);
            String colour = COLOURS[i % COLOURS.length];
            StringBuilder pts = new StringBuilder();
            for (int k = 0; k < sr.x.length; k++) {
                if (!usable(sr.x[k], logX) || !usable(sr.y[k], logY)) {
                    continue;
                }
                double px = LEFT + plotW * frac(sr.x[k], xr, logX);
                double py = TOP + plotH * (1 - frac(sr.y[k], yr, logY));
                pts.append(String.format(Locale.ROOT, "%.1f,%.1f ", px, py));
                s.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\"/>%n",
                        px, py, colour));
            }
            s.append(String.format(Locale.ROOT, "<polyline points=\"%s\" fill=\"none\" stroke=\"%s\" "
                    + "stroke-width=\"1.8\"/>%n", pts.toString().trim(), colour));
            double ly = TOP + 14 + 18 * i;
            s.append(line(LEFT + plotW + 12, ly - 4, LEFT + plotW + 32, ly - 4, colour));
            s.append(text(LEFT + plotW + 38, ly, sr.name, "start", 11));
        }
        return s.append("</svg>\n").toString();
    }

    public void write(Path file) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Files.writeString(file, svg());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    private double[] range(boolean x) {
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        boolean log = x ? logX : logY;
        for (Series sr : series) {
            for (double v : x ? sr.x : sr.y) {
                if (usable(v, log)) {
                    lo = Math.min(lo, v);
                    hi = Math.max(hi, v);
                }
            }
        }
        if (lo == Double.POSITIVE_INFINITY) {
            return new double[]{log ? 1 : 0, log ? 10 : 1};
        }
        if (lo == hi) {
            return log ? new double[]{lo / 2, hi * 2} : new double[]{lo - 1, hi + 1};
        }
        return new double[]{lo, hi};
    }

    private static boolean usable(double v, boolean log) {
        return Double.isFinite(v) && (!log || v > 0);
    }

    private static double frac(double v, double[] r, boolean log) {
        return log ? (Math.log(v) - Math.log(r[0])) / (Math.log(r[1]) - Math.log(r[0])) : (v - r[0]) / (r[1] - r[0]);
    }

    /** Powers of ten (and 2, 5 between them when few) on log axes; about six round steps on linear ones. */
    static List<Double> ticks(double[] r, boolean log) {
        List<Double> t = new ArrayList<>();
        if (log) {
            int lo = (int) Math.floor(Math.log10(r[0]));
            int hi = (int) Math.ceil(Math.log10(r[1]));
            boolean dense = hi - lo <= 2;
            for (int e = lo; e <= hi; e++) {
                for (double m : dense ? new double[]{1, 2, 5} : new double[]{1}) {
                    double v = m * Math.pow(10, e);
                    if (v >= r[0] * 0.999 && v <= r[1] * 1.001) {
                        t.add(v);
                    }
                }
            }
            return t;
        }
        double raw = (r[1] - r[0]) / 6;
        double mag = Math.pow(10, Math.floor(Math.log10(raw)));
        double step = raw / mag < 2 ? 2 * mag : raw / mag < 5 ? 5 * mag : 10 * mag;
        for (double v = Math.ceil(r[0] / step) * step; v <= r[1] + step * 1e-9; v += step) {
            t.add(v);
        }
        return t;
    }

    private static String label(double v) {
        double a = Math.abs(v);
        if (a >= 1e6) {
            return String.format(Locale.ROOT, "%.3gM", v / 1e6);
        }
        if (a >= 1e4) {
            return String.format(Locale.ROOT, "%.3gk", v / 1e3);
        }
        return a == Math.rint(a) ? String.valueOf((long) v) : String.format(Locale.ROOT, "%.3g", v);
    }

    private static String line(double x1, double y1, double x2, double y2, String colour) {
        return String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>%n",
                x1, y1, x2, y2, colour);
    }

    private static String text(double x, double y, String s, String anchor, int size) {
        return String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\">%s</text>%n",
                x, y, anchor, size, esc(s));
    }

    private static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
