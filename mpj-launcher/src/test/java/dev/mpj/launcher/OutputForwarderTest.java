package dev.mpj.launcher;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;

@Timeout(10)
class OutputForwarderTest {

    @Test
    void prefixesEveryLineAndEndsAnUnterminatedLastLine() throws InterruptedException {
        assertEquals("[1] a\n[1] \n[1] b\n[1] c\n", forward("a\n\nb\nc", "[1] "));
    }

    @Test
    void withoutPrefixPassesBytesOnUnchanged() throws InterruptedException {
        assertEquals("a\nb", forward("a\nb", ""));
    }

    @Test
    void overlongLineIsPassedOnInPiecesUnderOnePrefix() throws InterruptedException {
        String line = "x".repeat(3 * OutputForwarder.MAX_PENDING) + "\n";
        assertEquals("[0] " + line + "[0] y\n", forward(line + "y\n", "[0] "));
    }

    private static String forward(String input, String prefix) throws InterruptedException {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        PrintStream to = new PrintStream(sink, true, StandardCharsets.UTF_8);
        OutputForwarder.start(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), to, prefix, "test")
                .join();
        return sink.toString(StandardCharsets.UTF_8);
    }
}
