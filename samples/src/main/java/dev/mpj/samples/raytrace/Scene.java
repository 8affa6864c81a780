package dev.mpj.samples.raytrace;

import java.io.Serializable;

/**
 * A few reflective spheres over a checkered floor, lit by one point light, seen through a pinhole camera.
 * Serializable, so rank 0 builds it and broadcasts it as an {@code MPI.OBJECT}. Rendering is deterministic
 * (Java's floating point is the same on every JVM), so a row rendered on any rank has the same pixels.
 */
public final class Scene implements Serializable {
    private static final long serialVersionUID = 1L;
    private static final int MAX_DEPTH = 3;
    private static final double EPS = 1e-6;

    private final Sphere[] spheres;
    private final double[] light;
    private final int width;
    private final int height;

    /** One sphere: centre, radius, colour (0..1 per channel) and the share of light it reflects. */
    public record Sphere(double[] centre, double radius, double[] colour, double reflect) implements Serializable {
    }

    public Scene(int width, int height) {
        this.width = width;
        this.height = height;
        this.light = new double[] {-4, 6, -5};
        this.spheres = new Sphere[] {
            new Sphere(new double[] {0, 0, 3}, 1, new double[] {0.9, 0.2, 0.2}, 0.3),
            new Sphere(new double[] {-1.8, -0.3, 4}, 0.7, new double[] {0.2, 0.8, 0.3}, 0.5),
            new Sphere(new double[] {1.7, -0.4, 2.4}, 0.6, new double[] {0.3, 0.4, 0.9}, 0.2),
            new Sphere(new double[] {0.3, -0.8, 1.6}, 0.2, new double[] {0.9, 0.9, 0.2}, 0.6),
        };
    }

    public int width() {
        return width;
    }

    public int height() {
        return height;
    }

    /** Row {@code y} of the image, top row 0, as 0xRRGGBB pixels. */
    public int[] renderRow(int y) {
        int[] row = new int[width];
        double aspect = (double) width / height;
        for (int x = 0; x < width; x++) {
            double px = (2 * (x + 0.5) / width - 1) * aspect;
            double py = 1 - 2 * (y + 0.5) / height;
            double[] dir = normalise(new double[] {px, py, 1.5});
            row[x] = rgb(trace(new double[] {0, 0.2, -1.5}, dir, 0));
        }
        return row;
    }

    private double[] trace(double[] origin, double[] dir, int depth) {
        double nearest = Double.MAX_VALUE;
        Sphere hit = null;
        for (Sphere s : spheres) {
            double t = intersect(s, origin, dir);
            if (t > EPS && t < nearest) {
                nearest = t;
                hit = s;
            }
        }
        double floorT = dir[1] < 0 ? (-1 - origin[1]) / dir[1] : Double.MAX_VALUE;
        if (hit == null && floorT == Double.MAX_VALUE) {
            return new double[] {0.5 + 0.3 * dir[1], 0.7 + 0.2 * dir[1], 1.0}; // sky
        }
        double[] point;
        double[] normal;
        double[] colour;
        double reflect;
        if (hit != null && nearest < floorT) {
            point = along(origin, dir, nearest);
            normal = normalise(minus(point, hit.centre()));
            colour = hit.colour();
            reflect = hit.reflect();
        } else {
            point = along(origin, dir, floorT);
            normal = new double[] {0, 1, 0};
            boolean dark = ((int) Math.floor(point[0]) + (int) Math.floor(point[2])) % 2 == 0;
            colour = dark ? new double[] {0.2, 0.2, 0.2} : new double[] {0.9, 0.9, 0.9};
            reflect = 0.1;
        }
        double[] toLight = minus(light, point);
        double lightDistance = Math.sqrt(dot(toLight, toLight));
        toLight = scale(toLight, 1 / lightDistance);
        double diffuse = Math.max(0, dot(normal, toLight));
        double[] start = along(point, normal, 1e-4);
        for (Sphere s : spheres) {
            double t = intersect(s, start, toLight);
            if (t > EPS && t < lightDistance) {
                diffuse *= 0.3; // in shadow
                break;
            }
        }
        double[] result = scale(colour, 0.15 + 0.85 * diffuse);
        if (depth < MAX_DEPTH && reflect > 0) {
            double[] mirrored = minus(dir, scale(normal, 2 * dot(dir, normal)));
            double[] seen = trace(start, normalise(mirrored), depth + 1);
            result = plus(scale(result, 1 - reflect), scale(seen, reflect));
        }
        return result;
    }

    /** Distance along the ray to the nearer intersection with {@code s}, or -1. */
    private static double intersect(Sphere s, double[] origin, double[] dir) {
        double[] oc = minus(origin, s.centre());
        double b = dot(oc, dir);
        double c = dot(oc, oc) - s.radius() * s.radius();
        double disc = b * b - c;
        if (disc < 0) {
            return -1;
        }
        double root = Math.sqrt(disc);
        double t = -b - root;
        return t > EPS ? t : -b + root;
    }

    private static int rgb(double[] c) {
        int r = (int) Math.round(255 * Math.min(1, Math.max(0, c[0])));
        int g = (int) Math.round(255 * Math.min(1, Math.max(0, c[1])));
        int b = (int) Math.round(255 * Math.min(1, Math.max(0, c[2])));
        return r << 16 | g << 8 | b;
    }

    private static double dot(double[] a, double[] b) {
        return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    }

    private static double[] minus(double[] a, double[] b) {
        return new double[] {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
    }

    private static double[] plus(double[] a, double[] b) {
        return new double[] {a[0] + b[0], a[1] + b[1], a[2] + b[2]};
    }

    private static double[] scale(double[] a, double k) {
        return new double[] {a[0] * k, a[1] * k, a[2] * k};
    }

    private static double[] along(double[] origin, double[] dir, double t) {
        return plus(origin, scale(dir, t));
    }

    private static double[] normalise(double[] a) {
        return scale(a, 1 / Math.sqrt(dot(a, a)));
    }
}
