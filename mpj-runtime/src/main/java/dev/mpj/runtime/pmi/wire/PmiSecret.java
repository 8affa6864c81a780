package dev.mpj.runtime.pmi.wire;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
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
        if (!fromKernel(bits)) {
            Random.GENERATOR.nextBytes(bits);
        }
        return HexFormat.of().formatHex(bits);
    }

    /**
     * Fills {@code bits} from the kernel's generator, which is what {@link SecureRandom} reads on Linux, without
     * the security providers it sets up first: about a hundred classes for a cold launcher on the way to its
     * first rank's start. False where there is no such device.
     */
    private static boolean fromKernel(byte[] bits) {
        try (InputStream in = new FileInputStream(KERNEL_RANDOM)) {
            return in.readNBytes(bits, 0, bits.length) == bits.length;
        } catch (IOException | SecurityException e) {
            return false;
        }
    }

    private static final String KERNEL_RANDOM = "/dev/urandom";

    /** Made only where the kernel's generator cannot be read; a rank, which only shows its secret, never does. */
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
