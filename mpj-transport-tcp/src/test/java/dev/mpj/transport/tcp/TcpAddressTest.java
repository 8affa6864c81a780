package dev.mpj.transport.tcp;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TcpAddressTest {
    private static byte[] credential() {
        byte[] c = new byte[TcpAddress.CREDENTIAL_LENGTH];
        for (int i = 0; i < c.length; i++) {
            c[i] = (byte) (0xA0 + i);
        }
        return c;
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "10.1.2.3", "::1", "fd00::1234:5678"})
    void encodedAddressDecodesToTheSameHostPortAndCredential(String host) throws Exception {
        TcpAddress a = new TcpAddress(InetAddress.getByName(host), 65535, credential());

        TcpAddress b = TcpAddress.decode(a.encode());

        assertEquals(a, b);
        assertEquals(InetAddress.getByName(host), b.host());
        assertEquals(65535, b.port());
        assertArrayEquals(credential(), b.credential());
        assertNull(b.initLinkAddress());
    }

    @Test
    void initLinkPortTravelsWithTheAddress() throws Exception {
        TcpAddress a = new TcpAddress(InetAddress.getByName("127.0.0.1"), 4000, credential(), 65535);

        TcpAddress b = TcpAddress.decode(a.encode());

        assertEquals(a, b);
        assertEquals(new InetSocketAddress("127.0.0.1", 65535), b.initLinkAddress());
        assertNotEquals(new TcpAddress(InetAddress.getByName("127.0.0.1"), 4000, credential()), b);
        assertThrows(IllegalArgumentException.class,
                () -> new TcpAddress(InetAddress.getByName("127.0.0.1"), 4000, credential(), 65536));
    }

    @Test
    void ipv4AddressEncodesInTwentyFiveBytes() throws Exception {
        byte[] encoded = new TcpAddress(InetAddress.getByName("127.0.0.1"), 4000, credential()).encode();

        assertEquals(1 + 4 + 2 + 16 + 2, encoded.length);
    }

    @Test
    void credentialIsComparedAndNeverPrinted() throws Exception {
        TcpAddress a = new TcpAddress(InetAddress.getByName("127.0.0.1"), 4000, credential());
        byte[] other = credential();
        other[15] ^= 1;

        assertTrue(a.credentialMatches(credential()));
        assertFalse(a.credentialMatches(other));
        assertEquals("/127.0.0.1:4000", a.toString());
    }

    @Test
    void truncatedOrOverlongAddressIsRejected() throws Exception {
        byte[] good = new TcpAddress(InetAddress.getByName("127.0.0.1"), 4000, credential()).encode();

        for (int length = 0; length < good.length; length++) {
            byte[] truncated = Arrays.copyOf(good, length);
            assertThrows(IllegalArgumentException.class, () -> TcpAddress.decode(truncated), "length " + length);
        }
        assertThrows(IllegalArgumentException.class, () -> TcpAddress.decode(Arrays.copyOf(good, good.length + 1)));
    }

    @ParameterizedTest
    @ValueSource(bytes = {0, 5, 6, 15, 17, -4})
    void addressLengthOtherThanFourOrSixteenIsRejected(byte ipLength) throws Exception {
        byte[] bad = new TcpAddress(InetAddress.getByName("127.0.0.1"), 4000, credential()).encode();
        bad[0] = ipLength;

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TcpAddress.decode(bad));
        assertTrue(e.getMessage().contains("malformed TCP address"), e.getMessage());
    }

    @Test
    void portZeroIsRejected() throws Exception {
        byte[] bad = new TcpAddress(InetAddress.getByName("127.0.0.1"), 4000, credential()).encode();
        bad[5] = 0;
        bad[6] = 0;

        assertThrows(IllegalArgumentException.class, () -> TcpAddress.decode(bad));
    }

    @Test
    void credentialOfWrongLengthIsRejected() throws Exception {
        InetAddress host = InetAddress.getByName("127.0.0.1");

        assertThrows(IllegalArgumentException.class, () -> new TcpAddress(host, 4000, new byte[15]));
    }

    @Test
    void everyNewCredentialIsDifferent() {
        byte[] a = TcpAddress.newCredential();
        byte[] b = TcpAddress.newCredential();

        assertEquals(TcpAddress.CREDENTIAL_LENGTH, a.length);
        assertFalse(Arrays.equals(a, b));
    }
}
