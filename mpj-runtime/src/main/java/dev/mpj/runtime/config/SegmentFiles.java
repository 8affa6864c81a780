package dev.mpj.runtime.config;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;

/**
 * How the files that a node's ranks map (node segments, the shared PMI table, {@code MPI.Alloc_mem} regions) are
 * made in the {@link SegmentDirectory}: readable and writable by their owner only from their first moment, since the
 * job's ranks run as its user and a neighbour must neither read nor write a job's memory; and only where the file
 * system has room for them, since a mapping of a file that a full {@code tmpfs} cannot back faults at the first touch
 * of a missing page, which the JVM reports as an {@link InternalError} of whatever copy touched it.
 */
public final class SegmentFiles {
    private SegmentFiles() {
    }

    /** Read and write for this user only. */
    public static FileAttribute<Set<PosixFilePermission>> ownerOnly() {
        return PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));
    }

    /**
     * Creates {@code file}, which must not exist, owner-only, open for reading and writing.
     *
     * @throws IOException as {@link FileChannel#open}, when it exists among others
     */
    public static FileChannel createOwnerOnly(Path file) throws IOException {
        return FileChannel.open(file, EnumSet.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE), ownerOnly());
    }

    /**
     * Checks that the file system of {@code file} has {@code length} bytes free for this user. A check, not a
     * reservation: another process can fill the file system afterwards, so memory that must never fault is written
     * when it is made, as {@code Alloc_mem}'s regions are.
     *
     * @throws IOException naming the directory, what it has and what is needed, when it is too small
     */
    public static void requireRoom(Path file, long length) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        long free = dir.toFile().getUsableSpace();
        // 0 also when the size cannot be read, which is no reason to refuse
        if (free > 0 && free < length) {
            throw new IOException("the file system of " + dir + " is full: " + free + " bytes free, " + length
                    + " needed (" + Setting.SEGMENT_DIR.property() + " names another directory)");
        }
    }
}
