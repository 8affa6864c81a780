package dev.mpj.launcher.pmi;

import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * What a PMI server tells its job, one line an event ("connected 0", "aborted 1 7", a rejection report), for tests
 * to read in order.
 */
final class ServerEvents implements PmiServer.Listener {
    private final BlockingQueue<String> events = new LinkedBlockingQueue<>();
    private final boolean rejections;

    /** @param rejections whether the reports of rejected connections are events too */
    ServerEvents(boolean rejections) {
        this.rejections = rejections;
    }

    /** The next event, waiting up to 5 s for it. */
    String next() {
        String e = poll(5000);
        if (e == null) {
            throw new AssertionError("no event from the PMI server within 5 s");
        }
        return e;
    }

    /** The next event within {@code millis}, or null. */
    String poll(long millis) {
        try {
            return events.poll(millis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    /** The next event if there is one now, else null. */
    String poll() {
        return events.poll();
    }

    boolean isEmpty() {
        return events.isEmpty();
    }

    /** The events not read yet. */
    List<String> pending() {
        return List.copyOf(events);
    }

    @Override
    public String toString() {
        return events.toString();
    }

    @Override
    public void rankConnected(int rank) {
        events.add("connected " + rank);
    }

    @Override
    public void rankFinalized(int rank) {
        events.add("finalized " + rank);
    }

    @Override
    public void rankAborted(int rank, int exitCode) {
        events.add("aborted " + rank + " " + exitCode);
    }

    @Override
    public void rankDisconnected(int rank) {
        events.add("disconnected " + rank);
    }

    @Override
    public void protocolError(int rank, String problem) {
        events.add("protocolError " + rank + " " + problem);
    }

    @Override
    public void connectionsRejected(String report) {
        if (rejections) {
            events.add(report);
        }
    }

    @Override
    public void serverFailed(Exception cause) {
        events.add("serverFailed " + cause);
    }
}
