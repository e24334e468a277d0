package io.rollgate.webhook;

import io.rollgate.kube.lease.LeaderElection;
import io.rollgate.webhook.tls.CertBundle;
import io.rollgate.webhook.tls.CertificateManager;
import io.rollgate.webhook.tls.CertificateSource;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the webhook: ensures the certificate Secret, serves HTTPS with it, registers the webhook
 * configurations when asked to, and checks the Secret periodically to repair, renew or pick up a
 * new certificate.
 *
 * <p>A new CA is first added to the registered {@code caBundle} (beside the old one), then, after a
 * short delay for the API server to see it, the server switches certificates, so no admission fails
 * during a rollover.
 *
 * <p>With several replicas sharing the Secret, only the Lease holder ({@link LeaderElection})
 * renews a certificate that enters its renewal window; the others read the Secret on each check and
 * hot-reload what the leader wrote. Any replica repairs a Secret that is missing, unreadable or
 * expired (the write is guarded: create fails on 409 and the repair patch carries the read {@code
 * resourceVersion}, so exactly one wins and the others adopt its bundle).
 */
public final class WebhookVerticle extends VerticleBase {

  private static final Logger LOG = LoggerFactory.getLogger(WebhookVerticle.class);
  private static final long CA_PROPAGATION_MILLIS = 2000;

  private final WebhookOptions options;
  private final CertificateSource certificates;
  private final CaBundlePublisher registrar;
  private final WebhookMetrics metrics;
  private final AdmissionHandler admission;
  private final LeaderElection leader;
  private final Runnable afterStart;
  private WebhookServer server;
  private long timerId = -1;
  private boolean checking;
  private final Set<String> trustedCas = new LinkedHashSet<>();

  /**
   * Creates the verticle.
   *
   * @param options the settings
   * @param certificates where the serving certificate comes from (generated in a Secret, or
   *     provided)
   * @param registrar what publishes the CA bundle (registers or patches the webhook
   *     configurations), or null
   * @param metrics the meters
   */
  public WebhookVerticle(
      WebhookOptions options,
      CertificateSource certificates,
      CaBundlePublisher registrar,
      WebhookMetrics metrics) {
    this(
        options,
        certificates,
        registrar,
        metrics,
        new AdmissionHandler(ClusterView.NONE),
        null,
        () -> {});
  }

  /**
   * Creates the verticle with cluster-aware decisions and leadership.
   *
   * @param options the settings
   * @param certificates where the serving certificate comes from (generated in a Secret, or
   *     provided)
   * @param registrar what publishes the CA bundle (registers or patches the webhook
   *     configurations), or null
   * @param metrics the meters
   * @param admission the decisions for every checked kind
   * @param leader the Lease election, or null when this replica always renews
   * @param afterStart run on the verticle's context once serving (starts informers, the election
   *     and the audit)
   */
  public WebhookVerticle(
      WebhookOptions options,
      CertificateSource certificates,
      CaBundlePublisher registrar,
      WebhookMetrics metrics,
      AdmissionHandler admission,
      LeaderElection leader,
      Runnable afterStart) {
    this.options = options;
    this.certificates = certificates;
    this.registrar = registrar;
    this.metrics = metrics;
    this.admission = admission;
    this.leader = leader;
    this.afterStart = afterStart;
  }

  @Override
  public Future<?> start() {
    server =
        new WebhookServer(
            vertx,
            () ->
                AdmissionRouter.create(
                    vertx,
                    metrics,
                    admission,
                    options.mutate(),
                    options.bodyLimit(),
                    () -> server.ready()),
            options.host(),
            options.port(),
            options.eventLoops());
    return vertx
        .executeBlocking(
            () -> {
              admission.warmUp();
              return null;
            },
            false)
        .compose(v -> certificates.ensure())
        .compose(
            ensured ->
                server
                    .start(ensured.bundle())
                    .onSuccess(port -> LOG.info("serving https on {}:{}", options.host(), port))
                    .map(port -> ensured.bundle()))
        .compose(bundle -> register(trust(bundle)))
        .onSuccess(
            v -> {
              timerId =
                  vertx.setPeriodic(
                      options.certCheckInterval().toMillis(), id -> checkCertificates());
              afterStart.run();
            });
  }

  @Override
  public Future<?> stop() {
    if (timerId >= 0) {
      vertx.cancelTimer(timerId);
    }
    return server == null ? Future.succeededFuture() : server.close();
  }

  private void checkCertificates() {
    if (checking) {
      return;
    }
    checking = true;
    Future<CertificateManager.Ensured> check =
        leader == null
                || leader.holdsLease()
                || !(certificates instanceof CertificateManager generated)
            ? certificates.ensure()
            : generated
                .current()
                .compose(
                    stored ->
                        stored.isPresent()
                            ? Future.succeededFuture(
                                new CertificateManager.Ensured(stored.get(), false))
                            : certificates.ensure());
    check
        .compose(
            ensured -> {
              CertBundle bundle = ensured.bundle();
              if (bundle.equals(server.loaded())) {
                // Same certificate; re-register when the Secret was rewritten (it was deleted or
                // damaged), else let the publisher repair a caBundle changed behind its back.
                if (ensured.written()) {
                  return register(trust(bundle));
                }
                return registrar == null
                    ? Future.succeededFuture()
                    : registrar.refresh(trust(bundle));
              }
              LOG.info(
                  "certificate changed in the Secret: trusting the new CA, then switching the server to it");
              boolean newCa = !trustedCas.contains(bundle.caCrt());
              return register(trust(bundle))
                  .compose(
                      v ->
                          newCa
                              ? vertx.timer(CA_PROPAGATION_MILLIS, TimeUnit.MILLISECONDS)
                              : Future.succeededFuture())
                  .compose(v -> server.reload(bundle))
                  .onSuccess(v -> LOG.info("serving the new certificate"));
            })
        .onComplete(
            ar -> {
              checking = false;
              if (ar.failed()) {
                LOG.warn(
                    "certificate check failed, retrying in {}s: {}",
                    options.certCheckInterval().toSeconds(),
                    ar.cause().toString());
              }
            });
  }

  /**
   * Adds the bundle's CA to the trusted set (keeping the previous one) and returns the PEM bundle
   * to register.
   */
  private String trust(CertBundle bundle) {
    if (!trustedCas.contains(bundle.caCrt())) {
      // Keep only the newest previous CA beside the new one.
      while (trustedCas.size() > 1) {
        trustedCas.remove(trustedCas.iterator().next());
      }
      trustedCas.add(bundle.caCrt());
    }
    StringBuilder pem = new StringBuilder();
    for (String ca : trustedCas) {
      pem.append(ca.endsWith("\n") ? ca : ca + "\n");
    }
    return pem.toString();
  }

  private Future<Void> register(String caBundle) {
    return registrar == null ? Future.succeededFuture() : registrar.publish(caBundle);
  }
}
