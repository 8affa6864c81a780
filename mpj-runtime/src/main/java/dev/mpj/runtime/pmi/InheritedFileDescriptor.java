package dev.mpj.runtime.pmi;

import dev.mpj.runtime.pmi.wire.PmiException;

import java.io.FileDescriptor;
import java.lang.reflect.Field;

/**
 * Turns an inherited file descriptor number (such as {@code PMI_FD}) into a {@link FileDescriptor}; Java 17
 * has no public API for that. Sets the private {@code FileDescriptor.fd} field through {@code sun.misc.Unsafe}
 * (module jdk.unsupported, no JVM flag needed), and falls back to reflection, which needs
 * {@value #ADD_OPENS}. {@code Unsafe} is called directly: invoked through reflection, its methods' annotations
 * would be parsed and proxy classes spun for them at every rank's start under Hydra and Slurm.
 */
final class InheritedFileDescriptor {
    static final String ADD_OPENS = "--add-opens java.base/java.io=ALL-UNNAMED";

    private InheritedFileDescriptor() {
    }

    static FileDescriptor of(int fd) {
        if (fd < 0) {
            throw new PmiException("invalid file descriptor number " + fd);
        }
        Field field;
        try {
            field = FileDescriptor.class.getDeclaredField("fd");
        } catch (NoSuchFieldException e) {
            throw new PmiException("this JVM's java.io.FileDescriptor has no 'fd' field; cannot use PMI_FD", e);
        }
        FileDescriptor descriptor = new FileDescriptor();
        Throwable unsafeFailure;
        try {
            setWithUnsafe(descriptor, field, fd);
            if (descriptor.valid()) {
                return descriptor;
            }
            unsafeFailure = new IllegalStateException("Unsafe.putInt left FileDescriptor.fd unset");
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            unsafeFailure = e;
        }
        try {
            field.setAccessible(true);
            field.setInt(descriptor, fd);
            return descriptor;
        } catch (ReflectiveOperationException | RuntimeException e) {
            PmiException failure = new PmiException("cannot open the inherited PMI socket (fd " + fd
                    + "): neither sun.misc.Unsafe nor reflection may set FileDescriptor.fd; add the JVM flag "
                    + ADD_OPENS, e);
            failure.addSuppressed(unsafeFailure);
            throw failure;
        }
    }

    /** A JVM without jdk.unsupported fails here with a {@link LinkageError}, which the caller falls back from. */
    private static void setWithUnsafe(FileDescriptor descriptor, Field field, int fd)
            throws ReflectiveOperationException {
        Field theUnsafe = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
        theUnsafe.setAccessible(true);
        sun.misc.Unsafe unsafe = (sun.misc.Unsafe) theUnsafe.get(null);
        unsafe.putInt(descriptor, unsafe.objectFieldOffset(field), fd);
    }
}
