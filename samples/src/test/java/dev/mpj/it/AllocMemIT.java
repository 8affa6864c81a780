package dev.mpj.it;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Messages from {@code MPI.Alloc_mem} memory, and packed sends of other arrays, arrive whole ({@link
 * AllocMemProgram}): over shared memory, where a rendezvous is copied once straight out of the sender's memory, and
 * across two fake nodes, where a pair of ranks talks TCP and the same buffers take the ordinary path. The memory's
 * files are gone once the job has ended.
 */
@Timeout(180)
@Tag("multi-jvm")
class AllocMemIT {
    private static final Pattern SHARED = Pattern.compile("shared copies (\\d+) rank (\\d+)");
    private static final Pattern REGION_FILES = Pattern.compile("region files (\\d+) rank (\\d+)");

    /**
     * {@code copiers}: how many ranks receive from a peer of their node, and so copy their rendezvous messages out of
     * its memory (the ring's previous rank; with two fake nodes of two ranks, ranks 1 and 3).
     */
    @ParameterizedTest(name = "np {0}, {1} fake nodes")
    @CsvSource({"2, 0, 2", "4, 2, 2"})
    void everyPayloadFromAllocMemArrivesWhole(int np, int fakeNodes, int copiers) throws IOException {
        Job.Result r = runLeavingNoFiles(np, fakeNodes, AllocMemProgram.class);
        assertEquals(np, r.linesContaining("allocmem OK rank"), r::toString);
        assertEquals(copiers, ranksThatCopied(r), r::toString);
    }

    /**
     * Packed sends of {@code double[]} and {@code int[]} ({@link PackedSendProgram}) pack a rendezvous for a node peer
     * into this rank's shared memory, which the peer copies from once: {@code copiers} ranks receive so (none in a job
     * of one, none over TCP); the memory is reused round after round, so a rank holds no more region files than a
     * thread keeps spares, and none once the job has ended.
     */
    @ParameterizedTest(name = "np {0}, {1} fake nodes")
    @CsvSource({"1, 0, 0", "2, 0, 2", "4, 2, 2"})
    void packedSendsToANodePeerAreCopiedOnceFromSharedMemory(int np, int fakeNodes, int copiers) throws IOException {
        Job.Result r = runLeavingNoFiles(np, fakeNodes, PackedSendProgram.class);
        assertEquals(np, r.linesContaining("packedsend OK rank"), r::toString);
        assertEquals(copiers, ranksThatCopied(r), r::toString);
        Matcher files = REGION_FILES.matcher(r.toString());
        while (files.find()) {
            assertTrue(Long.parseLong(files.group(1)) <= 16, r::toString);
        }
    }

    /** Runs {@code program} with its segments in a directory of its own; asserts it exited 0 and left no file. */
    private static Job.Result runLeavingNoFiles(int np, int fakeNodes, Class<?> program) throws IOException {
        Path shm = Path.of("/dev/shm");
        Path segments = Files.createTempDirectory(Files.isDirectory(shm) ? shm : Path.of(System.getProperty(
                "java.io.tmpdir")), "mpj-allocmem-");
        List<Path> left;
        Job.Result r;
        try {
            Job job = Job.np(np).env("MPJ_SEGMENT_DIR", segments.toString()).timeout(150);
            if (fakeNodes > 0) {
                job.launcherOptions("--fake-nodes", Integer.toString(fakeNodes));
            }
            r = job.run(program);
        } finally {
            try (Stream<Path> files = Files.list(segments)) {
                left = files.toList();
            }
            for (Path file : left) {
                Files.deleteIfExists(file);
            }
            Files.deleteIfExists(segments);
        }
        assertEquals(0, r.exitCode(), r::toString);
        assertTrue(r.leftovers().isEmpty(), "rank JVMs left behind");
        assertEquals(List.of(), left, "files the job left");
        return r;
    }

    /** How many ranks copied at least one message straight out of a peer's memory. */
    private static int ranksThatCopied(Job.Result r) {
        int copying = 0;
        Matcher m = SHARED.matcher(r.toString());
        while (m.find()) {
            copying += Long.parseLong(m.group(1)) > 0 ? 1 : 0;
        }
        return copying;
    }
}
