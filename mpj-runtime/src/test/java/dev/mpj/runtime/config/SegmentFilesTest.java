package dev.mpj.runtime.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SegmentFilesTest {
    @TempDir
    Path dir;

    @Test
    void aFileIsCreatedOwnerOnlyAndNeverOverAnotherOne() throws IOException {
        Path file = dir.resolve("mpj-job-n0");
        try (FileChannel channel = SegmentFiles.createOwnerOnly(file)) {
            assertTrue(channel.isOpen());
        }
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        assertThrows(FileAlreadyExistsException.class, () -> SegmentFiles.createOwnerOnly(file).close());
    }

    @Test
    void moreThanTheFileSystemHoldsIsRefusedNamingTheDirectoryAndTheSetting() {
        Path file = dir.resolve("mpj-job-n0");
        long free = dir.toFile().getUsableSpace();
        assertDoesNotThrow(() -> SegmentFiles.requireRoom(file, Math.min(free, 4096)));
        IOException e = assertThrows(IOException.class, () -> SegmentFiles.requireRoom(file, free + (1L << 40)));
        assertTrue(e.getMessage().contains(dir.toString()) && e.getMessage().contains("full")
                && e.getMessage().contains(Setting.SEGMENT_DIR.property()), e.getMessage());
    }
}
