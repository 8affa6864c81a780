package dev.mpj.launcher;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;

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

    @Test
    void uncaughtTracesAreHeldBackAndOtherLinesPassOn() throws InterruptedException {
        String trace = "Exception in thread \"main\" java.lang.IllegalStateException: broken\n"
                + "\tat a.B.c(B.java:1)\nCaused by: java.io.IOException: gone\n\t... 1 more\n";
        UncaughtTraces traces = new UncaughtTraces();
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        PrintStream to = new PrintStream(sink, true, StandardCharsets.UTF_8);
        String input = "before\n" + trace + "after\n\tindented\n";
        OutputForwarder.start(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), to, "", "test",
                traces, null).join();
        assertEquals("before\nafter\n\tindented\n", sink.toString(StandardCharsets.UTF_8));
        assertEquals(trace, traces.text());
        assertEquals("java.lang.IllegalStateException: broken", traces.firstCause());
    }

    @Test
    void aRanksStderrCutOffMidLineIsEndedSoTheLaunchersNextLineStandsAlone() throws InterruptedException {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        PrintStream to = new PrintStream(sink, true, StandardCharsets.UTF_8);
        String cutOff = "before\nException in thread \"main\" ";
        OutputForwarder.start(new ByteArrayInputStream(cutOff.getBytes(StandardCharsets.UTF_8)), to, "", "test",
                new UncaughtTraces(), null).join();
        to.print("mpjrun: rank 2 (pid 7) exited\n");
        assertEquals("before\nException in thread \"main\" \nmpjrun: rank 2 (pid 7) exited\n",
                sink.toString(StandardCharsets.UTF_8));
    }

    @Test
    void waitReportLinesAreCountedOncePassedOnWhateverThePrefix() throws InterruptedException {
        String input = "rank 1 waits in Recv(source=0, tag=99, COMM_WORLD) for 10.0 s; unexpected queue: 0\n"
                + "rank 1 is what the program says\n"
                + "rank ? waits in MPI.Init for 0.5 s; unexpected queue: 0\n";
        AtomicInteger reportLines = new AtomicInteger();
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        PrintStream to = new PrintStream(sink, true, StandardCharsets.UTF_8);
        OutputForwarder.start(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), to, "[1] ", "test",
                new UncaughtTraces(), reportLines).join();
        assertEquals(2, reportLines.get());
        assertEquals(3, sink.toString(StandardCharsets.UTF_8).lines().filter(l -> l.startsWith("[1] rank ")).count());
    }

    private static String forward(String input, String prefix) throws InterruptedException {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        PrintStream to = new PrintStream(sink, true, StandardCharsets.UTF_8);
        OutputForwarder.start(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), to, prefix, "test")
                .join();
        return sink.toString(StandardCharsets.UTF_8);
    }
}
