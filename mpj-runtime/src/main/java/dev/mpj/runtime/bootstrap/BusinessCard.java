package dev.mpj.runtime.bootstrap;

import dev.mpj.runtime.pmi.PmiClient;
import dev.mpj.runtime.pmi.PmiKvs;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * What a peer needs to reach a rank: its node, flags, and its transport's opaque address, in a compact binary
 * form (little-endian):
 * <pre>
 *   0        1        2                 4                                 8
 *   +--------+--------+-----------------+---------------------------------+------------------------+
 *   | format | flags  | address length  | node id                         | address bytes …        |
 *   +--------+--------+-----------------+---------------------------------+------------------------+
 * </pre>
 * Cards of different ranks may differ in length ({@link #encodedLength()}); a table of cards gives each a
 * slot of the agreed maximum length. On the PMI wire a card travels as hex through {@link PmiKvs} (segmented
 * when long). Immutable.
 */
public final class BusinessCard {
    /** The format this code writes and the only one it reads. */
    public static final int FORMAT = 1;
    public static final int HEADER_LENGTH = 8;
    /** Longest transport address a card carries. */
    public static final int MAX_ADDRESS_LENGTH = 1024;
    public static final int MAX_ENCODED_LENGTH = HEADER_LENGTH + MAX_ADDRESS_LENGTH;
    /** Flag: the rank is its node's root. */
    public static final int FLAG_NODE_ROOT = 1;
    /** Flag: the rank's TCP address is a loopback address, which only ranks of its own host can reach. */
    public static final int FLAG_LOOPBACK_TCP = 2;

    private static final int FORMAT_OFFSET = 0;
    private static final int FLAGS_OFFSET = 1;
    private static final int ADDRESS_LENGTH_OFFSET = 2;
    private static final int NODE_ID_OFFSET = 4;

    private final int nodeId;
    private final int flags;
    private final byte[] address;

    /**
     * @param nodeId  the rank's node (≥ 0)
     * @param flags   8 bits, e.g. {@link #FLAG_NODE_ROOT}
     * @param address the transport's address (copied), at most {@value #MAX_ADDRESS_LENGTH} bytes
     * @throws IllegalArgumentException when a value is out of range
     */
    public BusinessCard(int nodeId, int flags, byte[] address) {
        if (nodeId < 0) {
            throw new IllegalArgumentException("a node id is >= 0, not " + nodeId);
        }
        if ((flags & ~0xff) != 0) {
            throw new IllegalArgumentException("card flags are 8 bits, not 0x" + Integer.toHexString(flags));
        }
        if (address.length > MAX_ADDRESS_LENGTH) {
            throw new IllegalArgumentException("a card's address is at most " + MAX_ADDRESS_LENGTH
                    + " bytes, not " + address.length);
        }
        this.nodeId = nodeId;
        this.flags = flags;
        this.address = address.clone();
    }

    public int nodeId() {
        return nodeId;
    }

    public int flags() {
        return flags;
    }

    public boolean hasFlag(int flag) {
        return (flags & flag) == flag;
    }

    /** The transport's address (a copy). */
    public byte[] address() {
        return address.clone();
    }

    /** Bytes of {@link #encode()}. */
    public int encodedLength() {
        return encodedLength(address.length);
    }

    /** Bytes of the encoding of a card whose address has {@code addressLength} bytes. */
    public static int encodedLength(int addressLength) {
        return HEADER_LENGTH + addressLength;
    }

    public byte[] encode() {
        ByteBuffer b = ByteBuffer.allocate(encodedLength()).order(ByteOrder.LITTLE_ENDIAN);
        b.put(FORMAT_OFFSET, (byte) FORMAT)
                .put(FLAGS_OFFSET, (byte) flags)
                .putShort(ADDRESS_LENGTH_OFFSET, (short) address.length)
                .putInt(NODE_ID_OFFSET, nodeId)
                .put(HEADER_LENGTH, address);
        return b.array();
    }

    /**
     * The card encoded in {@code bytes}, which must hold exactly one card.
     *
     * @throws IllegalArgumentException when the bytes are not a card of this format
     */
    public static BusinessCard decode(byte[] bytes) {
        return decode(bytes, 0, bytes.length);
    }

    /** The card encoded in {@code length} bytes of {@code bytes} from {@code offset}. */
    public static BusinessCard decode(byte[] bytes, int offset, int length) {
        if (length < HEADER_LENGTH) {
            throw new IllegalArgumentException("a business card has at least " + HEADER_LENGTH + " bytes, not "
                    + length);
        }
        ByteBuffer b = ByteBuffer.wrap(bytes, offset, length).slice().order(ByteOrder.LITTLE_ENDIAN);
        int format = b.get(FORMAT_OFFSET) & 0xff;
        if (format != FORMAT) {
            throw new IllegalArgumentException("business card of format " + format + ", expected " + FORMAT
                    + " (every rank of a job must run the same mpj version)");
        }
        int addressLength = b.getShort(ADDRESS_LENGTH_OFFSET) & 0xffff;
        if (addressLength > MAX_ADDRESS_LENGTH || HEADER_LENGTH + addressLength != length) {
            throw new IllegalArgumentException("business card of " + length + " bytes announces an address of "
                    + addressLength + " bytes");
        }
        int nodeId = b.getInt(NODE_ID_OFFSET);
        if (nodeId < 0) {
            throw new IllegalArgumentException("business card with a negative node id " + nodeId);
        }
        byte[] address = new byte[addressLength];
        b.get(HEADER_LENGTH, address);
        return new BusinessCard(nodeId, b.get(FLAGS_OFFSET) & 0xff, address);
    }

    /** Puts the card under {@code key} as hex (several keys when long); visible after the next barrier. */
    public void publish(PmiClient pmi, String key) {
        PmiKvs.putBytes(pmi, key, encode());
    }

    /**
     * The card published under {@code key}, or null when there is none.
     *
     * @throws IllegalArgumentException when the value is not a card
     */
    public static BusinessCard fetch(PmiClient pmi, String key) {
        byte[] bytes = PmiKvs.getBytes(pmi, key);
        return bytes == null ? null : decode(bytes);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BusinessCard c && nodeId == c.nodeId && flags == c.flags
                && Arrays.equals(address, c.address);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * nodeId + flags) + Arrays.hashCode(address);
    }

    @Override
    public String toString() {
        return "BusinessCard[node " + nodeId + " flags 0x" + Integer.toHexString(flags) + " address "
                + HexFormat.of().formatHex(address) + "]";
    }
}
