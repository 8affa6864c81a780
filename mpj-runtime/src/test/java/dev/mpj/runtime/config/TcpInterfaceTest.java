package dev.mpj.runtime.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.InetAddress;
import java.net.UnknownHostException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TcpInterfaceTest {
    private static TcpInterface parse(String text) {
        return Settings.defaults().with(Setting.TCP_INTERFACE, text).tcpInterface();
    }

    private static InetAddress ip(String literal) throws UnknownHostException {
        return InetAddress.getByName(literal);
    }

    @Test
    void theDefaultIsAuto() {
        assertTrue(Settings.defaults().tcpInterface().isAuto());
        assertTrue(Settings.defaults().tcpHostIsAuto());
    }

    @Test
    void aNameSelectsEveryAddressOfThatInterfaceOnly() throws Exception {
        TcpInterface eth0 = parse("eth0");
        assertTrue(eth0.selects("eth0", ip("192.0.2.2")));
        assertFalse(eth0.selects("eth1", ip("192.0.2.2")));
    }

    @ParameterizedTest(name = "{0} holds {1}: {2}")
    @CsvSource({"10.1.0.0/16, 10.1.255.3, true", "10.1.0.0/16, 10.2.0.1, false", "10.1.2.3/32, 10.1.2.3, true",
            "10.1.2.3/32, 10.1.2.4, false", "0.0.0.0/0, 192.0.2.1, true", "192.0.2.128/25, 192.0.2.127, false",
            "fd00::/8, fd12::1, true", "fd00::/8, fe80::1, false", "10.0.0.0/8, fd00::1, false"})
    void aCidrSelectsTheAddressesOfItsBlockWhateverTheInterface(String cidr, String address, boolean selected)
            throws Exception {
        assertEquals(selected, parse(cidr).selects("any", ip(address)));
    }

    @ParameterizedTest(name = "''{0}''")
    @ValueSource(strings = {"10.1.0.0/33", "10.1.0.0/x", "example.org/8", "/8", "eth 0", "fd00::/129", "10.1.0.0/-1"})
    void aMalformedValueIsRejectedNamingTheSetting(String text) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> parse(text));
        assertTrue(e.getMessage().startsWith("mpj.tcp.interface must be an interface name"), e.getMessage());
    }
}
