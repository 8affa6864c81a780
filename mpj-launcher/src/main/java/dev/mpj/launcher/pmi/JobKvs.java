package dev.mpj.launcher.pmi;

import dev.mpj.runtime.pmi.wire.ProcessMapping;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The job's key-value space: puts are staged until the next barrier {@link #publish publishes} them, and
 * {@value ProcessMapping#KEY} is always served. Also the PMI-2 node attributes, one store per node of the
 * mapping, visible at once to the ranks of that node, with the gets that wait for a key not put yet.
 */
final class JobKvs {
    /** A PMI-2 get waiting for a node attribute; {@code thrid} is echoed when it is answered. */
    record NodeAttributeWaiter(PmiClientConnection connection, String thrid) {
    }

    private record NodeKey(int node, String key) {
    }

    private final ProcessMapping mapping;
    private final Map<String, String> published = new HashMap<>();
    private final Map<String, String> staged = new HashMap<>();
    private final List<Map<String, String>> nodeAttributes = new ArrayList<>();
    private final Map<NodeKey, List<NodeAttributeWaiter>> nodeAttributeWaiters = new HashMap<>();
    private SharedKvsPublisher shared;

    JobKvs(ProcessMapping mapping) {
        this.mapping = mapping;
        for (int node = 0; node < mapping.nodes(); node++) {
            nodeAttributes.add(new HashMap<>());
        }
    }

    /** A put: invisible, even to its putter, until the next barrier. */
    void stage(String key, String value) {
        staged.put(key, value);
    }

    /** Also writes what is published into {@code publisher}'s table, from the next barrier on. */
    void publishTo(SharedKvsPublisher publisher) {
        shared = publisher;
    }

    /** Makes the staged puts visible (in the shared table too, if any); the barrier calls it when it completes. */
    void publish() {
        publish(takeStaged());
    }

    /** The puts staged since the last barrier, which no longer are. */
    Map<String, String> takeStaged() {
        Map<String, String> taken = new HashMap<>(staged);
        staged.clear();
        return taken;
    }

    /** Makes {@code entries} visible (in the shared table too, if any): what a barrier of the whole job published. */
    void publish(Map<String, String> entries) {
        if (shared != null) {
            shared.publish(entries);
        }
        published.putAll(entries);
    }

    /** A published value, or the process mapping; null when nobody put {@code key} before the last barrier. */
    String get(String key) {
        return key.equals(ProcessMapping.KEY) ? mapping.pmiValue() : published.get(key);
    }

    /** Stores a node attribute for the node of {@code rank}; returns the gets that waited for it, now answered. */
    List<NodeAttributeWaiter> putNodeAttribute(int rank, String key, String value) {
        int node = mapping.nodeOf(rank);
        nodeAttributes.get(node).put(key, value);
        List<NodeAttributeWaiter> waiting = nodeAttributeWaiters.remove(new NodeKey(node, key));
        return waiting == null ? List.of() : waiting;
    }

    /** A node attribute of the node of {@code rank}, or null when none of its ranks has put it. */
    String nodeAttribute(int rank, String key) {
        return nodeAttributes.get(mapping.nodeOf(rank)).get(key);
    }

    /** Holds {@code waiter} until a rank of the node of {@code rank} puts {@code key}. */
    void awaitNodeAttribute(int rank, String key, NodeAttributeWaiter waiter) {
        nodeAttributeWaiters.computeIfAbsent(new NodeKey(mapping.nodeOf(rank), key), k -> new ArrayList<>())
                .add(waiter);
    }

    /** {@code c} closed: its waiting gets are dropped. */
    void forget(PmiClientConnection c) {
        for (List<NodeAttributeWaiter> waiters : nodeAttributeWaiters.values()) {
            waiters.removeIf(w -> w.connection() == c);
        }
    }
}
