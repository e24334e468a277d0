package io.rollgate.webhook.tls;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Date;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Issues and checks the webhook's certificates with BouncyCastle: a self-signed CA and a serving
 * certificate for the Service's DNS names and any extra DNS names or IP addresses. Keys are ECDSA
 * P-256, signatures SHA-256. Uses the JDK's providers for keys and signatures and BouncyCastle only
 * to build, encode and parse certificates.
 *
 * <p>Blocking (key generation, parsing): call it from a worker ({@code executeBlocking}), never on
 * an event loop.
 */
public final class CertificateIssuer {

  private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
  private static final Duration BACKDATE = Duration.ofMinutes(5);

  private final Clock clock;
  private final SecureRandom random = new SecureRandom();

  /**
   * Creates an issuer.
   *
   * @param clock the time source for validity periods and checks
   */
  public CertificateIssuer(Clock clock) {
    this.clock = clock;
  }

  /**
   * Issues a new CA and a serving certificate signed by it.
   *
   * @param commonName the serving certificate's CN (the first SAN is a good choice)
   * @param sans the subject alternative names: DNS names, or IPv4/IPv6 literals (entered as IP
   *     SANs)
   * @param caValidity how long the CA is valid
   * @param certValidity how long the serving certificate is valid (capped at the CA's validity)
   * @return the PEM bundle
   * @throws IllegalStateException if the JDK lacks EC or SHA256withECDSA (never on a standard JDK)
   */
  public CertBundle issue(
      String commonName, List<String> sans, Duration caValidity, Duration certValidity) {
    try {
      Instant now = clock.instant();
      Instant notBefore = now.minus(BACKDATE);
      KeyPair caKeys = newKeyPair();
      X500Name caName = new X500Name("CN=rollgate-webhook-ca-" + now.getEpochSecond());
      JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
      X509v3CertificateBuilder ca =
          new JcaX509v3CertificateBuilder(
              caName,
              serial(),
              Date.from(notBefore),
              Date.from(now.plus(caValidity)),
              caName,
              caKeys.getPublic());
      ca.addExtension(Extension.basicConstraints, true, new BasicConstraints(0));
      ca.addExtension(
          Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
      ca.addExtension(
          Extension.subjectKeyIdentifier,
          false,
          ext.createSubjectKeyIdentifier(caKeys.getPublic()));
      X509Certificate caCert = sign(ca, caKeys.getPrivate());

      KeyPair keys = newKeyPair();
      Instant certEnd =
          now.plus(certValidity.compareTo(caValidity) > 0 ? caValidity : certValidity);
      X509v3CertificateBuilder leaf =
          new JcaX509v3CertificateBuilder(
              caCert,
              serial(),
              Date.from(notBefore),
              Date.from(certEnd),
              new X500Name("CN=" + commonName.replace(",", "\\,")),
              keys.getPublic());
      leaf.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
      leaf.addExtension(
          Extension.keyUsage,
          true,
          new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyEncipherment));
      leaf.addExtension(
          Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
      leaf.addExtension(Extension.subjectAlternativeName, false, generalNames(sans));
      leaf.addExtension(
          Extension.authorityKeyIdentifier, false, ext.createAuthorityKeyIdentifier(caCert));
      leaf.addExtension(
          Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(keys.getPublic()));
      X509Certificate cert = sign(leaf, caKeys.getPrivate());
      return new CertBundle(
          pem(caCert), pem(cert), pem(new JcaPKCS8Generator(keys.getPrivate(), null)));
    } catch (GeneralSecurityException | OperatorCreationException | IOException e) {
      throw new IllegalStateException("cannot issue webhook certificates: " + e.getMessage(), e);
    }
  }

  /**
   * Checks a bundle read from the Secret: the three parts parse, the serving certificate is signed
   * by the CA, its key matches, it carries every required SAN, and neither certificate expires
   * within the renewal window.
   *
   * @param bundle the bundle (parts may be null)
   * @param requiredSans SANs the serving certificate must carry
   * @param renewBefore the renewal window: a certificate expiring within it is reported
   * @return why the bundle must be replaced, or empty when it is good
   */
  public Optional<String> problem(
      CertBundle bundle, List<String> requiredSans, Duration renewBefore) {
    if (bundle == null
        || blank(bundle.caCrt())
        || blank(bundle.tlsCrt())
        || blank(bundle.tlsKey())) {
      return Optional.of(
          "missing " + CertBundle.CA_CRT + ", " + CertBundle.TLS_CRT + " or " + CertBundle.TLS_KEY);
    }
    try {
      X509Certificate ca = parseCertificate(bundle.caCrt());
      X509Certificate cert = parseCertificate(bundle.tlsCrt());
      PrivateKey key = parsePrivateKey(bundle.tlsKey());
      try {
        cert.verify(ca.getPublicKey());
      } catch (GeneralSecurityException e) {
        return Optional.of("serving certificate is not signed by the CA");
      }
      if (!matches(key, cert)) {
        return Optional.of("serving key does not match the serving certificate");
      }
      Set<String> present = new HashSet<>(sans(cert));
      for (String san : requiredSans) {
        if (!present.contains(normalize(san))) {
          return Optional.of("serving certificate lacks SAN " + san);
        }
      }
      Instant limit = clock.instant().plus(renewBefore);
      Instant now = clock.instant();
      for (X509Certificate c : List.of(ca, cert)) {
        if (c.getNotBefore().toInstant().isAfter(now)) {
          return Optional.of("certificate " + c.getSubjectX500Principal() + " is not valid yet");
        }
        if (c.getNotAfter().toInstant().isBefore(limit)) {
          return Optional.of(
              "certificate "
                  + c.getSubjectX500Principal()
                  + " expires "
                  + c.getNotAfter().toInstant()
                  + ", within the renewal window");
        }
      }
      return Optional.empty();
    } catch (IOException | GeneralSecurityException | RuntimeException e) {
      return Optional.of("unreadable certificate or key: " + e.getMessage());
    }
  }

  /**
   * Parses one PEM certificate.
   *
   * @param pem the PEM text
   * @return the certificate
   * @throws IOException if the text holds no certificate
   * @throws GeneralSecurityException if the certificate cannot be decoded
   */
  public static X509Certificate parseCertificate(String pem)
      throws IOException, GeneralSecurityException {
    try (PEMParser parser = new PEMParser(new StringReader(pem))) {
      Object o = parser.readObject();
      if (!(o instanceof X509CertificateHolder holder)) {
        throw new IOException("no certificate in PEM");
      }
      return new JcaX509CertificateConverter().getCertificate(holder);
    }
  }

  /**
   * The subject alternative names of a certificate, DNS names and IP addresses alike, as text.
   *
   * @param cert the certificate
   * @return the names, IP addresses in canonical form
   * @throws GeneralSecurityException if the extension cannot be decoded
   */
  public static List<String> sans(X509Certificate cert) throws GeneralSecurityException {
    List<String> out = new ArrayList<>();
    Collection<List<?>> names = cert.getSubjectAlternativeNames();
    if (names != null) {
      for (List<?> n : names) {
        out.add(normalize(String.valueOf(n.get(1))));
      }
    }
    return out;
  }

  private static PrivateKey parsePrivateKey(String pem) throws IOException {
    try (PEMParser parser = new PEMParser(new StringReader(pem))) {
      Object o = parser.readObject();
      JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
      if (o instanceof PrivateKeyInfo info) {
        return converter.getPrivateKey(info);
      }
      if (o instanceof PEMKeyPair pair) {
        return converter.getKeyPair(pair).getPrivate();
      }
      throw new IOException("no private key in PEM");
    }
  }

  private static boolean matches(PrivateKey key, X509Certificate cert)
      throws GeneralSecurityException {
    String alg =
        cert.getPublicKey().getAlgorithm().equals("EC") ? "SHA256withECDSA" : "SHA256withRSA";
    byte[] probe = "rollgate-webhook key check".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    java.security.Signature signer = java.security.Signature.getInstance(alg);
    signer.initSign(key);
    signer.update(probe);
    byte[] sig = signer.sign();
    java.security.Signature verifier = java.security.Signature.getInstance(alg);
    verifier.initVerify(cert.getPublicKey());
    verifier.update(probe);
    return verifier.verify(sig);
  }

  private static GeneralNames generalNames(List<String> sans) throws UnknownHostException {
    List<GeneralName> names = new ArrayList<>();
    for (String san : new java.util.LinkedHashSet<>(sans)) {
      names.add(
          isIp(san)
              ? new GeneralName(GeneralName.iPAddress, san)
              : new GeneralName(GeneralName.dNSName, san));
    }
    return new GeneralNames(names.toArray(new GeneralName[0]));
  }

  /**
   * Whether a SAN is an IP literal (IPv4 dotted quad or IPv6 with colons).
   *
   * @param san the name
   * @return true for IP addresses
   */
  public static boolean isIp(String san) {
    return IPV4.matcher(san).matches() || san.contains(":");
  }

  private static String normalize(String san) {
    if (isIp(san)) {
      try {
        return InetAddress.getByName(san).getHostAddress();
      } catch (UnknownHostException e) {
        return san;
      }
    }
    return san.toLowerCase(java.util.Locale.ROOT);
  }

  private KeyPair newKeyPair() throws GeneralSecurityException {
    KeyPairGenerator gen = KeyPairGenerator.getInstance("EC");
    gen.initialize(new ECGenParameterSpec("secp256r1"), random);
    return gen.generateKeyPair();
  }

  private BigInteger serial() {
    return new BigInteger(127, random).add(BigInteger.ONE);
  }

  private static X509Certificate sign(X509v3CertificateBuilder builder, PrivateKey key)
      throws OperatorCreationException, GeneralSecurityException {
    ContentSigner signer = new JcaContentSignerBuilder("SHA256withECDSA").build(key);
    return new JcaX509CertificateConverter().getCertificate(builder.build(signer));
  }

  private static String pem(Object o) throws IOException {
    StringWriter out = new StringWriter();
    try (JcaPEMWriter w = new JcaPEMWriter(out)) {
      if (o instanceof JcaPKCS8Generator g) {
        w.writeObject(g.generate());
      } else {
        w.writeObject(o);
      }
    }
    return out.toString();
  }

  private static boolean blank(String s) {
    return s == null || s.isBlank();
  }
}
