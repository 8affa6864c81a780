package dev.mpj.runtime.node;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** This process's id, as {@code MPI.Init} needs it for liveness slots and segment headers. */
public final class ProcessId {
    private static final Path SELF = Path.of("/proc/self");

    private ProcessId() {
    }

    /**
     * The pid, from the {@code /proc/self} link where there is one: {@code ProcessHandle.current()} initialises
     * the process API first (its reaper executor and a seeded random), some milliseconds of a cold JVM's init.
     */
    public static long current() {
        try {
            return Long.parseLong(Files.readSymbolicLink(SELF).toString());
        } catch (IOException | UnsupportedOperationException | NumberFormatException e) {
            return ProcessHandle.current().pid();
        }
    }
}
