package dev.mpj.runtime.spi;

import dev.mpj.runtime.config.NettyLogging;
import dev.mpj.runtime.config.Setting;
import dev.mpj.runtime.config.Settings;
import dev.mpj.runtime.config.TcpProgress;

/**
 * What the TCP transport takes from the settings, already checked.
 *
 * @param host                    the address to bind and advertise ({@code mpj.tcp.host}, or as chosen)
 * @param maxFrame                the longest frame accepted ({@code mpj.tcp.maxFrame})
 * @param handshakeTimeoutSeconds how long a connection may take to prove it belongs to the job
 * @param ioThreads               event-loop threads when threads drive the sockets ({@code mpj.tcp.ioThreads})
 * @param callerProgress          whether the thread that calls MPI drives the sockets ({@code mpj.tcp.progress})
 * @param nettyLogToStderr        whether Netty's own log goes to stderr, one line a message ({@code mpj.tcp.nettyLog})
 */
public record TcpOptions(String host, int maxFrame, int handshakeTimeoutSeconds, int ioThreads,
                         boolean callerProgress, boolean nettyLogToStderr) {
    /** The setting named in errors about {@link #host()}. */
    public static final String HOST_SETTING = Setting.TCP_HOST.property();
    /** The setting named in errors about {@link #maxFrame()}. */
    public static final String MAX_FRAME_SETTING = Setting.TCP_MAX_FRAME.property();

    /** The address of a job on one host, and of {@code mpj.tcp.host=auto} outside a job. */
    public static final String LOOPBACK = "127.0.0.1";

    /** The options of {@code settings}, {@code mpj.tcp.host=auto} read as {@link #LOOPBACK}. */
    public static TcpOptions from(Settings settings) {
        return from(settings, settings.tcpHostIsAuto() ? LOOPBACK : settings.tcpHost());
    }

    /** The options of {@code settings} with the address the runtime chose for this rank. */
    public static TcpOptions from(Settings settings, String host) {
        return new TcpOptions(host, settings.tcpMaxFrame(), settings.initTimeoutSeconds(),
                settings.tcpIoThreads(), settings.tcpProgress() == TcpProgress.CALLER,
                settings.tcpNettyLog() == NettyLogging.STDERR);
    }
}
