package dev.mpj.dist;

import dev.mpj.dist.PackageCycles.ClassEdge;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ClassDependenciesTest {
    @Test
    void jdepsFindsTheTcpTransportsUseOfTheSpiAndLeavesLibrariesOut() {
        List<Path> modules = ModuleClasses.onClassPath();
        assertTrue(modules.size() >= 5, "the api, runtime, transports and samples, not " + modules);
        List<ClassEdge> edges = ClassDependencies.among(modules);
        assertTrue(edges.stream().anyMatch(e -> e.fromPackage().equals("dev.mpj.transport.tcp")
                && e.toPackage().equals("dev.mpj.runtime.spi")), edges::toString);
        assertFalse(edges.stream().anyMatch(e -> e.to().startsWith("java.") || e.to().startsWith("io.netty.")),
                edges::toString);
    }
}
