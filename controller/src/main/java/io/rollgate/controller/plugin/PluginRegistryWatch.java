package io.rollgate.controller.plugin;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.rollgate.controller.kube.KubeApi;
import io.rollgate.plugin.PluginEntry;
import io.rollgate.plugin.PluginKind;
import io.rollgate.plugin.PluginRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches the plugin registry ConfigMap {@code argo-rollouts-config} in the controller's namespace
 * (an informer on that one name, docs/compatibility.md §10.1) and hands every change to the {@link
 * PluginHost}, so plugins are added, removed, disabled or enabled without a restart. An absent
 * ConfigMap is an empty registry.
 *
 * <p>Bad input never takes plugins away: a key whose value is not a YAML list keeps the plugins it
 * listed before, and an item without a valid {@code name} is skipped; both are logged as errors
 * naming the key, the item and the reason. The informer's handlers only parse and hand over; they
 * never block.
 */
public final class PluginRegistryWatch {

  private static final Logger LOG = LoggerFactory.getLogger(PluginRegistryWatch.class);

  /**
   * How long {@link #start()} waits for the first list before letting the controller go on without
   * it.
   */
  public static final long SYNC_WAIT_SECONDS = 10;

  private final Vertx vertx;
  private final KubeApi api;
  private final String namespace;
  private final PluginHost host;
  private final Map<PluginKind, List<PluginEntry>> lastGood = new EnumMap<>(PluginKind.class);
  private SharedIndexInformer<ConfigMap> informer;
  private String lastVersion;

  /**
   * Creates the watch (nothing runs until {@link #start()}).
   *
   * @param vertx the Vert.x instance
   * @param api the API facade (its client builds the informer)
   * @param namespace the controller's namespace, where the ConfigMap lives
   * @param host the host to update
   */
  public PluginRegistryWatch(Vertx vertx, KubeApi api, String namespace, PluginHost host) {
    this.vertx = vertx;
    this.api = api;
    this.namespace = namespace;
    this.host = host;
  }

  /**
   * Starts the informer.
   *
   * @return a Future completing once the ConfigMap was read, or after {@value #SYNC_WAIT_SECONDS} s
   *     when it cannot be (RBAC, API server down): the informer keeps trying and plugin calls say
   *     the registry is not read yet. Never fails.
   */
  public Future<Void> start() {
    KubernetesClient client = api.client();
    informer =
        client
            .configMaps()
            .inNamespace(namespace)
            .withName(PluginRegistry.CONFIG_MAP_NAME)
            .runnableInformer(0);
    informer.addEventHandler(
        new ResourceEventHandler<>() {
          @Override
          public void onAdd(ConfigMap cm) {
            changed(cm);
          }

          @Override
          public void onUpdate(ConfigMap before, ConfigMap after) {
            changed(after);
          }

          @Override
          public void onDelete(ConfigMap cm, boolean unknownFinalState) {
            changed(null);
          }
        });
    return Future.fromCompletionStage(informer.start(), vertx.getOrCreateContext())
        .timeout(SYNC_WAIT_SECONDS, TimeUnit.SECONDS)
        .onSuccess(
            v -> {
              if (informer.getStore().list().isEmpty()) {
                changed(null);
              }
            })
        .recover(
            err -> {
              LOG.error(
                  "plugin registry {}/{} not read yet: {}; plugins are unavailable until it is",
                  namespace,
                  PluginRegistry.CONFIG_MAP_NAME,
                  err.getMessage());
              return Future.succeededFuture();
            })
        .mapEmpty();
  }

  private synchronized void changed(ConfigMap cm) {
    String version = cm == null ? "absent" : cm.getMetadata().getResourceVersion();
    if (Objects.equals(version, lastVersion)) {
      return;
    }
    lastVersion = version;
    host.update(parse(cm == null ? null : cm.getData()));
  }

  /**
   * Reads the registry, keeping the previous entries of a key that cannot be read (see the class
   * comment).
   *
   * @param data the ConfigMap's data, or null when absent
   * @return the registry to use
   */
  synchronized PluginRegistry parse(Map<String, String> data) {
    PluginRegistry read = PluginRegistry.fromConfigMapData(data);
    Map<PluginKind, List<PluginEntry>> plugins = new EnumMap<>(PluginKind.class);
    for (PluginKind kind : PluginKind.values()) {
      String yaml = data == null ? null : data.get(kind.key());
      String problem = problem(yaml);
      if (problem != null) {
        List<PluginEntry> kept = lastGood.getOrDefault(kind, List.of());
        LOG.error(
            "plugin registry {}/{}: data.{} {}; keeping the previous {} plugin(s) {}",
            namespace,
            PluginRegistry.CONFIG_MAP_NAME,
            kind.key(),
            problem,
            kept.size(),
            kept.stream().map(PluginEntry::name).toList());
        plugins.put(kind, kept);
        continue;
      }
      reportSkipped(kind, yaml);
      List<PluginEntry> entries = dedupe(kind, read.plugins().getOrDefault(kind, List.of()));
      plugins.put(kind, entries);
      lastGood.put(kind, entries);
    }
    return new PluginRegistry(plugins);
  }

  private static String problem(String yaml) {
    if (yaml == null || yaml.isBlank()) {
      return null;
    }
    try {
      JsonNode node = PluginRegistry.readTree(yaml);
      if (node == null || node.isNull() || node.isArray()) {
        return null;
      }
      return "is not a YAML list of plugins";
    } catch (IOException e) {
      String m = String.valueOf(e.getMessage());
      int nl = m.indexOf('\n');
      return "is not valid YAML (" + (nl < 0 ? m : m.substring(0, nl)) + ")";
    }
  }

  private void reportSkipped(PluginKind kind, String yaml) {
    if (yaml == null || yaml.isBlank()) {
      return;
    }
    JsonNode list = PluginRegistry.readList(yaml).orElse(null);
    if (list == null) {
      return;
    }
    for (int i = 0; i < list.size(); i++) {
      JsonNode item = list.get(i);
      JsonNode name = item.get("name");
      String why = null;
      if (!item.isObject()) {
        why = "is not an object";
      } else if (name == null || !name.isTextual()) {
        why = "has no name";
      } else if (!PluginRegistry.NAME.matcher(name.asText()).matches()) {
        why = "name " + name.asText() + " must be in the format of <namespace>/<name>";
      }
      if (why != null) {
        LOG.error(
            "plugin registry {}/{}: data.{}[{}] {}; skipped",
            namespace,
            PluginRegistry.CONFIG_MAP_NAME,
            kind.key(),
            i,
            why);
      }
    }
  }

  private List<PluginEntry> dedupe(PluginKind kind, List<PluginEntry> entries) {
    Map<String, PluginEntry> byName = new HashMap<>();
    List<PluginEntry> out = new ArrayList<>();
    for (PluginEntry e : entries) {
      if (!PluginRegistry.NAME.matcher(e.name()).matches()) {
        continue;
      }
      if (byName.putIfAbsent(e.name(), e) != null) {
        LOG.error(
            "plugin registry {}/{}: data.{} lists {} twice; the first entry is used",
            namespace,
            PluginRegistry.CONFIG_MAP_NAME,
            kind.key(),
            e.name());
        continue;
      }
      out.add(e);
    }
    return List.copyOf(out);
  }

  /** Stops the informer. */
  public void stop() {
    if (informer != null) {
      informer.stop();
    }
  }
}
