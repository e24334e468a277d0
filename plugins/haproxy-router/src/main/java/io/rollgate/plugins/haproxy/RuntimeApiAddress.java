package io.rollgate.plugins.haproxy;

import io.vertx.core.net.SocketAddress;

/**
 * Where HAProxy's runtime API listens: a {@code stats socket} line of the HAProxy configuration
 * with {@code level admin}, either a unix socket or a TCP address.
 *
 * @param unixPath the absolute path of the unix socket, or null for TCP
 * @param host the TCP host (name or IP), or null for a unix socket
 * @param port the TCP port (1 to 65535), or 0 for a unix socket
 */
public record RuntimeApiAddress(String unixPath, String host, int port) {

  /**
   * Reads the address as written in the configuration: {@code /run/haproxy/admin.sock}, {@code
   * unix@/run/...}, {@code 127.0.0.1:9999}, {@code haproxy.ingress.svc:9999} or {@code [::1]:9999}
   * (HAProxy's own spellings).
   *
   * @param text the configured value
   * @return the address
   * @throws IllegalArgumentException when it is neither an absolute socket path nor host:port (the
   *     message gives the reason, without the field name)
   */
  public static RuntimeApiAddress parse(String text) {
    String value = text.strip();
    if (value.startsWith("unix@")) {
      value = value.substring("unix@".length());
    }
    if (value.startsWith("/")) {
      return new RuntimeApiAddress(value, null, 0);
    }
    for (String prefix : new String[] {"ipv4@", "ipv6@", "tcp@"}) {
      if (value.startsWith(prefix)) {
        value = value.substring(prefix.length());
      }
    }
    int colon = value.lastIndexOf(':');
    if (colon <= 0 || colon == value.length() - 1) {
      throw new IllegalArgumentException(
          "\""
              + text
              + "\" is neither an absolute unix socket path (/run/haproxy/admin.sock) nor host:port");
    }
    String host = value.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    } else if (host.contains(":")) {
      throw new IllegalArgumentException(
          "\"" + text + "\": write an IPv6 address in brackets, [::1]:9999");
    }
    int port;
    try {
      port = Integer.parseInt(value.substring(colon + 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("\"" + text + "\": the port is not a number");
    }
    if (port < 1 || port > 65535 || host.isEmpty()) {
      throw new IllegalArgumentException(
          "\"" + text + "\": the port must be 1 to 65535 and the host not empty");
    }
    return new RuntimeApiAddress(null, host, port);
  }

  /**
   * The Vert.x address to connect to.
   *
   * @return a domain socket address or an inet socket address
   */
  public SocketAddress socketAddress() {
    return unixPath != null
        ? SocketAddress.domainSocketAddress(unixPath)
        : SocketAddress.inetSocketAddress(port, host);
  }

  @Override
  public String toString() {
    if (unixPath != null) {
      return unixPath;
    }
    return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
  }
}
