package dev.mpj.runtime.config;

/** The {@code mpj.tcp.progress} setting: which threads read and write the TCP sockets. */
public enum TcpProgress implements SettingValue {
    /** The thread that calls MPI, on every send and progress pass; a standby thread while it stays away. */
    CALLER,
    /** Netty event-loop threads ({@code mpj.tcp.ioThreads} of them), which hand frames over. */
    THREADS
}
