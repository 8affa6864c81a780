package dev.mpj.runtime.node;

import dev.mpj.runtime.config.UnsafeExport;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Agrona 2.x reaches {@code jdk.internal.misc.Unsafe}, which JDK 17 exports only on request. Without the
 * export the first {@link UnsafeBuffer} fails deep inside with an {@link IllegalAccessError}; this check fails
 * first, naming the flag to add.
 */
final class UnsafeAccess {
    private UnsafeAccess() {
    }

    /** The flag this JVM needs, e.g. {@code --add-exports java.base/jdk.internal.misc=ALL-UNNAMED}. */
    static String requiredFlag() {
        Module agrona = UnsafeBuffer.class.getModule(); // a class literal: Agrona is not initialised
        return "--add-exports java.base/" + UnsafeExport.PACKAGE + "=" + (agrona.isNamed() ? agrona.getName() : "ALL-UNNAMED");
    }

    /** @throws NodeSegmentException when this JVM does not export {@code jdk.internal.misc} to Agrona */
    static void require() {
        if (!UnsafeExport.TO_AGRONA) {
            throw new NodeSegmentException("the node segment (Agrona 2.x) needs the JVM flag '" + requiredFlag()
                    + "': add it to the java command line, or to JDK_JAVA_OPTIONS (mpjrun adds it itself)");
        }
    }
}
