package dev.mpj.runtime.init;

import org.agrona.BufferUtil;
import org.agrona.SystemUtil;

/**
 * Readies on the watchdog's thread, while the caller's thread connects to the process manager, the cold start-up
 * that the caller's first mappings would otherwise run on every rank's way to the exchange's fence, in the order
 * the caller needs it:
 * <ul>
 *   <li>the JDK's {@code ExtendedMapMode}, which the first {@code FileChannel.map} (the shared KVS table's under
 *       mpjrun, else the node segment's) initialises: a lambda linked, a constructor found as a method handle and
 *       invoked twice;</li>
 *   <li>Agrona's {@link SystemUtil}, which the node segment's first buffer needs: its static initialiser starts the
 *       JDK's process API ({@code ProcessHandle.current()}, the reaper's executor, a seeded random);</li>
 *   <li>Agrona's {@link BufferUtil}, which that buffer needs next: its static initialiser links {@code UnsafeApi}'s
 *       {@code arrayBaseOffset} call site (an {@code invokedynamic} with a bootstrap of Agrona's) and looks up two
 *       fields by reflection.</li>
 * </ul>
 * Initialising a class twice is impossible, so whichever thread comes second waits for the first or finds it done.
 */
final class MappingWarmUp {
    /** Not exported by {@code java.base}: named, since no code outside it may refer to it. */
    static final String EXTENDED_MAP_MODE = "jdk.internal.misc.ExtendedMapMode";

    private MappingWarmUp() {
    }

    /** Never throws: a failure here shows again, with its own error, where the caller's thread needs the class. */
    static void run() {
        initialise(EXTENDED_MAP_MODE, null);
        try {
            SystemUtil.getPid();
        } catch (RuntimeException | LinkageError e) {
            // the watchdog's work matters more
        }
        // the class literal alone would not initialise it
        initialise(BufferUtil.class.getName(), MappingWarmUp.class.getClassLoader());
    }

    private static void initialise(String className, ClassLoader loader) {
        try {
            Class.forName(className, true, loader);
        } catch (ClassNotFoundException | RuntimeException | LinkageError e) {
            // another JDK, or no segment export: the caller's thread meets the failure where it needs the class
        }
    }
}
