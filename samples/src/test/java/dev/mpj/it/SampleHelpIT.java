package dev.mpj.it;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** Every sample mpjrun knows answers {@code --help} with its usage, once, and a job that ends with status 0. */
@Timeout(60)
@Tag("multi-jvm")
class SampleHelpIT {
    static Stream<String> samples() {
        Properties p = new Properties();
        try (InputStream in = SampleHelpIT.class.getResourceAsStream("/META-INF/mpj/samples.properties")) {
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return p.stringPropertyNames().stream().filter(n -> !n.endsWith(".about")).sorted();
    }

    @ParameterizedTest
    @MethodSource("samples")
    void answersHelpWithItsUsageAndStatusZero(String sample) {
        Job.Result r = Job.np(2).run(sample, "--help");
        assertEquals(0, r.exitCode(), r::toString);
        assertEquals(1, r.out().split("usage: ", -1).length - 1, r::toString);
        assertFalse(r.err().contains("unknown option"), r::toString);
    }
}
