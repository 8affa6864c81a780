package dev.mpj.launcher;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The agents a process hosts: one that cannot go on reaches the host's failure action, naming its node. */
@Timeout(30)
class AgentHostTest {
    private static final PrintStream NOWHERE = new PrintStream(OutputStream.nullOutputStream());

    @Test
    void anAgentWhoseParentCannotBeReachedIsReportedWithItsNode() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }
        CompletableFuture<String> failed = new CompletableFuture<>();
        AgentHost host = new AgentHost("secret", true, new AgentHost.RankOutput(NOWHERE, NOWHERE, false),
                (node, cause) -> failed.complete(node + " " + cause.getClass().getSimpleName()));
        host.start(3, closedPort);
        host.awaitAll(1, 0);
        assertEquals("3 ConnectException", failed.get(10, TimeUnit.SECONDS));
        assertTrue(host.liveProcesses().isEmpty(), "it started nothing");
    }

    @Test
    void anAgentWhoseParentSendsNoJobIsReportedWithItsNode() throws Exception {
        CompletableFuture<Exception> failed = new CompletableFuture<>();
        int[] failedNode = {-1};
        try (ServerSocket parent = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            AgentHost host = new AgentHost("secret", true, new AgentHost.RankOutput(NOWHERE, NOWHERE, false),
                    (node, cause) -> {
                        failedNode[0] = node;
                        failed.complete(cause);
                    });
            host.start(1, parent.getLocalPort());
            parent.accept().close(); // a parent that takes the connection and sends no job
            host.awaitAll(1, 0);
        }
        assertInstanceOf(IOException.class, failed.get(10, TimeUnit.SECONDS));
        assertEquals(1, failedNode[0]);
    }
}
