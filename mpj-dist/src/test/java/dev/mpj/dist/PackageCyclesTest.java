package dev.mpj.dist;

import dev.mpj.dist.PackageCycles.ClassEdge;
import dev.mpj.dist.PackageCycles.Cycle;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class PackageCyclesTest {
    @Test
    void packagesThatOnlyPointDownwardHaveNoCycle() {
        assertEquals(List.of(), PackageCycles.find(List.of(
                new ClassEdge("a.A", "b.B"), new ClassEdge("b.B", "c.C"), new ClassEdge("a.A", "c.C"))));
    }

    @Test
    void classesUsingEachOtherInOnePackageAreNoCycle() {
        assertEquals(List.of(), PackageCycles.find(List.of(new ClassEdge("a.A", "a.B"), new ClassEdge("a.B", "a.A"))));
    }

    @Test
    void aCycleNamesItsPackagesAndTheFirstClassEdgeOfEachArrow() {
        List<Cycle> cycles = PackageCycles.find(List.of(
                new ClassEdge("a.X", "b.Y"),
                new ClassEdge("b.Y", "c.Z"),
                new ClassEdge("c.Z", "a.X"),
                new ClassEdge("c.Q", "a.W"),
                new ClassEdge("d.D", "a.X")));
        assertEquals(List.of(new Cycle(List.of("a", "b", "c"), List.of(
                new ClassEdge("a.X", "b.Y"), new ClassEdge("b.Y", "c.Z"), new ClassEdge("c.Q", "a.W")))), cycles);
        assertEquals("a <-> b <-> c\n"
                + "  a -> b  (a.X -> b.Y)\n"
                + "  b -> c  (b.Y -> c.Z)\n"
                + "  c -> a  (c.Q -> a.W)", cycles.get(0).toString());
    }

    @Test
    void separateCyclesAreReportedApart() {
        List<Cycle> cycles = PackageCycles.find(List.of(
                new ClassEdge("c.C", "d.D"), new ClassEdge("d.D", "c.C"),
                new ClassEdge("b.B", "c.C"),
                new ClassEdge("a.A", "b.B"), new ClassEdge("b.B", "a.A")));
        assertEquals(List.of(List.of("a", "b"), List.of("c", "d")), cycles.stream().map(Cycle::packages).toList());
    }
}
