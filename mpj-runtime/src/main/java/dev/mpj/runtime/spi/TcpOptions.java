package dev.mpj.runtime.spi;

import dev.mpj.runtime.config.NettyLogging;
import dev.mpj.runtime.config.Setting;
import dev.mpj.runtime.config.Settings;
import dev.mpj.runtime.config.TcpProgress;

/**
 * What the TCP transport takes from the settings, already checked.
 *
 * @param host                    the address to bind and advertise ({@code mpj.tcp.host})
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

    public static TcpOptions from(Settings settings) {
        return new TcpOptions(settings.tcpHost(), settings.tcpMaxFrame(), settings.initTimeoutSeconds(),
                settings.tcpIoThreads(), settings.tcpProgress() == TcpProgress.CALLER,
                settings.tcpNettyLog() == NettyLogging.STDERR);
    }
}
