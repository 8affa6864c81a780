package dev.mpj.runtime.pmi;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mpj.runtime.config.Setting;
import dev.mpj.runtime.config.Settings;
import dev.mpj.runtime.pmi.wire.PmiException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(20)
class PmiClientsTest {
    private static Settings pmi(String value) {
        return Settings.defaults().with(Setting.PMI, value);
    }

    @Test
    void autoWithoutProcessManagerIsSingleton() {
        try (PmiClient client = PmiClients.fromEnvironment(Settings.defaults(), Map.of())) {
            assertInstanceOf(SingletonPmiClient.class, client);
        }
    }

    @Test
    void singletonIgnoresTheEnvironment() {
        try (PmiClient client = PmiClients.fromEnvironment(pmi("singleton"), Map.of("PMI_FD", "5"))) {
            assertEquals("singleton", client.dialect());
        }
    }

    @Test
    void autoWithPmiPortConnectsAndIdentifiesWithPmiId() throws Throwable {
        try (ScriptedPmiServer server = new ScriptedPmiServer()
                .expect("cmd=initack pmiid=1", "cmd=initack", "cmd=set size=2", "cmd=set rank=1", "cmd=set debug=0")
                .expectInit(PmiServerStyle.HYDRA)
                .start()) {
            try (PmiClient client = PmiClients.fromEnvironment(Settings.defaults(),
                    Map.of("PMI_PORT", server.hostPort(), "PMI_ID", "1", "PMI_RANK", "0"))) {
                assertEquals("pmi1", client.dialect());
                assertEquals(1, client.rank());
                assertFalse(client.hasRing(), "PMI-1 has no ring");
            }
            server.verify();
        }
    }

    @Test
    void pmiIdDefaultsToPmiRank() throws Throwable {
        try (ScriptedPmiServer server = new ScriptedPmiServer()
                .expect("cmd=initack pmiid=2", "cmd=initack", "cmd=set size=3", "cmd=set rank=2", "cmd=set debug=0")
                .expectInit(PmiServerStyle.HYDRA)
                .start()) {
            try (PmiClient client = PmiClients.fromEnvironment(pmi("pmi1"),
                    Map.of("PMI_PORT", server.hostPort(), "PMI_RANK", "2"))) {
                assertEquals(2, client.rank());
            }
            server.verify();
        }
    }

    @Test
    void pmi2OverPmiPortIdentifiesThenSpeaksPmi2() throws Throwable {
        try (ScriptedPmiServer server = new ScriptedPmiServer()
                .expect("cmd=initack pmiid=1", "cmd=initack", "cmd=set size=2", "cmd=set rank=1", "cmd=set debug=0")
                .expect("cmd=init pmi_version=2 pmi_subversion=0", Pmi2Frames.HYDRA.responseToInit())
                .expectFrame("cmd=fullinit;pmirank=1;threaded=FALSE;", Pmi2Frames.HYDRA.fullinitResponse(1, 2))
                .expectFrame("cmd=job-getid;", Pmi2Frames.HYDRA.jobId("j"))
                .start()) {
            try (PmiClient client = PmiClients.fromEnvironment(pmi("pmi2"),
                    Map.of("PMI_PORT", server.hostPort(), "PMI_ID", "1"))) {
                assertEquals("pmi2", client.dialect());
                assertEquals(1, client.rank());
                assertFalse(client.hasRing(), "without mpjrun's secret the server may be Hydra's, which has no ring");
            }
            server.verify();
        }
    }

    @Test
    void autoSpeaksPmi1OverPmiPortEvenWhenSlurmSaysPmi2() throws Throwable {
        try (ScriptedPmiServer server = new ScriptedPmiServer()
                .expect("cmd=initack pmiid=0", "cmd=initack", "cmd=set size=1", "cmd=set rank=0", "cmd=set debug=0")
                .expectInit(PmiServerStyle.SLURM)
                .start()) {
            try (PmiClient client = PmiClients.fromEnvironment(Settings.defaults(),
                    Map.of("PMI_PORT", server.hostPort(), "PMI_ID", "0", "SLURM_MPI_TYPE", "pmi2"))) {
                assertEquals("pmi1", client.dialect());
            }
            server.verify();
        }
    }

    @Test
    void pmi2WithoutProcessManagerExplains() {
        PmiException e = assertThrows(PmiException.class, () -> PmiClients.fromEnvironment(pmi("pmi2"), Map.of()));
        assertTrue(e.getMessage().contains("pmi2") && e.getMessage().contains("PMI_PORT"), e.getMessage());
    }

    @Test
    void pmi1WithoutProcessManagerExplains() {
        PmiException e = assertThrows(PmiException.class, () -> PmiClients.fromEnvironment(pmi("pmi1"), Map.of()));
        assertTrue(e.getMessage().contains("PMI_FD") && e.getMessage().contains("PMI_PORT"), e.getMessage());
    }

    @Test
    void unknownChoiceListsTheValidOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PmiClients.fromEnvironment(pmi("pmi3"), Map.of()));
        assertTrue(e.getMessage().contains("pmi3") && e.getMessage().contains("auto, pmi1, pmi2, singleton"),
                e.getMessage());
    }

    @Test
    void nonNumericPmiFdIsRejected() {
        assertThrows(PmiException.class, () -> PmiClients.fromEnvironment(Settings.defaults(),
                Map.of("PMI_FD", "socket", "PMI_RANK", "0", "PMI_SIZE", "1")));
    }

    @Test
    void pmiFdWithoutRankAndSizeIsRejected() {
        PmiException e = assertThrows(PmiException.class,
                () -> PmiClients.fromEnvironment(Settings.defaults(), Map.of("PMI_FD", "9")));
        assertTrue(e.getMessage().contains("PMI_RANK"), e.getMessage());
    }

    /** Under Open MPI's mpirun (these variables) a rank must never fall back to a singleton. */
    @Test
    void autoUnderAPmixServerNeverFallsBackToASingleton() {
        for (Map<String, String> env : List.of(Map.of("PMIX_NAMESPACE", "1234", "PMIX_RANK", "0"),
                Map.of("PMIX_SERVER_URI41", "1233.0;tcp4://127.0.0.1:39227"))) {
            PmiException e = assertThrows(PmiException.class,
                    () -> PmiClients.fromEnvironment(Settings.defaults(), env).close());
            assertPmixUnavailable(e.getMessage());
        }
    }

    /** This module's tests run without the mpj-pmix jar: Java 17 lacks the FFM API, and on 22+ the jar is missing. */
    @Test
    void pmixWithoutSupportSaysWhatIsMissingAndWhatToUseInstead() {
        PmiException e = assertThrows(PmiException.class, () -> PmiClients.fromEnvironment(pmi("pmix"), Map.of()));
        assertPmixUnavailable(e.getMessage());
        String missing = Runtime.version().feature() < 22 ? "needs Java 22 or later" : "needs the mpj-pmix jar";
        assertTrue(e.getMessage().contains(missing), e.getMessage());
    }

    @Test
    void autoWithPmiFdSetPrefersTheWireOverPmix() {
        PmiException e = assertThrows(PmiException.class, () -> PmiClients.fromEnvironment(Settings.defaults(),
                Map.of("PMI_FD", "x", "PMIX_NAMESPACE", "1234")));
        assertTrue(e.getMessage().contains("PMI_FD"), e.getMessage());
    }

    /** One of several tasks of a manager we cannot speak to fails, naming the manager, instead of running alone. */
    @Test
    void autoUnderAManagerWithoutAUsablePmiRefusesToRunAlone() {
        Map<Map<String, String>, String> cases = Map.of(
                Map.of("SLURM_STEP_NUM_TASKS", "4", "SLURM_PROCID", "1"), "srun --mpi=pmi2",
                Map.of("OMPI_COMM_WORLD_SIZE", "2", "OMPI_COMM_WORLD_RANK", "0"), "Open MPI",
                Map.of("PMI_SIZE", "8", "PMI_RANK", "3"), "PMI_SIZE");
        for (Map.Entry<Map<String, String>, String> c : cases.entrySet()) {
            PmiException e = assertThrows(PmiException.class,
                    () -> PmiClients.fromEnvironment(Settings.defaults(), c.getKey()).close());
            assertTrue(e.getMessage().contains(c.getValue()) && e.getMessage().contains("job of one rank"),
                    e.getMessage());
        }
    }

    @Test
    void oneTaskOrAnExplicitSingletonStillRunsAlone() {
        try (PmiClient one = PmiClients.fromEnvironment(Settings.defaults(), Map.of("SLURM_STEP_NUM_TASKS", "1"));
             PmiClient chosen = PmiClients.fromEnvironment(pmi("singleton"), Map.of("OMPI_COMM_WORLD_SIZE", "4"))) {
            assertInstanceOf(SingletonPmiClient.class, one);
            assertInstanceOf(SingletonPmiClient.class, chosen);
        }
    }

    private static void assertPmixUnavailable(String message) {
        assertTrue(message.contains("PMIx"), message);
        assertTrue(message.contains("mpjrun") && message.contains("mpiexec") && message.contains("srun --mpi=pmi2"),
                message);
    }

    /** The choice {@code offersProcessManager} announces is the one {@code fromEnvironment} makes. */
    @ParameterizedTest(name = "mpj.pmi={0}, {1}={2}: {3}")
    @CsvSource({
            "auto, NONE, '', false",
            "auto, PMI_PORT, 127.0.0.1:5000, true",
            "auto, PMI_FD, 5, true",
            "auto, PMIX_NAMESPACE, ns, true",
            "auto, PMI_PORT, '  ', false",
            "pmi1, NONE, '', true",
            "pmix, NONE, '', true",
            "singleton, PMI_FD, 5, false"})
    void offersAProcessManagerExactlyWhenTheClientWouldTalkToOne(String dialect, String variable, String value,
                                                                boolean expected) {
        Map<String, String> env = variable.equals("NONE") ? Map.of() : Map.of(variable, value);
        assertEquals(expected, PmiClients.offersProcessManager(pmi(dialect), env));
    }

    /** The warm-up readies the socket layer only: the process manager sees no connection from it. */
    @Test
    void connectionWarmUpNeverConnectsToTheProcessManager() throws Exception {
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            server.configureBlocking(false);
            int port = ((InetSocketAddress) server.getLocalAddress()).getPort();
            PmiClients.warmUpConnection(Map.of("PMI_PORT", "127.0.0.1:" + port));
            // a loopback connect completes before connect returns, so a connection would be queued by now
            assertNull(server.accept());
        }
    }

    /** A wrong PMI_PORT is the connection's to report, with its own error; the warm-up says nothing. */
    @ParameterizedTest(name = "PMI_PORT={0}")
    @ValueSource(strings = {"no-port", "127.0.0.1:0", "127.0.0.1:99999", ":"})
    void connectionWarmUpNeverThrows(String port) {
        assertDoesNotThrow(() -> PmiClients.warmUpConnection(Map.of("PMI_PORT", port)));
        assertThrows(PmiException.class, () -> PmiClients.fromEnvironment(Settings.defaults(),
                Map.of("PMI_PORT", port)).close());
    }
}
