package dev.mpj.transport.tcp;

import io.netty.util.internal.logging.AbstractInternalLogger;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Arrays;

/**
 * Where Netty's own log messages go ({@code mpj.tcp.nettyLog}). Left to itself, Netty's first class looks for
 * SLF4J, then Log4J 2 and Log4J, and ends up starting {@code java.util.logging}: about 20 ms of a cold rank's
 * {@code MPI.Init}, for a logger that prints nothing at its default level. {@code stderr} (the default) skips the
 * search: Netty's warnings and errors come out as one line each on stderr, like the transport's own, and its
 * debug, trace and info messages are dropped. {@code netty} keeps Netty's own choice, for a program that
 * configures a logging library for Netty.
 */
final class NettyLog extends InternalLoggerFactory {
    private static final NettyLog FACTORY = new NettyLog();

    private NettyLog() {
    }

    /**
     * Applies the setting; before any Netty class has made its logger, as the loggers are made once, when each
     * class initialises.
     */
    static void install(boolean toStderr) {
        if (toStderr) {
            InternalLoggerFactory.setDefaultFactory(FACTORY);
        }
    }

    @Override
    protected InternalLogger newInstance(String name) {
        return new StderrLogger(name);
    }

    /** Netty's {@code {}} placeholders filled in order; the arguments left over are appended. */
    static String format(String format, Object... arguments) {
        if (format == null) {
            return "null";
        }
        StringBuilder sb = new StringBuilder(format.length() + 16 * arguments.length);
        int from = 0;
        int next = 0;
        for (int at = format.indexOf("{}"); at >= 0 && next < arguments.length; at = format.indexOf("{}", from)) {
            sb.append(format, from, at).append(arguments[next++]);
            from = at + 2;
        }
        sb.append(format, from, format.length());
        while (next < arguments.length) {
            sb.append(' ').append(arguments[next++]);
        }
        return sb.toString();
    }

    /** Warnings and errors on stderr, one line (a throwable's stack trace after it); the rest dropped. */
    private static final class StderrLogger extends AbstractInternalLogger {
        StderrLogger(String name) {
            super(name);
        }

        private void print(String level, String message, Throwable cause) {
            String line = "mpj tcp: netty " + level + " (" + name() + "): " + message;
            if (cause != null) {
                StringWriter trace = new StringWriter();
                cause.printStackTrace(new PrintWriter(trace));
                line += System.lineSeparator() + trace;
            }
            System.err.println(line);
        }

        /** The last argument is the throwable, as SLF4J and Netty's own formatter take it, when it is one. */
        private void print(String level, String format, Object[] arguments) {
            Throwable cause = arguments.length > 0 && arguments[arguments.length - 1] instanceof Throwable t ? t : null;
            Object[] values = cause == null ? arguments : Arrays.copyOf(arguments, arguments.length - 1);
            print(level, format(format, values), cause);
        }

        @Override
        public boolean isTraceEnabled() {
            return false;
        }

        @Override
        public void trace(String msg) {
        }

        @Override
        public void trace(String format, Object arg) {
        }

        @Override
        public void trace(String format, Object argA, Object argB) {
        }

        @Override
        public void trace(String format, Object... arguments) {
        }

        @Override
        public void trace(String msg, Throwable t) {
        }

        @Override
        public boolean isDebugEnabled() {
            return false;
        }

        @Override
        public void debug(String msg) {
        }

        @Override
        public void debug(String format, Object arg) {
        }

        @Override
        public void debug(String format, Object argA, Object argB) {
        }

        @Override
        public void debug(String format, Object... arguments) {
        }

        @Override
        public void debug(String msg, Throwable t) {
        }

        @Override
        public boolean isInfoEnabled() {
            return false;
        }

        @Override
        public void info(String msg) {
        }

        @Override
        public void info(String format, Object arg) {
        }

        @Override
        public void info(String format, Object argA, Object argB) {
        }

        @Override
        public void info(String format, Object... arguments) {
        }

        @Override
        public void info(String msg, Throwable t) {
        }

        @Override
        public boolean isWarnEnabled() {
            return true;
        }

        @Override
        public void warn(String msg) {
            print("warning", msg, (Throwable) null);
        }

        @Override
        public void warn(String format, Object arg) {
            print("warning", format, new Object[]{arg});
        }

        @Override
        public void warn(String format, Object... arguments) {
            print("warning", format, arguments);
        }

        @Override
        public void warn(String format, Object argA, Object argB) {
            print("warning", format, new Object[]{argA, argB});
        }

        @Override
        public void warn(String msg, Throwable t) {
            print("warning", msg, t);
        }

        @Override
        public boolean isErrorEnabled() {
            return true;
        }

        @Override
        public void error(String msg) {
            print("error", msg, (Throwable) null);
        }

        @Override
        public void error(String format, Object arg) {
            print("error", format, new Object[]{arg});
        }

        @Override
        public void error(String format, Object argA, Object argB) {
            print("error", format, new Object[]{argA, argB});
        }

        @Override
        public void error(String format, Object... arguments) {
            print("error", format, arguments);
        }

        @Override
        public void error(String msg, Throwable t) {
            print("error", msg, t);
        }
    }
}
