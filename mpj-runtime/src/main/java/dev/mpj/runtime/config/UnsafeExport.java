package dev.mpj.runtime.config;

import org.agrona.UnsafeApi;

/**
 * Whether this JVM exports {@code jdk.internal.misc} to Agrona, whose {@link UnsafeApi} reaches
 * {@code jdk.internal.misc.Unsafe}. Multi-rank ranks get the export from mpjrun; a job of one, a singleton and a
 * program started by hand may run without it, and then must not initialise {@link UnsafeApi} at all: it fails
 * with an {@link IllegalAccessError}.
 */
public final class UnsafeExport {
    /** The package Agrona needs. */
    public static final String PACKAGE = "jdk.internal.misc";
    /** Whether the export is there; a class literal, so Agrona is not initialised by asking. */
    public static final boolean TO_AGRONA = Object.class.getModule().isExported(PACKAGE, UnsafeApi.class.getModule());

    private UnsafeExport() {
    }
}
