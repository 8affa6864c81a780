package dev.mpj.transport.tcp;

import dev.mpj.runtime.config.Settings;
import dev.mpj.runtime.config.Setting;
import dev.mpj.runtime.spi.TransportProvider;
import dev.mpj.runtime.spi.TcpOptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.ServiceLoader;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(60)
class TcpStartTest {
    @Test
    void providerIsFoundByServiceLoaderAsTcp() {
        List<String> names = ServiceLoader.load(TransportProvider.class).stream()
                .map(p -> p.get().name()).toList();

        assertTrue(names.contains("tcp"), names.toString());
        assertEquals("tcp", new TcpTransportProvider().create().name());
    }

    @Test
    void startAdvertisesTheConfiguredHostAndABoundPort() throws Exception {
        try (TcpJob job = TcpJob.start(1)) {
            TcpAddress address = job.addresses[0];

            assertEquals(InetAddress.getByName(TcpOptions.LOOPBACK), address.host()); // auto on one host
            assertTrue(address.port() > 0);
        }
    }

    @Test
    void listenerAcceptsAHandshakeRightAfterStartReturns() throws Exception {
        try (TcpJob job = TcpJob.start(2); RawPeer peer = RawPeer.connect(job.addresses[1])) {
            peer.hello(0, job.addresses[1].credential());

            assertEquals(1, peer.readAck());
        }
    }

    @Test
    void wildcardHostIsRefused() {
        Settings wildcard = Settings.defaults().with(Setting.TCP_HOST, "0.0.0.0");
        TcpTransport t = new TcpTransport();

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> t.start(new TcpJob.Context(0, 1, new RecordingSink(), wildcard)));
        assertTrue(e.getMessage().contains(Setting.TCP_HOST.property()), e.getMessage());
    }

    @Test
    void hostThatIsNotOursIsAClearError() {
        Settings foreign = Settings.defaults().with(Setting.TCP_HOST, "192.0.2.1"); // TEST-NET-1, never local
        TcpTransport t = new TcpTransport();

        IOException e = assertThrows(IOException.class,
                () -> t.start(new TcpJob.Context(0, 1, new RecordingSink(), foreign)));
        assertTrue(e.getMessage().contains("cannot listen on 192.0.2.1"), e.getMessage());
    }

    @Test
    @Tag("multi-jvm")
    void startReturnsQuicklyInAColdJvm() throws IOException, InterruptedException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process p = new ProcessBuilder(java.toString(), "-Xmx64m", "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"), ColdStart.class.getName())
                .redirectErrorStream(true)
                .start();
        boolean exited = p.waitFor(30, TimeUnit.SECONDS);
        if (!exited) {
            p.destroyForcibly();
        }
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        System.out.print(output);

        assertTrue(exited && p.exitValue() == 0, output);
        assertTrue(output.contains("start() cold:"), output);
    }
}
