package dev.mpj.transport.tcp;

/** One line per event on stderr, so that a refused or broken connection is visible without a logging library. */
final class TcpLog {
    private TcpLog() {
    }

    static void warn(String message) {
        System.err.println("mpj tcp: " + message);
    }

    /** The most telling message of {@code cause}, for a one-line report. */
    static String describe(Throwable cause) {
        String message = cause.getMessage();
        return message == null ? cause.getClass().getSimpleName() : message;
    }
}
