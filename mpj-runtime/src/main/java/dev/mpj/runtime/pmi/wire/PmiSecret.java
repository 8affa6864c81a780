package dev.mpj.runtime.pmi.wire;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * The job secret of mpjrun's PMI server: 128 random bits in hex, given to the ranks in
 * {@value PmiVariables#SECRET} and shown by their clients as the first line of the connection,
 * {@code cmd=mpj_secret secret=<hex>}, with no reply. Hydra and Slurm never see the line: their ranks have no such
 * variable.
 */
public final class PmiSecret {
    /** The command of the line that shows the secret. */
    public static final String COMMAND = "mpj_secret";
    private static final String FIELD = "secret";

    private PmiSecret() {
    }

    /** A fresh secret: 32 hex digits. */
    public static String newSecret() {
        byte[] bits = new byte[16];
        Random.GENERATOR.nextBytes(bits);
        return HexFormat.of().formatHex(bits);
    }

    /**
     * Made on the first secret only: a rank, which only shows its secret, never sets up the security providers
     * a {@link SecureRandom} needs, which cost a cold JVM dozens of classes on the way into {@code MPI.Init}.
     */
    private static final class Random {
        static final SecureRandom GENERATOR = new SecureRandom();
    }

    /** The line that shows {@code secret}. */
    public static Pmi1Message message(String secret) {
        return Pmi1Message.of(COMMAND, FIELD, secret);
    }

    /** Whether {@code m} is the line showing exactly {@code secret}; compared in constant time. */
    public static boolean shows(Pmi1Message m, String secret) {
        String shown = COMMAND.equals(m.get("cmd")) ? m.get(FIELD) : null;
        return shown != null && MessageDigest.isEqual(shown.getBytes(StandardCharsets.US_ASCII),
                secret.getBytes(StandardCharsets.US_ASCII));
    }
}
