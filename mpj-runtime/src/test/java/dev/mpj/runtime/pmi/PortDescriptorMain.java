package dev.mpj.runtime.pmi;

import dev.mpj.runtime.config.Settings;

/**
 * Starts the PMI client its environment names, as a rank's {@code MPI.Init} does, then says its rank: for a child
 * JVM.
 */
public final class PortDescriptorMain {
    private PortDescriptorMain() {
    }

    public static void main(String[] args) {
        try (PmiClient client = PmiClients.fromEnvironment(Settings.fromEnvironment(), System.getenv())) {
            System.out.println("rank " + client.rank() + " over " + client.dialect());
        }
    }
}
