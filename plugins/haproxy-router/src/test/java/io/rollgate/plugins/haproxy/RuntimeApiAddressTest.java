package io.rollgate.plugins.haproxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RuntimeApiAddressTest {

  @Test
  void readsUnixSocketPaths() {
    assertEquals(
        "/run/haproxy/admin.sock", RuntimeApiAddress.parse("/run/haproxy/admin.sock").unixPath());
    assertEquals(
        "/run/haproxy/admin.sock",
        RuntimeApiAddress.parse("unix@/run/haproxy/admin.sock").unixPath());
  }

  @Test
  void readsHostAndPort() {
    RuntimeApiAddress a = RuntimeApiAddress.parse("haproxy.ingress.svc:9999");
    assertEquals("haproxy.ingress.svc", a.host());
    assertEquals(9999, a.port());
    assertEquals("127.0.0.1", RuntimeApiAddress.parse("ipv4@127.0.0.1:9999").host());
    RuntimeApiAddress v6 = RuntimeApiAddress.parse("[::1]:9999");
    assertEquals("::1", v6.host());
    assertEquals("[::1]:9999", v6.toString());
  }

  @Test
  void refusesWhatIsNeitherPathNorHostPort() {
    for (String bad :
        new String[] {
          "admin.sock", "host", "host:", ":99", "host:0", "host:70000", "host:x", "::1:99"
        }) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> RuntimeApiAddress.parse(bad));
      assertTrue(e.getMessage().contains(bad), e.getMessage());
    }
  }
}
