package dev.mpj.api;

import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * A wait condition for {@link MpiBackend#await} that can also say what it waits for, so the runtime can tell a
 * user which call of which rank hangs. {@link #describePending} runs on another thread while the MPI thread waits:
 * it reads what was set before the wait began, and a stale answer about what has completed since is harmless.
 */
public interface WaitCondition extends BooleanSupplier {
    /** Adds one entry per operation still pending, such as {@code Recv(source=0, tag=99, COMM_WORLD)}. */
    void describePending(List<String> entries);
}
