package dev.mpj.runtime.coll;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The fold room's waits are loaded with the room: a subclass of {@link RoomWait} loaded later, at a pair's first long
 * collective, would make the JIT discard every compiled method that took the collective room's waits for the only
 * ones.
 */
class PairFoldRoomTest {
    private static final String PACKAGE = PairFoldRoom.class.getPackageName() + ".";

    @Test
    void theRoomsWaitsAreLoadedWhenTheRoomsClassIsInitialised() throws Exception {
        IsolatedPackage loader = new IsolatedPackage();
        Class.forName(PairFoldRoom.class.getName(), false, loader);
        assertNull(loader.loaded(PairSlots.class), "loaded before the room's class was initialised");
        Class.forName(PairFoldRoom.class.getName(), true, loader);
        assertNotNull(loader.loaded(PairSlots.class));
    }

    /** Defines the collectives' package's classes anew, so what it has loaded shows what the room's class loads. */
    private static final class IsolatedPackage extends ClassLoader {
        IsolatedPackage() {
            super(PairFoldRoomTest.class.getClassLoader());
        }

        Class<?> loaded(Class<?> c) {
            return findLoadedClass(c.getName());
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            synchronized (getClassLoadingLock(name)) {
                if (!name.startsWith(PACKAGE) || name.substring(PACKAGE.length()).contains(".")) {
                    return super.loadClass(name, resolve);
                }
                Class<?> c = findLoadedClass(name);
                if (c == null) {
                    byte[] bytes = classFile(name);
                    c = defineClass(name, bytes, 0, bytes.length);
                }
                if (resolve) {
                    resolveClass(c);
                }
                return c;
            }
        }

        private static byte[] classFile(String name) throws ClassNotFoundException {
            String resource = name.substring(PACKAGE.length()) + ".class";
            try (InputStream in = PairFoldRoom.class.getResourceAsStream(resource)) {
                if (in == null) {
                    throw new ClassNotFoundException(name);
                }
                return in.readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
