package dev.mpj.runtime.node;

import dev.mpj.runtime.pmi.PmiClient;
import dev.mpj.runtime.pmi.PmiKvs;
import dev.mpj.runtime.pmi.wire.PmiException;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The node map when the process manager gives no {@code PMI_process_mapping}: every rank puts its host identity,
 * one barrier, every rank gets the P−1 others; ranks with equal identities share a node. Collective over the
 * job; costs 1 put, 1 barrier and P−1 gets per rank (counted by the client like any PMI traffic).
 */
public final class HostIdentityExchange {
    /** Followed by the rank. */
    static final String KEY_PREFIX = "mpj-host-";

    private HostIdentityExchange() {
    }

    /** Exchanges {@code hostIdentity} with every rank of the job and builds the node map from all of them. */
    public static NodeMap nodeMap(PmiClient pmi, String hostIdentity) {
        return fromIdentities(identities(pmi, KEY_PREFIX, hostIdentity));
    }

    /**
     * Every rank's host identity, by rank: each puts its own under {@code keyPrefix} and its rank, one barrier,
     * then P−1 gets. Collective over the job; a prefix serves one exchange only.
     */
    public static String[] identities(PmiClient pmi, String keyPrefix, String hostIdentity) {
        if (hostIdentity.isEmpty()) {
            throw new IllegalArgumentException("a host identity is not empty");
        }
        int rank = pmi.rank();
        int size = pmi.size();
        PmiKvs.putBytes(pmi, keyPrefix + rank, hostIdentity.getBytes(StandardCharsets.UTF_8));
        pmi.barrier();
        String[] identities = new String[size];
        for (int peer = 0; peer < size; peer++) {
            if (peer == rank) {
                identities[peer] = hostIdentity;
                continue;
            }
            byte[] identity = PmiKvs.getBytes(pmi, keyPrefix + peer);
            if (identity == null) {
                throw new PmiException("rank " + peer + " published no host identity under " + keyPrefix + peer);
            }
            identities[peer] = new String(identity, StandardCharsets.UTF_8);
        }
        return identities;
    }

    /** The node map of ranks named by host identity. */
    static NodeMap fromIdentities(String[] identities) {
        Map<String, Integer> ids = new HashMap<>();
        int[] nodeIds = new int[identities.length];
        for (int rank = 0; rank < identities.length; rank++) {
            Integer id = ids.get(identities[rank]);
            if (id == null) {
                id = ids.size();
                ids.put(identities[rank], id);
            }
            nodeIds[rank] = id;
        }
        return NodeMap.fromNodeIds(nodeIds);
    }

    /** This machine's host name: the kernel's (cheap, no DNS), else the JDK's, else "localhost". */
    public static String localHostIdentity() {
        try {
            String name = Files.readString(Path.of("/proc/sys/kernel/hostname")).trim();
            if (!name.isEmpty()) {
                return name;
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: ask the JDK
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "localhost";
        }
    }
}
