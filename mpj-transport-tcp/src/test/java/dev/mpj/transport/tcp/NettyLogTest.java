package dev.mpj.transport.tcp;

import dev.mpj.runtime.config.NettyLogging;
import dev.mpj.runtime.config.Setting;
import dev.mpj.runtime.config.Settings;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NettyLogTest {
    @Test
    void placeholdersAreFilledInOrderAndArgumentsLeftOverAppended() {
        assertEquals("a 1 b 2", NettyLog.format("a {} b {}", 1, 2));
        assertEquals("only 1 2", NettyLog.format("only {}", 1, 2));
        assertEquals("none {}", NettyLog.format("none {}"));
        assertEquals("null", NettyLog.format(null));
    }

    @Test
    void stderrInstallsTheFactoryAndAnUnknownValueIsRejectedByName() {
        InternalLoggerFactory before = InternalLoggerFactory.getDefaultFactory();
        try {
            NettyLog.install(true);
            assertInstanceOf(NettyLog.class, InternalLoggerFactory.getDefaultFactory());
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> Settings.defaults().with(Setting.TCP_NETTY_LOG, "slf4j"));
            assertTrue(e.getMessage().contains("mpj.tcp.nettyLog"), e.getMessage());
        } finally {
            InternalLoggerFactory.setDefaultFactory(before);
        }
    }

    @Test
    void warningsAndErrorsGoToStderrAndTheRestIsDropped() {
        InternalLoggerFactory before = InternalLoggerFactory.getDefaultFactory();
        try (StderrCapture err = new StderrCapture()) {
            NettyLog.install(true);
            InternalLogger log = InternalLoggerFactory.getInstance("io.netty.Test");
            log.debug("debug {}", 1);
            log.info("info");
            log.warn("leak of {} bytes", 64);
            log.error("failed", new IllegalStateException("boom"));

            String text = err.text();
            assertFalse(log.isDebugEnabled() || log.isInfoEnabled() || log.isTraceEnabled());
            assertFalse(text.contains("debug") || text.contains("info"), text);
            assertTrue(text.contains("mpj tcp: netty warning (io.netty.Test): leak of 64 bytes"), text);
            assertTrue(text.contains("mpj tcp: netty error (io.netty.Test): failed"), text);
            assertTrue(text.contains("IllegalStateException: boom"), text);
        } finally {
            InternalLoggerFactory.setDefaultFactory(before);
        }
    }
}
