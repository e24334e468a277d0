package io.rollgate.webhook.tls;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.rollgate.kube.KubeApiException;
import io.rollgate.webhook.kube.WebhookApi;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a good CA and serving certificate in the webhook's Secret ({@code ca.crt}, {@code tls.crt},
 * {@code tls.key}): reads it, and creates or repairs it when it is missing, unreadable, lacks a
 * SAN, or expires within the renewal window.
 *
 * <p>When the Secret disappears while the certificate in use is still good, that same certificate
 * is written back, so no caller has to trust a new CA. Writes are guarded: create fails on 409 and
 * the merge patch of a repair carries the Secret's {@code resourceVersion}, so of several replicas
 * exactly one writes and the others read the winner's bundle on their next check. Secret I/O goes
 * through the webhook's API facade ({@link WebhookApi}); certificate parsing and key generation run
 * on a worker via {@code executeBlocking}.
 */
public final class CertificateManager implements CertificateSource {

  private static final Logger LOG = LoggerFactory.getLogger(CertificateManager.class);

  /**
   * What to keep in the Secret.
   *
   * @param namespace the Secret's namespace
   * @param secretName the Secret's name
   * @param sans the serving certificate's SANs (the first is also its CN)
   * @param caValidity the CA's lifetime
   * @param certValidity the serving certificate's lifetime
   * @param renewBefore the renewal window before expiry
   */
  public record Settings(
      String namespace,
      String secretName,
      List<String> sans,
      Duration caValidity,
      Duration certValidity,
      Duration renewBefore) {}

  /**
   * The outcome of {@link #ensure()}.
   *
   * @param bundle the good bundle now in the Secret
   * @param written whether this call created or rewrote the Secret
   */
  public record Ensured(CertBundle bundle, boolean written) {}

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Vertx vertx;
  private final WebhookApi api;
  private final CertificateIssuer issuer;
  private final Settings settings;
  private volatile CertBundle last;

  /**
   * Creates the manager.
   *
   * @param vertx the Vert.x instance whose workers run the crypto
   * @param api the webhook's API facade
   * @param issuer the certificate issuer
   * @param settings what to keep in the Secret
   */
  public CertificateManager(
      Vertx vertx, WebhookApi api, CertificateIssuer issuer, Settings settings) {
    this.vertx = vertx;
    this.api = api;
    this.issuer = issuer;
    this.settings = settings;
  }

  /**
   * Makes sure the Secret holds a good bundle.
   *
   * @return a Future completed with the bundle in the Secret and whether it was written; failed
   *     with the {@link KubeApiException} when the API server refuses the read or write (retry on
   *     the next check)
   */
  @Override
  public Future<Ensured> ensure() {
    return readSecret().compose(this::repair);
  }

  /**
   * Reads the Secret without writing it: what a replica that does not renew (not the Lease holder)
   * uses to pick up the certificate another replica wrote.
   *
   * @return a Future completed with the stored bundle when it is usable now (valid, with every
   *     SAN), even inside the renewal window; empty when it is missing, unreadable or expired (the
   *     caller then repairs it with {@link #ensure()}); failed with the {@link KubeApiException}
   *     when the read is refused
   */
  public Future<Optional<CertBundle>> current() {
    return stored(Duration.ZERO);
  }

  /**
   * Reads the Secret and keeps its bundle as the last good one when it has no problem within {@code
   * window} (crypto on a worker).
   */
  private Future<Optional<CertBundle>> stored(Duration window) {
    return readSecret()
        .compose(
            secret ->
                vertx.executeBlocking(
                    () -> {
                      CertBundle stored = secret == null ? null : decode(secret);
                      if (stored == null
                          || issuer.problem(stored, settings.sans(), window).isPresent()) {
                        return Optional.<CertBundle>empty();
                      }
                      last = stored;
                      return Optional.of(stored);
                    },
                    false));
  }

  private Future<Secret> readSecret() {
    return api.getSecret(settings.namespace(), settings.secretName());
  }

  /** What a check decided: the bundle to serve, and whether it must be written first. */
  private record Decision(CertBundle bundle, boolean write) {}

  private Future<Ensured> repair(Secret secret) {
    return vertx
        .executeBlocking(() -> decide(secret), false)
        .compose(
            d -> {
              if (!d.write()) {
                last = d.bundle();
                return Future.succeededFuture(new Ensured(d.bundle(), false));
              }
              return write(secret, d.bundle())
                  .map(
                      written -> {
                        last = d.bundle();
                        return new Ensured(d.bundle(), true);
                      })
                  .recover(
                      err ->
                          KubeApiException.isConflict(err)
                              ? winner(err)
                              : Future.failedFuture(err));
            });
  }

  /**
   * Blocking (parsing, key generation): whether the stored bundle is good, and what to write when
   * it is not.
   */
  private Decision decide(Secret secret) {
    CertBundle stored = secret == null ? null : decode(secret);
    Optional<String> problem = issuer.problem(stored, settings.sans(), settings.renewBefore());
    if (problem.isEmpty()) {
      return new Decision(stored, false);
    }
    String where = settings.namespace() + "/" + settings.secretName();
    CertBundle inUse = last;
    if (secret == null
        && inUse != null
        && issuer.problem(inUse, settings.sans(), settings.renewBefore()).isEmpty()) {
      LOG.info("Secret {} is missing: writing back the certificate in use", where);
      return new Decision(inUse, true);
    }
    LOG.info("Secret {}: {}: issuing a new CA and serving certificate", where, problem.get());
    return new Decision(
        issuer.issue(
            settings.sans().get(0),
            settings.sans(),
            settings.caValidity(),
            settings.certValidity()),
        true);
  }

  /**
   * Another replica wrote first: use its bundle when it is good; otherwise fail, and the next check
   * repairs it.
   */
  private Future<Ensured> winner(Throwable conflict) {
    return stored(settings.renewBefore())
        .compose(
            theirs ->
                theirs.isPresent()
                    ? Future.succeededFuture(new Ensured(theirs.get(), false))
                    : Future.failedFuture(conflict));
  }

  /**
   * Creates the Secret, or patches the three keys into the one read (other keys stay), guarded by
   * its {@code resourceVersion}.
   */
  private Future<Secret> write(Secret existing, CertBundle bundle) {
    if (existing == null) {
      return api.createSecret(
          new SecretBuilder()
              .withNewMetadata()
              .withName(settings.secretName())
              .withNamespace(settings.namespace())
              .addToLabels("app.kubernetes.io/managed-by", "rollgate-webhook")
              .endMetadata()
              .withType("kubernetes.io/tls")
              .withData(
                  Map.of(
                      CertBundle.CA_CRT, encode(bundle.caCrt()),
                      CertBundle.TLS_CRT, encode(bundle.tlsCrt()),
                      CertBundle.TLS_KEY, encode(bundle.tlsKey())))
              .build());
    }
    ObjectNode patch = JSON.createObjectNode();
    patch.putObject("metadata").put("resourceVersion", existing.getMetadata().getResourceVersion());
    ObjectNode data = patch.putObject("data");
    data.put(CertBundle.CA_CRT, encode(bundle.caCrt()));
    data.put(CertBundle.TLS_CRT, encode(bundle.tlsCrt()));
    data.put(CertBundle.TLS_KEY, encode(bundle.tlsKey()));
    return api.patchSecret(settings.namespace(), settings.secretName(), patch.toString());
  }

  private static CertBundle decode(Secret secret) {
    Map<String, String> data = secret.getData();
    if (data == null) {
      return null;
    }
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

  private static String encode(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }
}
