package dev.mpj.transport.tcp;

import java.io.FileInputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Objects;

/**
 * Where a rank's TCP listener is and the credential a connecting peer must present: the opaque address
 * that {@link TcpTransport#start} returns and {@link TcpTransport#addPeer} takes. Encoded compactly,
 * in network byte order:
 * <pre>
 *  1 byte            address length n (4 for IPv4, 16 for IPv6)
 *  n bytes           IP address
 *  2 bytes           port (unsigned, 1..65535)
 *  16 bytes          credential (random, one per listener)
 *  2 bytes           init-link port (unsigned; 0: none), where a node root accepts the other roots' init links
 * </pre>
 * IPv6 scope ids are not carried, so link-local IPv6 addresses cannot be advertised.
 */
public final class TcpAddress {
    /** Length of the random credential that a listener generates and checks. */
    public static final int CREDENTIAL_LENGTH = 16;

    private static final int PORT_LENGTH = 2;

    private final InetAddress host;
    private final int port;
    private final byte[] credential;
    private final int initLinkPort;

    /** An address without an init-link listener. */
    public TcpAddress(InetAddress host, int port, byte[] credential) {
        this(host, port, credential, 0);
    }

    /**
     * @param initLinkPort where {@link TcpInitLinks} accepts, or 0 when this rank has no init-link listener
     * @throws IllegalArgumentException if the port is not in 1..65535, the init-link port not in 0..65535, or the
     *                                  credential is not {@value #CREDENTIAL_LENGTH} bytes
     */
    public TcpAddress(InetAddress host, int port, byte[] credential, int initLinkPort) {
        this.host = Objects.requireNonNull(host, "host");
        if (port < 1 || port > 0xFFFF) {
            throw new IllegalArgumentException("TCP port must be in 1..65535, not " + port);
        }
        if (initLinkPort < 0 || initLinkPort > 0xFFFF) {
            throw new IllegalArgumentException("init-link port must be in 0..65535, not " + initLinkPort);
        }
        if (credential.length != CREDENTIAL_LENGTH) {
            throw new IllegalArgumentException("credential must be " + CREDENTIAL_LENGTH + " bytes, not "
                    + credential.length);
        }
        this.port = port;
        this.credential = credential.clone();
        this.initLinkPort = initLinkPort;
    }

    /**
     * Decodes what {@link #encode} wrote.
     *
     * @throws IllegalArgumentException if {@code bytes} is not exactly one well-formed address
     */
    public static TcpAddress decode(byte[] bytes) {
        Objects.requireNonNull(bytes, "address");
        if (bytes.length == 0) {
            throw new IllegalArgumentException("malformed TCP address: empty");
        }
        int ipLength = bytes[0];
        if (ipLength != 4 && ipLength != 16) {
            throw new IllegalArgumentException("malformed TCP address: IP address length " + ipLength
                    + " is neither 4 nor 16");
        }
        int expected = encodedLength(ipLength);
        if (bytes.length != expected) {
            throw new IllegalArgumentException("malformed TCP address: " + bytes.length + " bytes, expected "
                    + expected);
        }
        ByteBuffer in = ByteBuffer.wrap(bytes, 1, bytes.length - 1);
        byte[] ip = new byte[ipLength];
        in.get(ip);
        int port = Short.toUnsignedInt(in.getShort());
        byte[] credential = new byte[CREDENTIAL_LENGTH];
        in.get(credential);
        int initLinkPort = Short.toUnsignedInt(in.getShort());
        try {
            return new TcpAddress(InetAddress.getByAddress(ip), port, credential, initLinkPort);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("malformed TCP address: " + e.getMessage(), e);
        }
    }

    public byte[] encode() {
        byte[] ip = host.getAddress();
        ByteBuffer out = ByteBuffer.allocate(encodedLength(ip.length));
        out.put((byte) ip.length).put(ip).putShort((short) port).put(credential).putShort((short) initLinkPort);
        return out.array();
    }

    public InetAddress host() {
        return host;
    }

    public int port() {
        return port;
    }

    public InetSocketAddress socketAddress() {
        return new InetSocketAddress(host, port);
    }

    /** Where this rank accepts init links, or null when it has no init-link listener. */
    public InetSocketAddress initLinkAddress() {
        return initLinkPort == 0 ? null : new InetSocketAddress(host, initLinkPort);
    }

    /** A copy of the credential. */
    public byte[] credential() {
        return credential.clone();
    }

    /** Whether {@code candidate} is this address's credential, compared in constant time. */
    public boolean credentialMatches(byte[] candidate) {
        return MessageDigest.isEqual(credential, candidate);
    }

    /**
     * A new random credential. Read straight from the kernel's generator ({@code /dev/urandom}, which
     * {@link SecureRandom}'s default on Unix reads too) because the first {@code SecureRandom} in a JVM
     * costs about 20 ms of provider loading on the {@code MPI.Init} path; {@code SecureRandom} elsewhere.
     */
    static byte[] newCredential() {
        try (FileInputStream urandom = new FileInputStream("/dev/urandom")) {
            byte[] credential = urandom.readNBytes(CREDENTIAL_LENGTH);
            if (credential.length == CREDENTIAL_LENGTH) {
                return credential;
            }
        } catch (IOException noUrandom) {
            // not a Unix system: fall through
        }
        byte[] credential = new byte[CREDENTIAL_LENGTH];
        new SecureRandom().nextBytes(credential);
        return credential;
    }

    private static int encodedLength(int ipLength) {
        return 1 + ipLength + PORT_LENGTH + CREDENTIAL_LENGTH + PORT_LENGTH;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TcpAddress a && port == a.port && host.equals(a.host)
                && Arrays.equals(credential, a.credential) && initLinkPort == a.initLinkPort;
    }

    @Override
    public int hashCode() {
        return 31 * host.hashCode() + port;
    }

    /** Host and port only: the credential is a secret. */
    @Override
    public String toString() {
        return socketAddress().toString();
    }
}
