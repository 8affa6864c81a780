package dev.mpj.transport.tcp;

import dev.mpj.runtime.config.Settings;
import dev.mpj.runtime.spi.Transport;
import dev.mpj.runtime.spi.TransportProvider;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ServiceLoader;

/**
 * Run in a fresh JVM: how long the first {@code start()} takes, and how long after it the first frame
 * between two ranks arrives (which includes the Netty start that {@code start()} leaves to the background).
 */
public final class ColdStart {
    private ColdStart() {
    }

    public static void main(String[] args) throws Exception {
        Settings settings = Settings.defaults();
        RecordingSink sink0 = new RecordingSink();
        RecordingSink sink1 = new RecordingSink();

        long found = System.nanoTime();
        Transport a = ServiceLoader.load(TransportProvider.class).stream()
                .filter(p -> p.get().name().equals("tcp")).findFirst().orElseThrow().get().create();
        long t0 = System.nanoTime();
        byte[] addressA = a.start(new TcpJob.Context(0, 2, sink0, settings));
        long t1 = System.nanoTime();
        Transport b = new TcpTransport();
        byte[] addressB = b.start(new TcpJob.Context(1, 2, sink1, settings));
        long t2 = System.nanoTime();

        a.addPeer(1, addressB);
        b.addPeer(0, addressA);
        a.send(1, TcpJob.header(1, 0), ByteBuffer.allocate(8));
        sink1.awaitFrames(1, Duration.ofSeconds(10));
        long t3 = System.nanoTime();
        a.close();
        b.close();
        long t4 = System.nanoTime();

        System.out.printf("provider lookup and create(): %.1f ms; start() cold: %.1f ms; start() again: %.1f ms; first frame arrived %.1f ms after start()"
                        + " returned; close() of both: %.1f ms%n",
                ms(t0 - found), ms(t1 - t0), ms(t2 - t1), ms(t3 - t2), ms(t4 - t3));
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }
}
