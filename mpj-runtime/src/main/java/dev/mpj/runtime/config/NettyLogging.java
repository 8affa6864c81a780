package dev.mpj.runtime.config;

/** The {@code mpj.tcp.nettyLog} setting: where Netty's own log messages go. */
public enum NettyLogging implements SettingValue {
    /** Warnings and errors on stderr, one line each; the rest dropped. */
    STDERR,
    /** Netty's own choice of logging library. */
    NETTY
}
