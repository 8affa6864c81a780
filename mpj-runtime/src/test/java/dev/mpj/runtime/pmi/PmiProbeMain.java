package dev.mpj.runtime.pmi;

import dev.mpj.runtime.config.Settings;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One rank of a job under a real process manager: publishes a small key and a multi-segment card, waits at
 * the barrier, reads its right neighbour's, and prints {@code key=value} lines for {@link PmiUnderHydraTest}.
 * With the argument {@code abort}, the last rank instead asks the process manager to end the job with exit
 * code 7 while the others wait at the barrier.
 */
public final class PmiProbeMain {
    private PmiProbeMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        PmiClient pmi = PmiClients.fromEnvironment(Settings.fromEnvironment(), System.getenv());
        int rank = pmi.rank();
        if (args.length > 0 && args[0].equals("abort") && rank == pmi.size() - 1) {
            pmi.abort(7, "probe abort");
            Thread.sleep(30_000); // the process manager kills the job; exiting on our own would hide a lost abort
            return;
        }
        int peer = (rank + 1) % pmi.size();
        pmi.put("probe-" + rank, "hello-from-" + rank);
        PmiKvs.putBytes(pmi, "card-" + rank, card(rank));
        pmi.barrier();
        String value = pmi.get("probe-" + peer);
        byte[] card = PmiKvs.getBytes(pmi, "card-" + peer);
        String line = "rank=" + rank + " size=" + pmi.size() + " dialect=" + pmi.dialect()
                + " got=" + value + " card=" + (Arrays.equals(card, card(peer)) ? "ok" : "bad")
                + " mapping=" + pmi.processMapping();
        pmi.finish();
        System.out.println(line);
    }

    /** 1500 bytes: 3000 hex characters, five PMI-1 segments. */
    private static byte[] card(int rank) {
        return ("card of rank " + rank + " ").repeat(100).substring(0, 1500).getBytes(StandardCharsets.US_ASCII);
    }
}
