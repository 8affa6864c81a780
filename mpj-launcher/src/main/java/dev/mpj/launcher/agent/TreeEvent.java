package dev.mpj.launcher.agent;

import java.io.IOException;

/**
 * The events agents pass up the tree to the root, which ends the job as mpjrun does for its own ranks: each is a
 * call of {@link NodeAgent.Events}, turned into a {@link TreeLink.Event} and back.
 */
final class TreeEvent {
    enum Kind {
        CONNECTED, FINALIZED, ABORTED, DISCONNECTED, PROTOCOL_ERROR, REJECTED, SERVER_FAILED, STARTED, EXITED,
        AGENT_FAILED
    }

    private TreeEvent() {
    }

    /** Calls on {@code target} what {@code e} says. */
    static void deliver(TreeLink.Event e, NodeAgent.Events target) {
        int r = e.subject();
        switch (e.kind()) {
            case CONNECTED -> target.rankConnected(r);
            case FINALIZED -> target.rankFinalized(r);
            case ABORTED -> target.rankAborted(r, (int) e.value());
            case DISCONNECTED -> target.rankDisconnected(r);
            case PROTOCOL_ERROR -> target.protocolError(r, e.text());
            case REJECTED -> target.connectionsRejected(e.text());
            case SERVER_FAILED -> target.serverFailed(new IOException(e.text()));
            case STARTED -> target.rankStarted(r, e.value());
            case EXITED -> target.rankExited(r, (int) e.value());
            case AGENT_FAILED -> target.agentFailed(r, e.text());
        }
    }

    /** Events sent up {@code link}; a send that fails is dropped, since the link's reader sees the parent gone. */
    static NodeAgent.Events upTo(TreeLink link) {
        return new NodeAgent.Events() {
            private void send(Kind kind, int subject, long value, String text) {
                try {
                    link.send(new TreeLink.Event(kind, subject, value, text));
                } catch (IOException e) {
                    // the parent is gone: this agent stops when its reader sees it
                }
            }

            @Override
            public void rankConnected(int rank) {
                send(Kind.CONNECTED, rank, 0, null);
            }

            @Override
            public void rankFinalized(int rank) {
                send(Kind.FINALIZED, rank, 0, null);
            }

            @Override
            public void rankAborted(int rank, int exitCode) {
                send(Kind.ABORTED, rank, exitCode, null);
            }

            @Override
            public void rankDisconnected(int rank) {
                send(Kind.DISCONNECTED, rank, 0, null);
            }

            @Override
            public void protocolError(int rank, String problem) {
                send(Kind.PROTOCOL_ERROR, rank, 0, problem);
            }

            @Override
            public void connectionsRejected(String report) {
                send(Kind.REJECTED, -1, 0, report);
            }

            @Override
            public void serverFailed(Exception cause) {
                send(Kind.SERVER_FAILED, -1, 0, String.valueOf(cause));
            }

            @Override
            public void rankStarted(int rank, long pid) {
                send(Kind.STARTED, rank, pid, null);
            }

            @Override
            public void rankExited(int rank, int status) {
                send(Kind.EXITED, rank, status, null);
            }

            @Override
            public void agentFailed(int node, String problem) {
                send(Kind.AGENT_FAILED, node, 0, problem);
            }
        };
    }
}
