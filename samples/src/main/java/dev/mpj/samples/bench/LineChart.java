package dev.mpj.samples.bench;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;

import java.awt.Color;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * A benchmark's line chart, drawn by XChart into a PNG or SVG file: named series of (x, y) points, linear or
 * logarithmic axes, a legend outside the plot. Headless: no display is needed.
 */
public final class LineChart {
    private static final int WIDTH = 800;
    private static final int HEIGHT = 480;

    private final XYChart chart;

    public LineChart(String title, String xLabel, String yLabel) {
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
        chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title).xAxisTitle(xLabel).yAxisTitle(yLabel)
                .build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
    }

    public LineChart logX() {
        chart.getStyler().setXAxisLogarithmic(true);
        return this;
    }

    public LineChart logY() {
        chart.getStyler().setYAxisLogarithmic(true);
        return this;
    }

    /** Adds a line; points whose value a logarithmic axis cannot show (zero or less) are left out. */
    public LineChart series(String name, double[] x, double[] y) {
        if (x.length != y.length) {
            throw new IllegalArgumentException("series " + name + ": " + x.length + " x values, " + y.length + " y");
        }
        int n = 0;
        double[] xs = new double[x.length];
        double[] ys = new double[y.length];
        for (int i = 0; i < x.length; i++) {
            if (shown(x[i], chart.getStyler().isXAxisLogarithmic())
                    && shown(y[i], chart.getStyler().isYAxisLogarithmic())) {
                xs[n] = x[i];
                ys[n++] = y[i];
            }
        }
        if (n > 0) {
            chart.addSeries(name, Arrays.copyOf(xs, n), Arrays.copyOf(ys, n));
        }
        return this;
    }

    /** Names of the lines drawn, in the order they were added. */
    public List<String> seriesNames() {
        return List.copyOf(chart.getSeriesMap().keySet());
    }

    /** Writes the chart to {@code file}: PNG or SVG, by its ending ({@code .png}, {@code .svg}). */
    public void write(Path file) {
        String name = file.toString();
        try {
            if (name.endsWith(".png")) {
                BitmapEncoder.saveBitmap(chart, name, BitmapEncoder.BitmapFormat.PNG);
            } else if (name.endsWith(".svg")) {
                VectorGraphicsEncoder.saveVectorGraphic(chart, name, VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
            } else {
                throw new IllegalArgumentException("a chart is written as .png or .svg, not " + file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the chart " + file, e);
        }
    }

    private static boolean shown(double v, boolean log) {
        return Double.isFinite(v) && (!log || v > 0);
    }
}
