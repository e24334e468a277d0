package io.rollgate.webhook.tls;

import io.fabric8.kubernetes.api.model.Secret;
import io.rollgate.webhook.kube.WebhookApi;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A certificate someone else issues and renews (cert-manager, or an operator with {@code
 * certs-scripts/}): read from a directory ({@code tls.crt}, {@code tls.key}, {@code ca.crt}, as a
 * mounted {@code kubernetes.io/tls} Secret lays them out) or from an existing Secret with those
 * keys, checked, and never generated, rewritten or rotated here.
 *
 * <p>Each {@link #ensure()} reads the source again, so a renewed certificate (cert-manager rewrites
 * the Secret, the kubelet swaps the mounted files) is picked up at the next check and loaded
 * without restart. A bundle that is incomplete, does not parse, whose key does not match, that is
 * not signed by {@code ca.crt}, lacks one of the webhook Service's SANs or has expired is refused
 * with the reason; the webhook then keeps serving the last good one.
 */
public final class ProvidedCertificates implements CertificateSource {

  private static final Logger LOG = LoggerFactory.getLogger(ProvidedCertificates.class);

  private final Vertx vertx;
  private final CertificateIssuer checker;
  private final List<String> sans;
  private final Path dir;
  private final WebhookApi api;
  private final String secretNamespace;
  private final String secretName;

  private ProvidedCertificates(
      Vertx vertx,
      CertificateIssuer checker,
      List<String> sans,
      Path dir,
      WebhookApi api,
      String secretNamespace,
      String secretName) {
    this.vertx = vertx;
    this.checker = checker;
    this.sans = List.copyOf(sans);
    this.dir = dir;
    this.api = api;
    this.secretNamespace = secretNamespace;
    this.secretName = secretName;
  }

  /**
   * A source reading {@code tls.crt}, {@code tls.key} and {@code ca.crt} from a directory (flag
   * {@code --cert-dir}).
   *
   * @param vertx the Vert.x instance whose workers read the files
   * @param checker checks bundles (its clock decides expiry)
   * @param sans the SANs the serving certificate must carry (the webhook Service's DNS names)
   * @param dir the directory, for example a mounted Secret volume
   * @return the source
   */
  public static ProvidedCertificates fromDirectory(
      Vertx vertx, CertificateIssuer checker, List<String> sans, Path dir) {
    return new ProvidedCertificates(vertx, checker, sans, dir, null, null, null);
  }

  /**
   * A source reading the keys {@code tls.crt}, {@code tls.key} and {@code ca.crt} of an existing
   * Secret (only {@code get} on it is needed).
   *
   * @param vertx the Vert.x instance whose workers check the bundle
   * @param checker checks bundles (its clock decides expiry)
   * @param sans the SANs the serving certificate must carry
   * @param api the webhook's API facade
   * @param namespace the Secret's namespace
   * @param name the Secret's name
   * @return the source
   */
  public static ProvidedCertificates fromSecret(
      Vertx vertx,
      CertificateIssuer checker,
      List<String> sans,
      WebhookApi api,
      String namespace,
      String name) {
    return new ProvidedCertificates(vertx, checker, sans, null, api, namespace, name);
  }

  /**
   * Reads and checks the provided bundle.
   *
   * @return a Future completed with the bundle ({@code written} is always false); failed with an
   *     {@link IllegalStateException} naming the source and what is wrong with it, or with the
   *     {@code KubeApiException} when the Secret cannot be read
   */
  @Override
  public Future<CertificateManager.Ensured> ensure() {
    if (dir != null) {
      return vertx.executeBlocking(() -> checked(readDirectory()), false);
    }
    return api.getSecret(secretNamespace, secretName)
        .compose(secret -> vertx.executeBlocking(() -> checked(fromSecret(secret)), false));
  }

  private CertificateManager.Ensured checked(CertBundle bundle) {
    Optional<String> problem = checker.problem(bundle, sans, java.time.Duration.ZERO);
    if (problem.isPresent()) {
      throw new IllegalStateException(where() + ": " + problem.get());
    }
    return new CertificateManager.Ensured(bundle, false);
  }

  /**
   * Describes the source, for logs.
   *
   * @return {@code directory <path>} or {@code Secret <namespace>/<name>}
   */
  public String where() {
    return dir != null ? "directory " + dir : "Secret " + secretNamespace + "/" + secretName;
  }

  private CertBundle readDirectory() throws IOException {
    return new CertBundle(
        read(dir.resolve(CertBundle.CA_CRT)),
        read(dir.resolve(CertBundle.TLS_CRT)),
        read(dir.resolve(CertBundle.TLS_KEY)));
  }

  private static String read(Path file) throws IOException {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      LOG.debug("{} does not exist", file);
      return null;
    }
  }

  private CertBundle fromSecret(Secret secret) {
    if (secret == null) {
      throw new IllegalStateException(where() + " does not exist");
    }
    Map<String, String> data = secret.getData() == null ? Map.of() : secret.getData();
    return new CertBundle(
        decode(data.get(CertBundle.CA_CRT)),
        decode(data.get(CertBundle.TLS_CRT)),
        decode(data.get(CertBundle.TLS_KEY)));
  }

  private static String decode(String base64) {
    if (base64 == null) {
      return null;
    }
    try {
      return new String(Base64.getDecoder().decode(base64), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }
}
