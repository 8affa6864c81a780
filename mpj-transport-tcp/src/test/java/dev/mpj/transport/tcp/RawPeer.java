package dev.mpj.transport.tcp;

import dev.mpj.runtime.spi.FrameHeader;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A peer made of a plain socket that writes the wire format byte by byte, as a specification of it and to
 * misbehave in ways the transport never would.
 */
final class RawPeer implements AutoCloseable {
    static final int MAGIC = 0x4D504A54; // "MPJT"
    static final int VERSION = 1;

    private final Socket socket;
    private final DataOutputStream out;
    private final DataInputStream in;

    RawPeer(Socket socket) throws IOException {
        this.socket = socket;
        socket.setSoTimeout(10_000);
        out = new DataOutputStream(socket.getOutputStream());
        in = new DataInputStream(socket.getInputStream());
    }

    static RawPeer connect(TcpAddress listener) throws IOException {
        return new RawPeer(new Socket(listener.host(), listener.port()));
    }

    /** HELLO: magic, version, reserved, claimed rank, the acceptor's credential (network byte order). */
    RawPeer hello(int claimedRank, byte[] credential) throws IOException {
        out.writeInt(MAGIC);
        out.writeShort(VERSION);
        out.writeShort(0);
        out.writeInt(claimedRank);
        out.write(credential);
        out.flush();
        return this;
    }

    /** Reads HELLO_ACK and returns the rank it names. */
    int readAck() throws IOException {
        if (in.readInt() != MAGIC || in.readShort() != VERSION) {
            throw new AssertionError("not a HELLO_ACK");
        }
        in.readShort();
        return in.readInt();
    }

    /** Reads a HELLO and returns the claimed rank; the credential is read into {@code credential}. */
    int readHello(byte[] credential) throws IOException {
        if (in.readInt() != MAGIC || in.readShort() != VERSION) {
            throw new AssertionError("not a HELLO");
        }
        in.readShort();
        int rank = in.readInt();
        in.readFully(credential);
        return rank;
    }

    /** HELLO_ACK as rank {@code rank}. */
    RawPeer ack(int rank) throws IOException {
        out.writeInt(MAGIC);
        out.writeShort(VERSION);
        out.writeShort(0);
        out.writeInt(rank);
        out.flush();
        return this;
    }

    /** One frame: a 4-byte little-endian length, then the header and the payload. */
    RawPeer frame(byte kind, int tag, byte[] payload) throws IOException {
        ByteBuffer frame = ByteBuffer.allocate(4 + FrameHeader.LENGTH + payload.length).order(ByteOrder.LITTLE_ENDIAN);
        frame.putInt(FrameHeader.LENGTH + payload.length);
        frame.position(4);
        FrameHeader.write(frame, kind, 0, 0, tag, 0, 0);
        frame.position(4 + FrameHeader.LENGTH);
        frame.put(payload);
        return raw(frame.array());
    }

    /** Just a length field, little-endian. */
    RawPeer lengthField(int length) throws IOException {
        return raw(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(length).array());
    }

    RawPeer raw(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
        return this;
    }

    /** Reads the rest of what the other side sends; true if it closed the connection (EOF or reset). */
    boolean closedByOtherSide() throws IOException {
        try {
            while (in.read() >= 0) {
                // discard
            }
            return true;
        } catch (EOFException | SocketException e) {
            return true;
        }
    }

    /** Closes at once, with no BYE. */
    @Override
    public void close() throws IOException {
        socket.close();
    }
}
