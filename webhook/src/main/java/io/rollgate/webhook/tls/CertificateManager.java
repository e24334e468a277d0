package io.rollgate.webhook.tls;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a good CA and serving certificate in the webhook's Secret ({@code ca.crt}, {@code tls.crt},
 * {@code tls.key}): reads it, and creates or repairs it when it is missing, unreadable, lacks a SAN, or expires
 * within the renewal window.
 *
 * <p>When the Secret disappears while the certificate in use is still good, that same certificate is written back, so
 * no caller has to trust a new CA. Writes are guarded: create fails on 409 and update carries the Secret's
 * {@code resourceVersion}, so of several replicas exactly one writes and the others read the winner's bundle on their
 * next check. All Secret I/O and crypto runs on a worker via {@code executeBlocking}.
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

  private final Vertx vertx;
  private final KubernetesClient client;
  private final CertificateIssuer issuer;
  private final Settings settings;
  private volatile CertBundle last;

  /**
   * Creates the manager.
   *
   * @param vertx the Vert.x instance whose workers run the blocking work
   * @param client the Kubernetes client
   * @param issuer the certificate issuer
   * @param settings what to keep in the Secret
   */
  public CertificateManager(Vertx vertx, KubernetesClient client, CertificateIssuer issuer, Settings settings) {
    this.vertx = vertx;
    this.client = client;
    this.issuer = issuer;
    this.settings = settings;
  }

  /**
   * Makes sure the Secret holds a good bundle.
   *
   * @return a Future completed with the bundle in the Secret and whether it was written; failed with the
   *     {@link KubernetesClientException} when the API server refuses the read or write (retry on the next check)
   */
  @Override
  public Future<Ensured> ensure() {
    return vertx.executeBlocking(this::ensureBlocking, false);
  }

  /**
   * Reads the Secret without writing it: what a replica that does not renew (not the Lease holder) uses to pick up the
   * certificate another replica wrote.
   *
   * @return a Future completed with the stored bundle when it is usable now (valid, with every SAN), even inside the
   *     renewal window; empty when it is missing, unreadable or expired (the caller then repairs it with
   *     {@link #ensure()}); failed with the {@link KubernetesClientException} when the read is refused
   */
  public Future<Optional<CertBundle>> current() {
    return vertx.executeBlocking(
        () -> {
          Secret secret = client.secrets().inNamespace(settings.namespace()).withName(settings.secretName()).get();
          CertBundle stored = secret == null ? null : decode(secret);
          if (stored == null || issuer.problem(stored, settings.sans(), Duration.ZERO).isPresent()) {
            return Optional.<CertBundle>empty();
          }
          last = stored;
          return Optional.of(stored);
        },
        false);
  }

  private Ensured ensureBlocking() {
    Secret secret = client.secrets().inNamespace(settings.namespace()).withName(settings.secretName()).get();
    CertBundle stored = secret == null ? null : decode(secret);
    Optional<String> problem = issuer.problem(stored, settings.sans(), settings.renewBefore());
    if (problem.isEmpty()) {
      last = stored;
      return new Ensured(stored, false);
    }
    String where = settings.namespace() + "/" + settings.secretName();
    CertBundle next;
    CertBundle inUse = last;
    if (secret == null && inUse != null && issuer.problem(inUse, settings.sans(), settings.renewBefore()).isEmpty()) {
      LOG.info("Secret {} is missing: writing back the certificate in use", where);
      next = inUse;
    } else {
      LOG.info("Secret {}: {}: issuing a new CA and serving certificate", where, problem.get());
      next = issuer.issue(settings.sans().get(0), settings.sans(), settings.caValidity(), settings.certValidity());
    }
    try {
      write(secret, next);
    } catch (KubernetesClientException e) {
      if (e.getCode() != 409) {
        throw e;
      }
      // Another replica wrote first: use its bundle when it is good; otherwise the next check repairs it.
      Secret winner = client.secrets().inNamespace(settings.namespace()).withName(settings.secretName()).get();
      CertBundle theirs = winner == null ? null : decode(winner);
      if (issuer.problem(theirs, settings.sans(), settings.renewBefore()).isPresent()) {
        throw e;
      }
      last = theirs;
      return new Ensured(theirs, false);
    }
    last = next;
    return new Ensured(next, true);
  }

  private void write(Secret existing, CertBundle bundle) {
    Map<String, String> data = new LinkedHashMap<>();
    if (existing != null && existing.getData() != null) {
      data.putAll(existing.getData());
    }
    data.put(CertBundle.CA_CRT, encode(bundle.caCrt()));
    data.put(CertBundle.TLS_CRT, encode(bundle.tlsCrt()));
    data.put(CertBundle.TLS_KEY, encode(bundle.tlsKey()));
    var secrets = client.secrets().inNamespace(settings.namespace());
    if (existing == null) {
      secrets
          .resource(
              new SecretBuilder()
                  .withNewMetadata()
                  .withName(settings.secretName())
                  .withNamespace(settings.namespace())
                  .addToLabels("app.kubernetes.io/managed-by", "rollgate-webhook")
                  .endMetadata()
                  .withType("kubernetes.io/tls")
                  .withData(data)
                  .build())
          .create();
    } else {
      Secret updated = new SecretBuilder(existing).withData(data).withStringData(null).build();
      // Carries the read resourceVersion: a concurrent writer makes this fail with 409 instead of being overwritten.
      secrets.resource(updated).update();
    }
  }

  private static CertBundle decode(Secret secret) {
    Map<String, String> data = secret.getData();
    if (data == null) {
      return null;
    }
    return new CertBundle(
        decode(data.get(CertBundle.CA_CRT)), decode(data.get(CertBundle.TLS_CRT)), decode(data.get(CertBundle.TLS_KEY)));
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
