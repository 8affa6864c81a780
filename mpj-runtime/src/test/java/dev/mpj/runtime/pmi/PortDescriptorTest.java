package dev.mpj.runtime.pmi;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mpj.runtime.config.Setting;
import dev.mpj.runtime.pmi.wire.PmiSecret;
import dev.mpj.runtime.pmi.wire.PmiVariables;
import dev.mpj.runtime.testing.SmallJvm;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A rank whose starter opened its connection to {@code PMI_PORT} and showed the job's secret on it
 * ({@link PmiVariables#PORT_FD}), as mpjrun's rank supervisor does through bash's {@code /dev/tcp}: the client speaks
 * port mode over that descriptor from {@code initack} on, in either dialect, without showing the secret again, and
 * opens no socket of its own.
 */
@Tag("multi-jvm")
@Timeout(60)
class PortDescriptorTest {
    private static final String SECRET = "0123456789abcdef";
    private static final int FD = 4;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"pmi1", "pmi2"})
    void speaksPortModeOverTheInheritedConnectionWithoutASocket(String dialect) throws Throwable {
        try (ScriptedPmiServer server = script(new ScriptedPmiServer(), dialect).start()) {
            List<String> command = new ArrayList<>(List.of("bash", "-c",
                    "exec " + FD + "<>/dev/tcp/127.0.0.1/" + server.port() + " && printf '" + PmiSecret.message("%s")
                            + "\\n' \"$" + PmiVariables.SECRET + "\" >&" + FD + " && exec \"$@\"", "rank"));
            command.addAll(SmallJvm.command(PortDescriptorMain.class, "-Xlog:class+load=info"));
            ProcessBuilder builder = new ProcessBuilder(command);
            Map<String, String> env = builder.environment();
            List.of("PMI_FD", "PMI_RANK", "PMI_SIZE").forEach(env::remove);
            // a PMI_PORT nobody listens on: the client must use the descriptor, not connect again
            env.putAll(Map.of("PMI_PORT", "127.0.0.1:1", "PMI_ID", "1", PmiVariables.PORT_FD, Integer.toString(FD),
                    PmiVariables.SECRET, SECRET, Setting.PMI.environmentVariable(), dialect));
            String output = SmallJvm.run(builder);
            server.verify();
            assertTrue(output.contains("rank 1 over " + dialect), output);
            assertFalse(output.contains("java.net.Socket "), "the client opened a socket:\n" + output);
        }
    }

    private static ScriptedPmiServer script(ScriptedPmiServer server, String dialect) {
        server.expect("cmd=" + PmiSecret.COMMAND + " secret=" + SECRET)
                .expect("cmd=initack pmiid=1", "cmd=initack", "cmd=set size=2", "cmd=set rank=1", "cmd=set debug=0");
        if (dialect.equals("pmi1")) {
            return server.expectInit(PmiServerStyle.HYDRA);
        }
        return server.expect("cmd=init pmi_version=2 pmi_subversion=0", Pmi2Frames.HYDRA.responseToInit())
                .expectFrame("cmd=fullinit;pmirank=1;threaded=FALSE;", Pmi2Frames.HYDRA.fullinitResponse(1, 2))
                .expectFrame("cmd=job-getid;", Pmi2Frames.HYDRA.jobId("j"));
    }
}
