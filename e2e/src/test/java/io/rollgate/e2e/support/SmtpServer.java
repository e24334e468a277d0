package io.rollgate.e2e.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A real SMTP server on a free loopback port for the notification tests: aiosmtpd (PyPI, installed
 * and cached by {@code e2e/cluster/install-smtp}, whose python {@code bin/test} exports as {@code
 * ROLLGATE_SMTP_PYTHON}) with its Maildir handler, so every accepted message lands as a file the
 * test reads.
 */
public final class SmtpServer implements AutoCloseable {

  /**
   * One received message.
   *
   * @param headers its headers (names lower-cased; the first value of each)
   * @param body its body, decoded from quoted-printable when so encoded
   */
  public record Mail(Map<String, String> headers, String body) {

    /**
     * A header.
     *
     * @param name the name, any case
     * @return the value, or null
     */
    public String header(String name) {
      return headers.get(name.toLowerCase(Locale.ROOT));
    }
  }

  private final Process process;
  private final Path maildir;
  private final int port;

  private SmtpServer(Process process, Path maildir, int port) {
    this.process = process;
    this.maildir = maildir;
    this.port = port;
  }

  /**
   * Starts the server and waits until it accepts connections.
   *
   * @return the server
   */
  public static SmtpServer start() {
    String python = LocalServers.installed("ROLLGATE_SMTP_PYTHON", "install-smtp");
    try {
      Path maildir = Files.createTempDirectory("rollgate-smtp");
      int port = ControllerProcess.freePort();
      Process p =
          new ProcessBuilder(
                  python,
                  "-m",
                  "aiosmtpd",
                  "-n",
                  "-l",
                  "127.0.0.1:" + port,
                  "-c",
                  "aiosmtpd.handlers.Mailbox",
                  maildir.resolve("box").toString())
              .redirectErrorStream(true)
              .redirectOutput(Path.of("target", "smtp-" + port + ".log").toFile())
              .start();
      SmtpServer server = new SmtpServer(p, maildir.resolve("box"), port);
      Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
      while (true) {
        try (Socket s = new Socket()) {
          s.connect(new InetSocketAddress("127.0.0.1", port), 500);
          return server;
        } catch (IOException e) {
          if (!p.isAlive() || Instant.now().isAfter(deadline)) {
            server.close();
            throw new IllegalStateException(
                "the SMTP server did not start (target/smtp-" + port + ".log)", e);
          }
          pause();
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void pause() {
    try {
      Thread.sleep(100);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** The port. */
  public int port() {
    return port;
  }

  /**
   * The messages received so far, oldest first.
   *
   * @return the messages
   */
  public List<Mail> messages() {
    Path fresh = maildir.resolve("new");
    if (!Files.isDirectory(fresh)) {
      return List.of();
    }
    List<Mail> out = new ArrayList<>();
    try (Stream<Path> files = Files.list(fresh)) {
      for (Path f : files.sorted(Comparator.comparing(SmtpServer::modified)).toList()) {
        out.add(parse(Files.readString(f, StandardCharsets.ISO_8859_1)));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  private static java.nio.file.attribute.FileTime modified(Path p) {
    try {
      return Files.getLastModifiedTime(p);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Parses a single-part RFC 5322 message (what the notification engine's e-mail service writes).
   */
  static Mail parse(String raw) {
    String text = raw.replace("\r\n", "\n");
    int split = text.indexOf("\n\n");
    String head = split < 0 ? text : text.substring(0, split);
    String body = split < 0 ? "" : text.substring(split + 2);
    Map<String, String> headers = new LinkedHashMap<>();
    String last = null;
    for (String line : head.split("\n")) {
      if ((line.startsWith(" ") || line.startsWith("\t")) && last != null) {
        headers.put(last, headers.get(last) + " " + line.strip());
      } else if (line.contains(":")) {
        last = line.substring(0, line.indexOf(':')).strip().toLowerCase(Locale.ROOT);
        headers.putIfAbsent(last, line.substring(line.indexOf(':') + 1).strip());
      }
    }
    if ("quoted-printable".equalsIgnoreCase(headers.get("content-transfer-encoding"))) {
      body = quotedPrintable(body);
    }
    return new Mail(headers, body);
  }

  private static String quotedPrintable(String s) {
    String joined = s.replace("=\n", "");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int i = 0; i < joined.length(); i++) {
      char c = joined.charAt(i);
      if (c == '=' && i + 2 < joined.length()) {
        out.write(Integer.parseInt(joined.substring(i + 1, i + 3), 16));
        i += 2;
      } else {
        out.write((byte) c);
      }
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(5, java.util.concurrent.TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }
}
