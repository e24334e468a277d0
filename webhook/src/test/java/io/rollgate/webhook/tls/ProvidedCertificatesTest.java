package io.rollgate.webhook.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Vertx;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProvidedCertificatesTest {

  static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
  static final List<String> SANS =
      List.of(
          "rollgate-webhook.ops.svc", "rollgate-webhook.ops.svc.cluster.local", "rollgate-webhook");

  final Vertx vertx = Vertx.vertx();
  final CertificateIssuer issuer = new CertificateIssuer(Clock.fixed(NOW, ZoneOffset.UTC));

  @TempDir Path dir;

  @AfterEach
  void close() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  void write(CertBundle b) throws Exception {
    Files.writeString(dir.resolve("ca.crt"), b.caCrt());
    Files.writeString(dir.resolve("tls.crt"), b.tlsCrt());
    Files.writeString(dir.resolve("tls.key"), b.tlsKey());
  }

  Throwable failure(ProvidedCertificates source) throws Exception {
    try {
      source.ensure().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
      return null;
    } catch (java.util.concurrent.ExecutionException e) {
      return e.getCause();
    }
  }

  @Test
  void readsTheMountedFiles_andNeverReportsAWrite() throws Exception {
    CertBundle b = issuer.issue(SANS.get(0), SANS, Duration.ofDays(3650), Duration.ofDays(90));
    write(b);
    CertificateManager.Ensured e =
        ProvidedCertificates.fromDirectory(vertx, issuer, SANS, dir)
            .ensure()
            .toCompletionStage()
            .toCompletableFuture()
            .get(10, TimeUnit.SECONDS);
    assertEquals(b, e.bundle());
    assertFalse(e.written());
  }

  @Test
  void picksUpChangedFilesOnTheNextCall() throws Exception {
    ProvidedCertificates source = ProvidedCertificates.fromDirectory(vertx, issuer, SANS, dir);
    write(issuer.issue(SANS.get(0), SANS, Duration.ofDays(3650), Duration.ofDays(90)));
    source.ensure().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    CertBundle renewed =
        issuer.issue(SANS.get(0), SANS, Duration.ofDays(3650), Duration.ofDays(90));
    write(renewed);
    assertEquals(
        renewed,
        source
            .ensure()
            .toCompletionStage()
            .toCompletableFuture()
            .get(10, TimeUnit.SECONDS)
            .bundle());
  }

  @Test
  void refusesMissingFiles_aMissingSan_andAnExpiredCertificate_namingTheDirectory()
      throws Exception {
    ProvidedCertificates source = ProvidedCertificates.fromDirectory(vertx, issuer, SANS, dir);
    Throwable missing = failure(source);
    assertTrue(
        missing.getMessage().startsWith("directory " + dir + ": missing"), missing.getMessage());

    write(
        issuer.issue(
            "other.svc", List.of("other.svc"), Duration.ofDays(3650), Duration.ofDays(90)));
    Throwable san = failure(source);
    assertTrue(san.getMessage().contains("lacks SAN rollgate-webhook.ops.svc"), san.getMessage());

    CertificateIssuer past =
        new CertificateIssuer(Clock.fixed(NOW.minus(Duration.ofDays(30)), ZoneOffset.UTC));
    write(past.issue(SANS.get(0), SANS, Duration.ofDays(3650), Duration.ofDays(10)));
    Throwable expired = failure(source);
    assertTrue(expired.getMessage().contains("within the renewal window"), expired.getMessage());
  }

  @Test
  void refusesAKeyThatDoesNotMatchTheCertificate() throws Exception {
    CertBundle one = issuer.issue(SANS.get(0), SANS, Duration.ofDays(3650), Duration.ofDays(90));
    CertBundle two = issuer.issue(SANS.get(0), SANS, Duration.ofDays(3650), Duration.ofDays(90));
    write(new CertBundle(one.caCrt(), one.tlsCrt(), two.tlsKey()));
    Throwable e = failure(ProvidedCertificates.fromDirectory(vertx, issuer, SANS, dir));
    assertTrue(e.getMessage().contains("does not match"), e.getMessage());
  }
}
