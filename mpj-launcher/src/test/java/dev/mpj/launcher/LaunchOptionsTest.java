package dev.mpj.launcher;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LaunchOptionsTest {
    private static final SampleCatalog SAMPLES = SampleCatalog.of(Map.of(
            "hello", "dev.mpj.samples.Hello", "ring", "dev.mpj.samples.Ring"));

    @Test
    void parsesEveryOption() throws UsageException {
        LaunchOptions o = parse("-np", "4", "-cp", "a.jar:b", "--fake-nodes", "2", "-env", "A", "1",
                "-env", "B", "two words", "-l", "--timeout", "1.5", "org.example.Main", "x", "y");
        assertEquals(4, o.processes());
        assertEquals("a.jar:b", o.classPath());
        assertEquals(2, o.fakeNodes());
        assertEquals(Map.of("A", "1", "B", "two words"), o.environment());
        assertEquals(List.of("A", "B"), List.copyOf(o.environment().keySet()));
        assertTrue(o.prefixOutput());
        assertEquals(Duration.ofMillis(1500), o.timeout());
        assertEquals("org.example.Main", o.mainClass());
        assertNull(o.jar());
        assertEquals(List.of("x", "y"), o.arguments());
        assertEquals("(vector,(0,2,2))", o.mapping().pmiValue());
    }

    @Test
    void defaultsAreOneNodeNoTimeoutNoPrefix() throws UsageException {
        LaunchOptions o = parse("-np", "3", "Main");
        assertEquals("", o.classPath());
        assertEquals(0, o.fakeNodes());
        assertEquals("(vector,(0,1,3))", o.mapping().pmiValue());
        assertFalse(o.hasTimeout());
        assertFalse(o.prefixOutput());
        assertTrue(o.environment().isEmpty());
        assertTrue(o.jvmOptions().isEmpty());
    }

    @Test
    void longOptionSpellingsAreAccepted() throws UsageException {
        LaunchOptions o = parse("-n", "2", "--prefix-rank", "Main");
        assertEquals(2, o.processes());
        assertTrue(o.prefixOutput());
    }

    @Test
    void sampleNameRunsItsMainClass() throws UsageException {
        LaunchOptions o = parse("-np", "2", "ring", "10");
        assertEquals("dev.mpj.samples.Ring", o.mainClass());
        assertEquals(List.of("10"), o.arguments());
    }

    @Test
    void everythingAfterTheProgramBelongsToTheProgram() throws UsageException {
        LaunchOptions o = parse("-np", "2", "Main", "-np", "9", "-l");
        assertEquals(2, o.processes());
        assertFalse(o.prefixOutput());
        assertEquals(List.of("-np", "9", "-l"), o.arguments());
    }

    @Test
    void jarTakesTheNextArgumentAndTheRestAreArguments() throws UsageException {
        LaunchOptions o = parse("-np", "2", "-jar", "app.jar", "hello");
        assertEquals("app.jar", o.jar());
        assertNull(o.mainClass());
        assertEquals(List.of("hello"), o.arguments());
    }

    @Test
    void rankJvmOptionsComeFromMpjJvmOpts() throws UsageException {
        LaunchOptions o = LaunchOptions.parse(List.of("-np", "1", "Main"), SAMPLES,
                Map.of("MPJ_JVM_OPTS", "  -Xmx64m   -Dx=y "));
        assertEquals(List.of("-Xmx64m", "-Dx=y"), o.jvmOptions());
    }

    @Test
    void mpjJvmOptsSplitsAtEveryKindOfWhitespace() {
        assertEquals(List.of("-Xmx64m", "-Dx=y", "-ea"), LaunchOptions.words("\t-Xmx64m\n\r-Dx=y\f\u000B -ea\n"));
        assertEquals(List.of(), LaunchOptions.words(" \t "));
        assertEquals(List.of("one"), LaunchOptions.words("one"));
    }

    @Test
    void classNamesAreDottedJavaIdentifiers() {
        for (String name : new String[]{"Main", "org.example.Main", "a.b$C", "_x.\u00e9t\u00e9", "p.\ud835\udc9c"}) {
            assertTrue(LaunchOptions.isClassName(name), name);
        }
        for (String name : new String[]{"", ".Main", "Main.", "a..b", "my-app", "1a.B", "a.1b", "a b", "a.b/C"}) {
            assertFalse(LaunchOptions.isClassName(name), name);
        }
    }

    @Test
    void wrongCommandLinesAreRefusedWithAClearMessage() {
        assertUsageError("missing -np", "Main");
        assertUsageError("-np needs a positive whole number, not '0'", "-np", "0", "Main");
        assertUsageError("-np needs a positive whole number, not 'four'", "-np", "four", "Main");
        assertUsageError("-np needs a value", "-np");
        assertUsageError("unknown option '--frobnicate'", "-np", "2", "--frobnicate", "Main");
        assertUsageError("--fake-nodes 3 exceeds the number of ranks (2)", "-np", "2", "--fake-nodes", "3", "Main");
        assertUsageError("--fake-nodes needs a positive whole number", "-np", "2", "--fake-nodes", "0", "Main");
        assertUsageError("-env needs a NAME and a VALUE", "-np", "2", "-env", "A");
        assertUsageError("-env needs a variable name without '='", "-np", "2", "-env", "A=B", "1", "Main");
        assertUsageError("--timeout needs a positive number of seconds", "-np", "2", "--timeout", "-1", "Main");
        assertUsageError("no program given", "-np", "2");
        assertUsageError("'my-app' is neither a sample (hello, ring) nor a main class name", "-np", "2", "my-app");
        assertUsageError("'Hello.class' is a file; name the main class instead", "-np", "2", "Hello.class");
    }

    @Test
    void genvAndXSetVariablesBesideEnvAndXPassesOnTheLaunchersOwnValue() throws UsageException {
        LaunchOptions o = LaunchOptions.parse(List.of("-np", "2", "-genv", "A", "1", "-x", "B=two=2", "-x", "HOME",
                "-x", "UNSET_HERE", "-env", "C", "3", "Main"), SAMPLES, Map.of("HOME", "/home/me"));
        assertEquals(Map.of("A", "1", "B", "two=2", "HOME", "/home/me", "C", "3"), o.environment());
        assertEquals(List.of("A", "B", "HOME", "C"), List.copyOf(o.environment().keySet()));
    }

    @Test
    void wdirOversubscribeAndDevAreRecorded() throws UsageException {
        LaunchOptions o = parse("-np", "2", "-wdir", "/tmp/run", "--oversubscribe", "-dev", "niodev", "Main");
        assertEquals("/tmp/run", o.workingDirectory());
        assertTrue(o.oversubscribe());
        assertEquals("niodev", o.device());
        assertEquals("/srv", parse("-np", "2", "--wdir", "/srv", "Main").workingDirectory());
        LaunchOptions plain = parse("-np", "2", "Main");
        assertNull(plain.workingDirectory());
        assertFalse(plain.oversubscribe());
        assertNull(plain.device());
    }

    @Test
    void ppnSplitsTheJobIntoPretendNodesOfThatManyRanks() throws UsageException {
        LaunchOptions o = parse("-np", "4", "-ppn", "2", "Main");
        assertEquals(2, o.ranksPerNode());
        assertEquals(2, o.fakeNodes());
        assertEquals("(vector,(0,2,2))", o.mapping().pmiValue());
        assertEquals(3, parse("-np", "5", "-ppn", "2", "Main").fakeNodes());
        assertEquals(1, parse("-np", "3", "-ppn", "8", "Main").fakeNodes());
    }

    @Test
    void localHostsBecomePretendNodesWithTheirSlots() throws UsageException {
        assertEquals("(vector,(0,2,2))", parse("-np", "4", "-hosts", "localhost:2,127.0.0.1:2", "Main")
                .mapping().pmiValue());
        LaunchOptions o = parse("-np", "3", "-host", "localhost,127.0.0.1,localhost", "Main");
        assertEquals(List.of(new HostList.Host("localhost", 1), new HostList.Host("127.0.0.1", 1),
                new HostList.Host("localhost", 1)), o.hosts());
        assertEquals(3, o.fakeNodes());
        // only the hosts the ranks fill are used; more ranks than slots use every host
        assertEquals(1, parse("-np", "2", "-hosts", "localhost:4,127.0.0.1:4", "Main").fakeNodes());
        assertEquals(2, parse("-np", "9", "-hosts", "localhost:2,127.0.0.1:2", "Main").fakeNodes());
        // -ppn overrides the slots, as in Hydra
        assertEquals(2, parse("-np", "4", "-hosts", "localhost:4,127.0.0.1:4", "-ppn", "2", "Main").fakeNodes());
    }

    @Test
    void machinefilesTakeHydraAndOpenMpiLinesAndComments(@TempDir Path dir) throws IOException, UsageException {
        Path file = dir.resolve("hosts");
        Files.writeString(file, "# the nodes\nlocalhost:2\n\n127.0.0.1 slots=3 max_slots=8  # open mpi\n"
                + "  localhost\n");
        for (String option : List.of("-f", "-machinefile", "--hostfile")) {
            LaunchOptions o = parse("-np", "6", option, file.toString(), "Main");
            assertEquals(List.of(new HostList.Host("localhost", 2), new HostList.Host("127.0.0.1", 3),
                    new HostList.Host("localhost", 1)), o.hosts(), option);
            assertEquals(3, o.fakeNodes(), option);
        }
    }

    @Test
    void otherMachinesAreRealNodesForHydraNotPretendOnes() throws UsageException {
        LaunchOptions o = parse("-np", "4", "-hosts", "localhost:2,node17.invalid:2", "-launcher", "fork", "Main");
        assertTrue(o.spansMachines());
        assertEquals(0, o.fakeNodes());
        assertEquals("fork", o.launcher());
        assertEquals(List.of(new HostList.Host("localhost", 2), new HostList.Host("node17.invalid", 2)), o.hosts());
        assertFalse(parse("-np", "4", "-hosts", "localhost:2,127.0.0.1:2", "Main").spansMachines());
    }

    @Test
    void noSrunIsAFlag() throws UsageException {
        assertTrue(parse("-np", "2", "--no-srun", "Main").noSrun());
        assertFalse(parse("-np", "2", "Main").noSrun());
    }

    @Test
    void wrongMpiexecStyleFlagsAreRefusedWithAClearMessage(@TempDir Path dir) throws IOException {
        assertUsageError("-genv needs a NAME and a VALUE", "-np", "2", "-genv", "A");
        assertUsageError("-x needs a variable name without '=', not ''", "-np", "2", "-x", "=1", "Main");
        assertUsageError("-x needs a value", "-np", "2", "-x");
        assertUsageError("-wdir needs a value", "-np", "2", "-wdir");
        assertUsageError("-dev needs a value", "-np", "2", "-dev");
        assertUsageError("-launcher needs a value", "-np", "2", "-launcher");
        assertUsageError("-ppn needs a positive whole number, not '0'", "-np", "2", "-ppn", "0", "Main");
        assertUsageError("-hosts: the slot count of 'a:x' needs a positive whole number, not 'x'", "-np", "2", "-hosts", "a:x", "Main");
        assertUsageError("-hosts needs host names as NAME or NAME:SLOTS, not ''", "-np", "2", "-hosts", "a,", "M");
        assertUsageError("-f: cannot read " + dir.resolve("none"), "-np", "2", "-f", dir.resolve("none").toString(),
                "Main");
        Path empty = Files.writeString(dir.resolve("empty"), "# nothing\n");
        assertUsageError("-f: " + empty + " names no host", "-np", "2", "-f", empty.toString(), "Main");
        Path one = Files.writeString(dir.resolve("one"), "localhost\n");
        assertUsageError("-f and -hosts both name the hosts: give one", "-np", "2", "-hosts", "localhost", "-f",
                one.toString(), "Main");
        assertUsageError("--fake-nodes and -ppn both place the ranks: give one", "-np", "4", "--fake-nodes", "2",
                "-ppn", "2", "Main");
        assertUsageError("--fake-nodes and -hosts both place the ranks: give one", "-np", "4", "--fake-nodes", "2",
                "-hosts", "localhost", "Main");
        assertUsageError("unknown option '--map-by'", "-np", "2", "--map-by", "core", "Main");
    }

    @Test
    void versionIsAskedForRatherThanAnError() {
        UsageException e = assertThrows(UsageException.class, () -> parse("--version"));
        assertTrue(e.versionRequested());
        assertFalse(e.helpRequested());
    }

    @Test
    void helpIsAskedForRatherThanAnError() {
        UsageException e = assertThrows(UsageException.class, () -> parse("-np", "2", "--help"));
        assertTrue(e.helpRequested());
        assertTrue(assertThrows(UsageException.class, () -> parse("-h")).helpRequested());
    }

    @Test
    void samplesAreReadFromEveryCatalogResourceAndTheFirstOneWins(@TempDir Path dir) throws IOException {
        Path first = writeCatalog(dir.resolve("first"), "hello=org.first.Hello\npi=org.first.Pi\n");
        Path second = writeCatalog(dir.resolve("second"), "hello=org.second.Hello\nring=org.second.Ring\n");
        try (URLClassLoader loader = new URLClassLoader(new URL[] {first.toUri().toURL(), second.toUri().toURL()},
                null)) {
            SampleCatalog catalog = SampleCatalog.load(loader);
            assertEquals(Map.of("hello", "org.first.Hello", "pi", "org.first.Pi", "ring", "org.second.Ring"),
                    catalog.entries());
        }
    }

    @Test
    void aSampleTheFirstCatalogNamesIsFoundWithoutReadingTheOthers(@TempDir Path dir) throws IOException {
        Path first = writeCatalog(dir.resolve("first"), "hello=org.first.Hello\n");
        Path second = writeCatalog(dir.resolve("second"), "ring=org.second.Ring\n");
        try (URLClassLoader loader = new URLClassLoader(new URL[] {first.toUri().toURL(), second.toUri().toURL()},
                null) {
            @Override
            public Enumeration<URL> getResources(String name) {
                throw new AssertionError("every catalog was read for a sample of the first");
            }
        }) {
            assertEquals(Optional.of("org.first.Hello"), SampleCatalog.load(loader).mainClassOf("hello"));
        }
    }

    @Test
    void aSampleOnlyALaterCatalogNamesIsFoundThere(@TempDir Path dir) throws IOException {
        Path first = writeCatalog(dir.resolve("first"), "hello=org.first.Hello\n");
        Path second = writeCatalog(dir.resolve("second"), "hello=org.second.Hello\nring=org.second.Ring\n");
        try (URLClassLoader loader = new URLClassLoader(new URL[] {first.toUri().toURL(), second.toUri().toURL()},
                null)) {
            SampleCatalog catalog = SampleCatalog.load(loader);
            assertEquals(Optional.of("org.second.Ring"), catalog.mainClassOf("ring"));
            assertEquals(Optional.of("org.first.Hello"), catalog.mainClassOf("hello"));
            assertEquals(Optional.empty(), catalog.mainClassOf("pi"));
        }
    }

    @Test
    void sampleDescriptionsAreNoSamples(@TempDir Path dir) throws IOException {
        Path root = writeCatalog(dir.resolve("c"), "hello=org.x.Hello\nhello.about=says hello\npi=org.x.Pi\n");
        try (URLClassLoader loader = new URLClassLoader(new URL[] {root.toUri().toURL()}, null)) {
            SampleCatalog catalog = SampleCatalog.load(loader);
            assertEquals(Map.of("hello", "org.x.Hello", "pi", "org.x.Pi"), catalog.entries());
            assertEquals("says hello", catalog.about("hello"));
            assertEquals("org.x.Pi", catalog.about("pi"));
        }
    }

    private static Path writeCatalog(Path root, String content) throws IOException {
        Path file = root.resolve(SampleCatalog.RESOURCE);
        Files.createDirectories(file.getParent());
        Files.writeString(file, content);
        return root;
    }

    private static LaunchOptions parse(String... args) throws UsageException {
        return LaunchOptions.parse(List.of(args), SAMPLES, Map.of());
    }

    private static void assertUsageError(String expectedStart, String... args) {
        UsageException e = assertThrows(UsageException.class, () -> parse(args), String.join(" ", args));
        assertFalse(e.helpRequested());
        assertTrue(e.getMessage().startsWith(expectedStart), e.getMessage());
    }
}
