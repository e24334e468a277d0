package io.rollgate.webhook;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.rollgate.api.AnalysisTemplate;
import io.rollgate.api.AnalysisTemplateSpec;
import io.rollgate.api.ClusterAnalysisTemplate;
import io.rollgate.api.policy.RolloutPolicy;
import io.rollgate.plugin.PluginRegistry;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The informers behind {@link ClusterView}: the plugin registry ConfigMap ({@code
 * argo-rollouts-config} in one namespace, watched by name), every {@code RolloutPolicy}, every
 * Namespace (for policy namespace selectors), and every AnalysisTemplate and
 * ClusterAnalysisTemplate (for the analyses a Rollout names).
 *
 * <p>Starting never blocks and never fails the webhook: an informer that cannot list (RBAC, CRD
 * missing) keeps retrying in the background, and until it has synced the view reports the data as
 * unknown (plugin references become warnings, policies are not enforced and a warning says so).
 */
public final class ClusterWatch implements ClusterView, AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ClusterWatch.class);

  private final KubernetesClient client;
  private final String pluginNamespace;
  private final Runnable onPolicyChange;
  private SharedIndexInformer<ConfigMap> configMaps;
  private SharedIndexInformer<RolloutPolicy> policies;
  private volatile boolean policyCrdAbsent;
  private SharedIndexInformer<Namespace> namespaces;
  private SharedIndexInformer<AnalysisTemplate> templates;
  private SharedIndexInformer<ClusterAnalysisTemplate> clusterTemplates;
  private volatile PluginCache pluginCache;

  private record PluginCache(String resourceVersion, PluginRegistry registry) {}

  /**
   * Creates the watch (not started).
   *
   * @param client the Kubernetes client
   * @param pluginNamespace the namespace of {@code argo-rollouts-config} (the controller's
   *     namespace)
   * @param onPolicyChange called (on an informer thread) when a RolloutPolicy's spec or a
   *     Namespace's labels change
   */
  public ClusterWatch(KubernetesClient client, String pluginNamespace, Runnable onPolicyChange) {
    this.client = client;
    this.pluginNamespace = pluginNamespace;
    this.onPolicyChange = onPolicyChange;
  }

  /** Starts the informers in the background; returns at once. */
  public void start() {
    configMaps =
        client
            .configMaps()
            .inNamespace(pluginNamespace)
            .withName(PluginRegistry.CONFIG_MAP_NAME)
            .runnableInformer(0);
    policies = client.resources(RolloutPolicy.class).runnableInformer(0);
    policies.addEventHandler(
        new ResourceEventHandler<>() {
          @Override
          public void onAdd(RolloutPolicy p) {
            onPolicyChange.run();
          }

          @Override
          public void onUpdate(RolloutPolicy before, RolloutPolicy after) {
            if (!java.util.Objects.equals(
                before.getMetadata().getGeneration(), after.getMetadata().getGeneration())) {
              onPolicyChange.run();
            }
          }

          @Override
          public void onDelete(RolloutPolicy p, boolean unknown) {}
        });
    namespaces = client.namespaces().runnableInformer(0);
    namespaces.addEventHandler(
        new ResourceEventHandler<>() {
          @Override
          public void onAdd(Namespace n) {}

          @Override
          public void onUpdate(Namespace before, Namespace after) {
            if (!java.util.Objects.equals(
                before.getMetadata().getLabels(), after.getMetadata().getLabels())) {
              onPolicyChange.run();
            }
          }

          @Override
          public void onDelete(Namespace n, boolean unknown) {}
        });
    templates = client.resources(AnalysisTemplate.class).inAnyNamespace().runnableInformer(0);
    clusterTemplates = client.resources(ClusterAnalysisTemplate.class).runnableInformer(0);
    for (SharedIndexInformer<?> i :
        List.of(configMaps, policies, namespaces, templates, clusterTemplates)) {
      // fabric8 gives up on an informer whose first list fails (a CRD installed after the
      // webhook, RBAC granted later); keep retrying with its backoff instead, so the data appears
      // once it can be read. A failure is logged at WARN when its reason changes, and at DEBUG
      // while it repeats.
      String kind = i.getApiTypeClass().getSimpleName();
      java.util.concurrent.atomic.AtomicReference<String> lastReason =
          new java.util.concurrent.atomic.AtomicReference<>();
      i.exceptionHandler(
          (started, err) -> {
            int code = httpCode(err);
            if (i == policies) {
              // 404: the RolloutPolicy CRD is not installed, so there are no policies (not "not
              // loaded yet"). fabric8 hands the failure over wrapped (a CompletionException around
              // it): look down the causes.
              policyCrdAbsent = code == 404;
            }
            String reason = failureReason(code, err);
            if (!reason.equals(lastReason.getAndSet(reason))) {
              LOG.warn("informer for {} cannot list or watch ({}); retrying", kind, reason);
            } else {
              LOG.debug("informer for {} still cannot list or watch ({})", kind, reason);
            }
            return true;
          });
      i.start()
          .whenComplete(
              (v, err) -> {
                if (err != null && String.valueOf(err.getMessage()).contains("manually stopped")) {
                  // Stopped at shutdown before its first list succeeded: nothing went wrong.
                  LOG.debug("informer for {} stopped before it started", kind);
                } else if (err != null) {
                  LOG.warn(
                      "informer for {} not started yet: {}",
                      i.getApiTypeClass().getSimpleName(),
                      err.toString());
                }
              });
    }
  }

  /**
   * The HTTP status of the first {@code KubernetesClientException} among a failure and its causes.
   *
   * @param err the failure an informer reported
   * @return the status code, or -1 when no cause came from the API server
   */
  static int httpCode(Throwable err) {
    return io.rollgate.kube.KubeApiException.clientFailure(err)
        .map(io.fabric8.kubernetes.client.KubernetesClientException::getCode)
        .orElse(-1);
  }

  /**
   * Says in a few words why an informer's list or watch failed.
   *
   * @param code the API server's HTTP status, or -1
   * @param err the failure
   * @return for example {@code HTTP 404: the kind is not served (its CRD is not installed)}
   */
  static String failureReason(int code, Throwable err) {
    if (code == 404) {
      return "HTTP 404: the kind is not served (its CRD is not installed)";
    }
    if (code == 401 || code == 403) {
      return "HTTP " + code + ": the webhook's credentials may not list and watch it (RBAC)";
    }
    Throwable root = err;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String message = root.getMessage() == null ? "" : ": " + root.getMessage();
    return (code > 0 ? "HTTP " + code + " " : "") + root.getClass().getSimpleName() + message;
  }

  @Override
  public Plugins plugins() {
    String where = pluginNamespace + "/" + PluginRegistry.CONFIG_MAP_NAME;
    if (configMaps == null || !configMaps.hasSynced() || !configMaps.isWatching()) {
      return new Plugins(null, where, "unreadable");
    }
    List<ConfigMap> items = configMaps.getStore().list();
    if (items.isEmpty()) {
      return new Plugins(null, where, "absent");
    }
    ConfigMap cm = items.get(0);
    PluginCache cache = pluginCache;
    String rv = cm.getMetadata().getResourceVersion();
    if (cache == null || !cache.resourceVersion().equals(rv)) {
      cache = new PluginCache(rv, PluginRegistry.fromConfigMapData(cm.getData()));
      pluginCache = cache;
    }
    return new Plugins(cache.registry(), where, "present");
  }

  @Override
  public List<RolloutPolicy> policies() {
    return policies == null || !policies.hasSynced() ? List.of() : policies.getStore().list();
  }

  @Override
  public boolean policiesKnown() {
    return policies != null && policies.hasSynced();
  }

  @Override
  public boolean policiesAbsent() {
    return policyCrdAbsent && !policiesKnown();
  }

  @Override
  public Optional<Map<String, String>> namespaceLabels(String namespace) {
    if (namespaces == null || !namespaces.hasSynced()) {
      return Optional.empty();
    }
    Namespace n = namespaces.getStore().getByKey(namespace);
    if (n == null) {
      return Optional.empty();
    }
    Map<String, String> labels = n.getMetadata().getLabels();
    return Optional.of(labels == null ? Map.of() : labels);
  }

  @Override
  public boolean templatesKnown() {
    return templates != null
        && templates.hasSynced()
        && templates.isWatching()
        && clusterTemplates.hasSynced()
        && clusterTemplates.isWatching();
  }

  @Override
  public AnalysisTemplateSpec analysisTemplate(String namespace, String name) {
    AnalysisTemplate t =
        templates == null ? null : templates.getStore().getByKey(namespace + "/" + name);
    return t == null ? null : t.getSpec();
  }

  @Override
  public AnalysisTemplateSpec clusterAnalysisTemplate(String name) {
    ClusterAnalysisTemplate t =
        clusterTemplates == null ? null : clusterTemplates.getStore().getByKey(name);
    return t == null ? null : t.getSpec();
  }

  @Override
  public void close() {
    for (SharedIndexInformer<?> i :
        new SharedIndexInformer<?>[] {
          configMaps, policies, namespaces, templates, clusterTemplates
        }) {
      if (i != null) {
        i.close();
      }
    }
  }
}
