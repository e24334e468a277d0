package io.rollgate.controller.notify;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.rollgate.controller.kube.KubeApi;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The notification configurations the controller knows (docs/notifications.md): informers on the
 * ConfigMap {@value #CONFIG_MAP} and the Secret {@value #SECRET}, by name, in the controller's
 * namespace, or in every namespace with {@code --self-service-notification-enabled} (Argo Rollouts'
 * names and flag). Only these two names are watched, so the controller never holds other Secrets.
 */
public final class NotificationConfigs {

  /**
   * The ConfigMap holding services, templates, triggers and subscriptions, as Argo Rollouts names
   * it.
   */
  public static final String CONFIG_MAP = "argo-rollouts-notification-configmap";

  /** The Secret the ConfigMap's {@code $key} references read from, as Argo Rollouts names it. */
  public static final String SECRET = "argo-rollouts-notification-secret";

  /** How long {@link #start()} waits for the first lists before letting the controller go on. */
  public static final long SYNC_WAIT_SECONDS = 10;

  private static final Logger LOG = LoggerFactory.getLogger(NotificationConfigs.class);

  /**
   * One namespace's configuration.
   *
   * @param configMap the ConfigMap (never null)
   * @param secret the Secret, or null when that namespace has none
   */
  public record Config(ConfigMap configMap, Secret secret) {}

  private final Vertx vertx;
  private final KubeApi api;
  private final String namespace;
  private final boolean selfService;
  private SharedIndexInformer<ConfigMap> configMaps;
  private SharedIndexInformer<Secret> secrets;

  /**
   * Creates the watch (nothing runs until {@link #start()}).
   *
   * @param vertx the Vert.x instance
   * @param api the API facade (its client builds the informers)
   * @param namespace the controller's namespace
   * @param selfService whether each Rollout's namespace is read as well
   */
  public NotificationConfigs(Vertx vertx, KubeApi api, String namespace, boolean selfService) {
    this.vertx = vertx;
    this.api = api;
    this.namespace = namespace;
    this.selfService = selfService;
  }

  /**
   * Starts the informers.
   *
   * @return a Future completing once both were listed, or after {@value #SYNC_WAIT_SECONDS} s when
   *     they cannot be (RBAC, API server down: the informers keep trying, and notifications wait
   *     for them). Never fails.
   */
  public Future<Void> start() {
    KubernetesClient client = api.client();
    configMaps =
        selfService
            ? client
                .configMaps()
                .inAnyNamespace()
                .withField("metadata.name", CONFIG_MAP)
                .runnableInformer(0)
            : client
                .configMaps()
                .inNamespace(namespace)
                .withField("metadata.name", CONFIG_MAP)
                .runnableInformer(0);
    secrets =
        selfService
            ? client
                .secrets()
                .inAnyNamespace()
                .withField("metadata.name", SECRET)
                .runnableInformer(0)
            : client
                .secrets()
                .inNamespace(namespace)
                .withField("metadata.name", SECRET)
                .runnableInformer(0);
    Future<Void> cm =
        Future.fromCompletionStage(configMaps.start(), vertx.getOrCreateContext()).mapEmpty();
    Future<Void> sec =
        Future.fromCompletionStage(secrets.start(), vertx.getOrCreateContext()).mapEmpty();
    return Future.all(cm, sec)
        .timeout(SYNC_WAIT_SECONDS, TimeUnit.SECONDS)
        .recover(
            err -> {
              LOG.error(
                  "notification configuration {} / {} not read yet ({}): {}; notifications wait until it is",
                  CONFIG_MAP,
                  SECRET,
                  selfService ? "every namespace" : "namespace " + namespace,
                  err.getMessage());
              return Future.succeededFuture();
            })
        .mapEmpty();
  }

  /**
   * The configurations that apply to an object: with self-service, its own namespace's first, then
   * the controller's; only namespaces whose ConfigMap exists.
   *
   * @param objectNamespace the object's namespace
   * @return the configurations, possibly empty
   */
  public List<Config> configsFor(String objectNamespace) {
    List<Config> out = new ArrayList<>(2);
    if (configMaps == null) {
      return out;
    }
    if (selfService && objectNamespace != null && !objectNamespace.equals(namespace)) {
      add(out, objectNamespace);
    }
    add(out, namespace);
    return out;
  }

  private void add(List<Config> out, String ns) {
    ConfigMap cm = configMaps.getStore().getByKey(ns + "/" + CONFIG_MAP);
    if (cm != null) {
      out.add(new Config(cm, secrets.getStore().getByKey(ns + "/" + SECRET)));
    }
  }

  /** Stops the informers. */
  public void stop() {
    if (configMaps != null) {
      configMaps.stop();
    }
    if (secrets != null) {
      secrets.stop();
    }
  }
}
