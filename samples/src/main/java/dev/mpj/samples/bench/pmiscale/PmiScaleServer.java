package dev.mpj.samples.bench.pmiscale;

import dev.mpj.runtime.pmi.wire.PmiVariables;

import java.net.InetSocketAddress;
import java.time.Duration;

/**
 * The PMI server of one simulated job in a process of its own, as mpjrun runs it beside its ranks: the
 * simulated ranks' sockets and the server's would not fit one process's descriptor limit at 16,384 ranks.
 * Arguments: ranks, nodes, KVS name, time limit in seconds, and {@code agents} for one node agent per node; the
 * secret comes in {@value PmiVariables#SECRET}. Prints {@code port HOST:PORT …}, one per node, then exits 0 once
 * every rank has finalized, or 1 saying what went wrong.
 */
public final class PmiScaleServer {
    private PmiScaleServer() {
    }

    public static void main(String[] args) {
        int size = Integer.parseInt(args[0]);
        int nodes = Integer.parseInt(args[1]);
        boolean agents = args.length > 4 && args[4].equals("agents");
        try (ServerRun run = new ServerRun(size, nodes, args[2], System.getenv(PmiVariables.SECRET), agents)) {
            StringBuilder ports = new StringBuilder("port");
            for (InetSocketAddress a : run.addressOfNode()) {
                ports.append(' ').append(a.getAddress().getHostAddress()).append(':').append(a.getPort());
            }
            System.out.println(ports);
            System.out.flush();
            run.awaitFinalized(Duration.ofSeconds(Long.parseLong(args[3])));
        } catch (Exception e) {
            System.err.println("pmi-scale server: " + e.getMessage());
            System.exit(1);
        }
        System.exit(0);
    }
}
