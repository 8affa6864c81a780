package dev.mpj.dist;

import dev.mpj.dist.PackageCycles.ClassEdge;
import dev.mpj.dist.PackageCycles.Cycle;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** The structure the code must keep: no package cycle in any module, and transports that see only the SPI. */
class NoPackageCyclesTest {
    private static List<ClassEdge> edges;

    @BeforeAll
    static void readClasses() {
        edges = ClassDependencies.among(ModuleClasses.onClassPath());
    }

    @Test
    void noModuleHasAPackageCycle() {
        List<Cycle> cycles = PackageCycles.find(edges);
        assertTrue(cycles.isEmpty(), () -> "package cycles:\n" + cycles.stream().map(Cycle::toString)
                .collect(Collectors.joining("\n")));
    }

    @Test
    void transportsUseOnlyTheSpiOfTheRuntime() {
        List<ClassEdge> beyond = edges.stream()
                .filter(e -> e.fromPackage().startsWith("dev.mpj.transport."))
                .filter(e -> e.toPackage().startsWith("dev.mpj.runtime") && !e.toPackage().equals("dev.mpj.runtime.spi"))
                .toList();
        assertTrue(beyond.isEmpty(), () -> "transports reach past the SPI: " + beyond);
    }

    @Test
    void theRuntimeUsesNoLauncherClass() {
        List<ClassEdge> up = edges.stream()
                .filter(e -> e.fromPackage().startsWith("dev.mpj.runtime"))
                .filter(e -> e.toPackage().startsWith("dev.mpj.launcher"))
                .toList();
        assertTrue(up.isEmpty(), () -> "the runtime uses the launcher: " + up);
    }
}
