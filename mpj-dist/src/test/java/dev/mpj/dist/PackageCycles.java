package dev.mpj.dist;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The package cycles of a set of classes: the strongly connected components of more than one package in the
 * graph where package A points to package B when a class of A uses a class of B (Tarjan's algorithm).
 */
final class PackageCycles {
    /** One class's use of a class in another package. */
    record ClassEdge(String from, String to) {
        String fromPackage() {
            return packageOf(from);
        }

        String toPackage() {
            return packageOf(to);
        }

        private static String packageOf(String className) {
            int dot = className.lastIndexOf('.');
            return dot < 0 ? "" : className.substring(0, dot);
        }
    }

    /** Packages that reach each other, by name, and one class edge for each arrow between two of them. */
    record Cycle(List<String> packages, List<ClassEdge> arrows) {
        @Override
        public String toString() {
            StringBuilder s = new StringBuilder(String.join(" <-> ", packages));
            for (ClassEdge e : arrows) {
                s.append("\n  ").append(e.fromPackage()).append(" -> ").append(e.toPackage())
                        .append("  (").append(e.from()).append(" -> ").append(e.to()).append(')');
            }
            return s.toString();
        }
    }

    /** Package to package, each arrow with the first class edge (by name) that makes it. */
    private final Map<String, Map<String, ClassEdge>> arrows = new TreeMap<>();
    private final Map<String, Integer> index = new HashMap<>();
    private final Map<String, Integer> lowLink = new HashMap<>();
    private final Deque<String> stack = new ArrayDeque<>();
    private final Set<String> onStack = new HashSet<>();
    private final List<Cycle> cycles = new ArrayList<>();

    private PackageCycles(Collection<ClassEdge> edges) {
        for (ClassEdge e : edges) {
            Map<String, ClassEdge> out = arrows.computeIfAbsent(e.fromPackage(), p -> new TreeMap<>());
            arrows.computeIfAbsent(e.toPackage(), p -> new TreeMap<>());
            if (!e.fromPackage().equals(e.toPackage())) {
                out.merge(e.toPackage(), e, PackageCycles::first);
            }
        }
    }

    /** The cycles among the packages of these class edges, ordered by their first package. */
    static List<Cycle> find(Collection<ClassEdge> edges) {
        PackageCycles search = new PackageCycles(edges);
        for (String p : search.arrows.keySet()) {
            if (!search.index.containsKey(p)) {
                search.connect(p);
            }
        }
        search.cycles.sort((a, b) -> a.packages().get(0).compareTo(b.packages().get(0)));
        return search.cycles;
    }

    private void connect(String p) {
        index.put(p, index.size());
        lowLink.put(p, index.get(p));
        stack.push(p);
        onStack.add(p);
        for (String q : arrows.get(p).keySet()) {
            if (!index.containsKey(q)) {
                connect(q);
                lowLink.put(p, Math.min(lowLink.get(p), lowLink.get(q)));
            } else if (onStack.contains(q)) {
                lowLink.put(p, Math.min(lowLink.get(p), index.get(q)));
            }
        }
        if (lowLink.get(p).equals(index.get(p))) {
            Set<String> component = new TreeSet<>();
            String q;
            do {
                q = stack.pop();
                onStack.remove(q);
                component.add(q);
            } while (!q.equals(p));
            if (component.size() > 1) {
                cycles.add(cycle(component));
            }
        }
    }

    private Cycle cycle(Set<String> component) {
        List<ClassEdge> inside = new ArrayList<>();
        for (String p : component) {
            for (Map.Entry<String, ClassEdge> arrow : arrows.get(p).entrySet()) {
                if (component.contains(arrow.getKey())) {
                    inside.add(arrow.getValue());
                }
            }
        }
        return new Cycle(List.copyOf(component), List.copyOf(inside));
    }

    private static ClassEdge first(ClassEdge a, ClassEdge b) {
        int c = a.from().compareTo(b.from());
        return (c != 0 ? c : a.to().compareTo(b.to())) <= 0 ? a : b;
    }
}
