package dev.mpj.runtime.coll;

import dev.mpj.runtime.engine.ProgressEngine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The classes of a first collective's path, the collectives and the progress engine, hold no {@code invokedynamic}
 * or dynamic constant (no lambda, method reference, string concatenation or record method): each would be a
 * bootstrap call, through method handles, in the first call that runs it on every rank.
 */
class NoBootstrapLinkageTest {
    private static final int CONSTANT_DYNAMIC = 17;
    private static final int CONSTANT_INVOKE_DYNAMIC = 18;

    /** The collectives' package, and the progress engine with its nested classes, which every message runs. */
    static Stream<Arguments> messagePathClasses() {
        return Stream.of(Arguments.of(Schedule.class, "", 20), Arguments.of(ProgressEngine.class, "ProgressEngine", 2));
    }

    @ParameterizedTest(name = "{0} {1}*")
    @MethodSource("messagePathClasses")
    void theFirstCallsClassesLinkNoBootstrapMethod(Class<?> anchor, String prefix, int atLeast) throws Exception {
        Path dir = Path.of(anchor.getResource(anchor.getSimpleName() + ".class").toURI()).getParent();
        List<String> linking = new ArrayList<>();
        int classes = 0;
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : (Iterable<Path>) files.filter(p -> isClassFile(p, prefix))::iterator) {
                classes++;
                try (InputStream in = Files.newInputStream(f)) {
                    if (dynamicConstants(in) > 0) {
                        linking.add(f.getFileName().toString());
                    }
                }
            }
        }
        assertTrue(classes >= atLeast, "found only " + classes + " classes in " + dir);
        assertEquals(List.of(), linking);
    }

    @Test
    void theScannerFindsTheBootstrapOfALambda() throws Exception {
        Runnable lambda = () -> { };
        assertFalse(lambda.getClass().isAnonymousClass());
        try (InputStream in = NoBootstrapLinkageTest.class.getResourceAsStream("NoBootstrapLinkageTest.class")) {
            assertTrue(dynamicConstants(in) > 0);
        }
    }

    private static boolean isClassFile(Path p, String prefix) {
        String name = p.getFileName().toString();
        return name.endsWith(".class") && (name.startsWith(prefix + ".") || name.startsWith(prefix + "$")
                || prefix.isEmpty());
    }

    /** The number of {@code CONSTANT_InvokeDynamic} and {@code CONSTANT_Dynamic} entries of a class file. */
    private static int dynamicConstants(InputStream classFile) throws IOException {
        DataInputStream in = new DataInputStream(classFile);
        if (in.readInt() != 0xCAFEBABE) {
            throw new IOException("not a class file");
        }
        in.readUnsignedShort();
        in.readUnsignedShort();
        int count = in.readUnsignedShort();
        int dynamic = 0;
        for (int i = 1; i < count; i++) {
            int tag = in.readUnsignedByte();
            switch (tag) {
                case 1 -> in.skipBytes(in.readUnsignedShort()); // Utf8
                case 7, 8, 16, 19, 20 -> in.skipBytes(2); // Class, String, MethodType, Module, Package
                case 15 -> in.skipBytes(3); // MethodHandle
                case 3, 4, 9, 10, 11, 12 -> in.skipBytes(4); // Integer, Float, the refs, NameAndType
                case CONSTANT_DYNAMIC, CONSTANT_INVOKE_DYNAMIC -> {
                    in.skipBytes(4);
                    dynamic++;
                }
                case 5, 6 -> { // Long, Double: two slots
                    in.skipBytes(8);
                    i++;
                }
                default -> throw new IOException("unknown constant pool tag " + tag);
            }
        }
        return dynamic;
    }
}
