package dev.mpj.launcher.agent;

import java.util.ArrayList;
import java.util.List;

/**
 * The k-ary tree the node agents form (decision 0036): node i's children are k·i+1 … k·i+k, so a launch along it
 * takes O(log_k nodes) steps, as Slurm's TreeWidth does for its step daemons.
 */
public final class TreeShape {
    private TreeShape() {
    }

    /** The children of {@code node} in a tree of {@code nodes} nodes, {@code width} children at most each. */
    public static List<Integer> children(int node, int nodes, int width) {
        List<Integer> children = new ArrayList<>();
        for (long c = (long) width * node + 1; c <= (long) width * node + width && c < nodes; c++) {
            children.add((int) c);
        }
        return children;
    }

    /** The parent of {@code node} (not the root). */
    public static int parent(int node, int width) {
        return (node - 1) / width;
    }

    /** How many levels a tree of {@code nodes} nodes has: 1 for the root alone. */
    public static int depth(int nodes, int width) {
        int depth = 0;
        for (long levelEnd = 0, level = 1; levelEnd < nodes; level *= width) {
            levelEnd += level;
            depth++;
        }
        return depth;
    }
}
