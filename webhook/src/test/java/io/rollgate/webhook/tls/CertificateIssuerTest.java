package io.rollgate.webhook.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringReader;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.openssl.PEMParser;
import org.junit.jupiter.api.Test;

class CertificateIssuerTest {

  static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
  static final List<String> SANS =
      List.of(
          "rollgate-webhook.ops.svc",
          "rollgate-webhook.ops.svc.cluster.local",
          "rollgate-webhook",
          "127.0.0.1");

  final CertificateIssuer issuer = new CertificateIssuer(Clock.fixed(NOW, ZoneOffset.UTC));

  @Test
  void servingCertificateCarriesDnsAndIpSansAndIsSignedByCa() throws Exception {
    CertBundle b = issuer.issue(SANS.get(0), SANS, Duration.ofDays(3650), Duration.ofDays(365));
    X509CertificateHolder holder;
    try (PEMParser p = new PEMParser(new StringReader(b.tlsCrt()))) {
      holder = (X509CertificateHolder) p.readObject();
    }
    GeneralNames names =
        GeneralNames.fromExtensions(holder.getExtensions(), Extension.subjectAlternativeName);
    GeneralName[] all = names.getNames();
    assertEquals(4, all.length);
    assertEquals(GeneralName.dNSName, all[0].getTagNo());
    assertEquals("rollgate-webhook.ops.svc", all[0].getName().toString());
    assertEquals(GeneralName.dNSName, all[2].getTagNo());
    assertEquals(GeneralName.iPAddress, all[3].getTagNo());
    X509Certificate cert = CertificateIssuer.parseCertificate(b.tlsCrt());
    X509Certificate ca = CertificateIssuer.parseCertificate(b.caCrt());
    cert.verify(ca.getPublicKey());
    assertEquals(-1, cert.getBasicConstraints());
    assertTrue(ca.getBasicConstraints() >= 0);
    assertTrue(cert.getExtendedKeyUsage().contains("1.3.6.1.5.5.7.3.1"), "serverAuth");
    assertEquals(
        List.of(SANS.get(0), SANS.get(1), SANS.get(2), "127.0.0.1"), CertificateIssuer.sans(cert));
  }

  @Test
  void validityFollowsTheConfiguredLifetimes() throws Exception {
    CertBundle b = issuer.issue(SANS.get(0), SANS, Duration.ofDays(3650), Duration.ofDays(30));
    X509Certificate cert = CertificateIssuer.parseCertificate(b.tlsCrt());
    X509Certificate ca = CertificateIssuer.parseCertificate(b.caCrt());
    assertEquals(NOW.plus(Duration.ofDays(30)), cert.getNotAfter().toInstant());
    assertEquals(NOW.plus(Duration.ofDays(3650)), ca.getNotAfter().toInstant());
    assertTrue(cert.getNotBefore().toInstant().isBefore(NOW));
  }

  @Test
  void goodBundleHasNoProblem() {
    CertBundle b = issuer.issue(SANS.get(0), SANS, Duration.ofDays(3650), Duration.ofDays(365));
    assertTrue(issuer.problem(b, SANS, Duration.ofDays(30)).isEmpty());
  }

  @Test
  void reportsExpiringMissingSanForeignKeyAndGarbage() {
    CertBundle b = issuer.issue(SANS.get(0), SANS, Duration.ofDays(3650), Duration.ofDays(20));
    assertTrue(
        issuer.problem(b, SANS, Duration.ofDays(30)).orElseThrow().contains("renewal window"));

    CertBundle good = issuer.issue(SANS.get(0), SANS, Duration.ofDays(3650), Duration.ofDays(365));
    List<String> more = new java.util.ArrayList<>(SANS);
    more.add("10.0.0.7");
    assertTrue(
        issuer
            .problem(good, more, Duration.ofDays(30))
            .orElseThrow()
            .contains("lacks SAN 10.0.0.7"));

    CertBundle other = issuer.issue(SANS.get(0), SANS, Duration.ofDays(3650), Duration.ofDays(365));
    CertBundle mixedKey = new CertBundle(good.caCrt(), good.tlsCrt(), other.tlsKey());
    assertTrue(
        issuer
            .problem(mixedKey, SANS, Duration.ofDays(30))
            .orElseThrow()
            .contains("key does not match"));
    CertBundle mixedCa = new CertBundle(other.caCrt(), good.tlsCrt(), good.tlsKey());
    assertTrue(
        issuer
            .problem(mixedCa, SANS, Duration.ofDays(30))
            .orElseThrow()
            .contains("not signed by the CA"));

    assertTrue(
        issuer.problem(new CertBundle("x", "y", "z"), SANS, Duration.ofDays(30)).isPresent());
    assertTrue(issuer.problem(null, SANS, Duration.ofDays(30)).orElseThrow().startsWith("missing"));
  }
}
