package dev.mpj.transport.tcp;

import dev.mpj.runtime.config.Settings;
import dev.mpj.runtime.spi.FrameHeader;
import dev.mpj.runtime.spi.FrameSink;
import dev.mpj.runtime.engine.WaitIdling;
import dev.mpj.runtime.spi.Idling;
import dev.mpj.runtime.spi.TcpOptions;
import dev.mpj.runtime.spi.TransportContext;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.function.Supplier;

/** Several TCP transports of one job in this JVM, on loopback, each knowing every other's address. */
final class TcpJob implements AutoCloseable {
    record Context(int rank, int size, FrameSink sink, Settings settings, boolean initLinks)
            implements TransportContext {
        Context(int rank, int size, FrameSink sink, Settings settings) {
            this(rank, size, sink, settings, false);
        }

        @Override
        public TcpOptions tcp() {
            return TcpOptions.from(settings);
        }

        @Override
        public Idling idling() {
            return new WaitIdling(settings.waitPolicy());
        }
    }

    final TcpTransport[] transports;
    final RecordingSink[] sinks;
    final TcpAddress[] addresses;

    private TcpJob(int size) {
        transports = new TcpTransport[size];
        sinks = new RecordingSink[size];
        addresses = new TcpAddress[size];
    }

    /** Starts {@code size} ranks and introduces them to each other. */
    static TcpJob start(int size) throws IOException {
        return start(size, Settings.defaults(), TcpTransport::new);
    }

    /** Starts {@code size} ranks made by {@code transports}, with {@code settings}, and introduces them. */
    static TcpJob start(int size, Settings settings, Supplier<TcpTransport> transports) throws IOException {
        return start(size, settings, transports, false);
    }

    /** Starts {@code size} ranks that are all node roots with init links, and introduces them. */
    static TcpJob withInitLinks(int size, Settings settings) throws IOException {
        return start(size, settings, TcpTransport::new, true);
    }

    private static TcpJob start(int size, Settings settings, Supplier<TcpTransport> transports, boolean initLinks)
            throws IOException {
        TcpJob job = new TcpJob(size);
        byte[][] encoded = new byte[size][];
        for (int r = 0; r < size; r++) {
            job.sinks[r] = new RecordingSink();
            job.transports[r] = transports.get();
            encoded[r] = job.transports[r].start(new Context(r, size, job.sinks[r], settings, initLinks));
            job.addresses[r] = TcpAddress.decode(encoded[r]);
        }
        for (TcpTransport t : job.transports) {
            for (int r = 0; r < size; r++) {
                t.addPeer(r, encoded[r]);
            }
        }
        return job;
    }

    TcpTransport rank(int r) {
        return transports[r];
    }

    RecordingSink sink(int r) {
        return sinks[r];
    }

    /** An EAGER frame header with {@code tag} and {@code cookie}. */
    static ByteBuffer header(int tag, long cookie) {
        return header(FrameHeader.EAGER, tag, cookie);
    }

    static ByteBuffer header(byte kind, int tag, long cookie) {
        ByteBuffer h = FrameHeader.allocate();
        FrameHeader.write(h, kind, 0, 0, tag, cookie, 0);
        return h;
    }

    /** {@code length} bytes whose values depend on {@code seed}, so a misplaced byte shows. */
    static ByteBuffer payload(int length, int seed) {
        ByteBuffer p = ByteBuffer.allocate(length);
        for (int i = 0; i < length; i++) {
            p.put(i, (byte) (seed * 31 + i));
        }
        return p;
    }

    @Override
    public void close() {
        for (TcpTransport t : transports) {
            if (t != null) {
                t.close();
            }
        }
    }
}
