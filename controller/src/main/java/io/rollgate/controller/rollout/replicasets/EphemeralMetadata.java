package io.rollgate.controller.rollout.replicasets;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.rollgate.api.Annotations;
import io.rollgate.api.BlueGreenStrategy;
import io.rollgate.api.CanaryStrategy;
import io.rollgate.api.Labels;
import io.rollgate.api.ModelJson;
import io.rollgate.api.PodTemplateMetadata;
import io.rollgate.controller.kube.KubeApi;
import io.rollgate.controller.rollout.cache.RolloutCache;
import io.rollgate.controller.rollout.pass.RolloutPass;
import io.rollgate.kube.KubeApiException;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ephemeral pod metadata (docs/compatibility.md §6; {@code
 * spec.strategy.canary.canaryMetadata}/{@code stableMetadata}, {@code
 * spec.strategy.blueGreen.previewMetadata}/{@code activeMetadata}): labels and annotations merged
 * into a ReplicaSet's {@code spec.template.metadata} and patched onto its existing pods in place,
 * so a pod's role can change without a restart.
 *
 * <p>The keys injected are remembered in the ReplicaSet annotation {@code
 * rollout.argoproj.io/ephemeral-metadata} (JSON {@code {"labels":{..},"annotations":{..}}}); a key
 * remembered but no longer desired is removed, other keys are never touched. The pod-template hash
 * is computed from the Rollout's template, so it never changes.
 */
public final class EphemeralMetadata {

  private static final Logger LOG = LoggerFactory.getLogger(EphemeralMetadata.class);
  private static final ObjectMapper JSON = ModelJson.mapper();

  /** Bound of the pods read per ReplicaSet and pass; the rest are patched by a later pass. */
  static final long POD_PAGE = 500;

  /** Labels and annotations, never null. */
  record Injected(Map<String, String> labels, Map<String, String> annotations) {

    static final Injected NONE = new Injected(Map.of(), Map.of());

    static Injected of(PodTemplateMetadata m) {
      if (m == null) {
        return NONE;
      }
      return new Injected(
          m.getLabels() == null ? Map.of() : m.getLabels(),
          m.getAnnotations() == null ? Map.of() : m.getAnnotations());
    }

    boolean isEmpty() {
      return labels.isEmpty() && annotations.isEmpty();
    }
  }

  private final KubeApi api;
  private final RolloutCache cache;

  /**
   * Creates the metadata sync over the API facade and the informer caches.
   *
   * @param api the API facade (ReplicaSet and pod patches)
   * @param cache the informer caches (pods of a ReplicaSet)
   */
  public EphemeralMetadata(KubeApi api, RolloutCache cache) {
    this.api = api;
    this.cache = cache;
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Which metadata goes where (pure)

  /**
   * Whether a stable ReplicaSet other than the new one exists (the new one is a canary / preview).
   */
  private static boolean newIsCandidate(RolloutPass pass) {
    String stable = pass.old.getStableRS();
    return stable != null && !stable.isEmpty() && !stable.equals(pass.podHash);
  }

  /**
   * The metadata a ReplicaSet created this pass gets: canaryMetadata/previewMetadata when a
   * different stable ReplicaSet exists, else stableMetadata/activeMetadata.
   *
   * @param pass the pass
   * @return the desired metadata, possibly empty
   */
  public static Injected forNewReplicaSet(RolloutPass pass) {
    CanaryStrategy canary = pass.rollout.getSpec().getStrategy().getCanary();
    BlueGreenStrategy bg = pass.rollout.getSpec().getStrategy().getBlueGreen();
    boolean candidate = newIsCandidate(pass);
    if (canary != null) {
      return Injected.of(candidate ? canary.getCanaryMetadata() : canary.getStableMetadata());
    }
    if (bg != null) {
      return Injected.of(candidate ? bg.getPreviewMetadata() : bg.getActiveMetadata());
    }
    return Injected.NONE;
  }

  /**
   * The desired metadata of every ReplicaSet of the pass, in write order (stable first).
   *
   * @param pass the pass
   * @param newIsActive for blue-green, whether the active Service already selects the new
   *     ReplicaSet
   * @return ReplicaSet to desired metadata
   */
  static Map<ReplicaSet, Injected> desired(RolloutPass pass, boolean newIsActive) {
    Map<ReplicaSet, Injected> out = new LinkedHashMap<>();
    CanaryStrategy canary = pass.rollout.getSpec().getStrategy().getCanary();
    BlueGreenStrategy bg = pass.rollout.getSpec().getStrategy().getBlueGreen();
    PodTemplateMetadata stableMeta =
        canary != null ? canary.getStableMetadata() : bg == null ? null : bg.getActiveMetadata();
    PodTemplateMetadata candidateMeta =
        canary != null ? canary.getCanaryMetadata() : bg == null ? null : bg.getPreviewMetadata();
    if (pass.stableRS != null && pass.stableRS != pass.newRS) {
      out.put(pass.stableRS, Injected.of(stableMeta));
    }
    if (pass.newRS != null) {
      boolean candidate = newIsCandidate(pass) && !newIsActive;
      out.put(pass.newRS, Injected.of(candidate ? candidateMeta : stableMeta));
    }
    for (ReplicaSet rs : pass.otherRSs) {
      out.putIfAbsent(rs, Injected.NONE);
    }
    return out;
  }

  /**
   * Merges metadata into a template being created and records it in the ReplicaSet's annotations.
   *
   * @param template the template, modified in place (its metadata must exist)
   * @param rsAnnotations the ReplicaSet's annotations, modified in place
   * @param desired the metadata to inject
   */
  public static void applyOnCreate(
      PodTemplateSpec template, Map<String, String> rsAnnotations, Injected desired) {
    if (desired.isEmpty()) {
      return;
    }
    ObjectMeta meta = template.getMetadata();
    Map<String, String> labels =
        meta.getLabels() == null ? new LinkedHashMap<>() : new LinkedHashMap<>(meta.getLabels());
    desired
        .labels()
        .forEach(
            (k, v) -> {
              if (!Labels.POD_TEMPLATE_HASH.equals(k)) {
                labels.put(k, v);
              }
            });
    meta.setLabels(labels);
    if (!desired.annotations().isEmpty()) {
      Map<String, String> ann =
          meta.getAnnotations() == null
              ? new LinkedHashMap<>()
              : new LinkedHashMap<>(meta.getAnnotations());
      ann.putAll(desired.annotations());
      meta.setAnnotations(ann);
    }
    rsAnnotations.put(Annotations.EPHEMERAL_METADATA, record(desired));
  }

  /**
   * Tells whether a ReplicaSet runs the pods of a Rollout template, ignoring what the controller
   * added to the ReplicaSet's template: the ephemeral labels and annotations recorded in its {@code
   * rollout.argoproj.io/ephemeral-metadata} annotation and the injected anti-affinity term.
   *
   * @param template the Rollout's template
   * @param rs the ReplicaSet
   * @return true when equal after normalisation
   */
  public static boolean sameTemplate(PodTemplateSpec template, ReplicaSet rs) {
    return PodTemplates.semanticallyEqual(template, withoutInjected(rs));
  }

  /**
   * Returns a ReplicaSet's template without the ephemeral keys it records, for template comparison.
   *
   * @param rs the ReplicaSet
   * @return the template (the ReplicaSet's own object when nothing is recorded, else a copy)
   */
  static PodTemplateSpec withoutInjected(ReplicaSet rs) {
    PodTemplateSpec template = rs.getSpec().getTemplate();
    Injected recorded = recorded(rs);
    if (recorded.isEmpty() || template == null || template.getMetadata() == null) {
      return template;
    }
    PodTemplateSpec copy = ModelJson.deepCopy(template);
    if (copy.getMetadata().getLabels() != null) {
      recorded.labels().keySet().forEach(copy.getMetadata().getLabels()::remove);
    }
    if (copy.getMetadata().getAnnotations() != null) {
      recorded.annotations().keySet().forEach(copy.getMetadata().getAnnotations()::remove);
    }
    return copy;
  }

  /**
   * The metadata recorded in the ReplicaSet's {@code ephemeral-metadata} annotation (none when
   * absent or unreadable).
   */
  static Injected recorded(ReplicaSet rs) {
    Map<String, String> a = rs.getMetadata().getAnnotations();
    String text = a == null ? null : a.get(Annotations.EPHEMERAL_METADATA);
    if (text == null || text.isEmpty()) {
      return Injected.NONE;
    }
    try {
      return Injected.of(JSON.readValue(text, PodTemplateMetadata.class));
    } catch (JsonProcessingException e) {
      return Injected.NONE;
    }
  }

  private static String record(Injected m) {
    ObjectNode n = JSON.createObjectNode();
    if (!m.labels().isEmpty()) {
      n.set("labels", JSON.valueToTree(m.labels()));
    }
    if (!m.annotations().isEmpty()) {
      n.set("annotations", JSON.valueToTree(m.annotations()));
    }
    return n.toString();
  }

  /**
   * The merge-patch fragment that takes {@code current} labels or annotations to the desired state:
   * desired keys set, keys recorded earlier but no longer desired removed, everything else
   * untouched.
   */
  static ObjectNode diff(
      Map<String, String> current,
      Map<String, String> desired,
      Map<String, String> previously,
      List<String> protectedKeys) {
    Map<String, String> cur = current == null ? Map.of() : current;
    ObjectNode patch = JSON.createObjectNode();
    desired.forEach(
        (k, v) -> {
          if (!protectedKeys.contains(k) && !v.equals(cur.get(k))) {
            patch.put(k, v);
          }
        });
    for (String k : previously.keySet()) {
      if (!desired.containsKey(k) && !protectedKeys.contains(k) && cur.containsKey(k)) {
        patch.putNull(k);
      }
    }
    return patch;
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Writes

  /**
   * Brings every ReplicaSet of the pass (and its pods) to its desired ephemeral metadata;
   * ReplicaSets that already match cost no API call.
   *
   * @param pass the pass; its ReplicaSet references are replaced by the patched objects
   * @param newIsActive for blue-green, whether the active Service already selects the new
   *     ReplicaSet
   * @return a Future completing when done; fails with {@link KubeApiException}
   */
  public Future<Void> sync(RolloutPass pass, boolean newIsActive) {
    Future<Void> chain = Future.succeededFuture();
    for (Map.Entry<ReplicaSet, Injected> e : desired(pass, newIsActive).entrySet()) {
      chain = chain.compose(v -> sync(pass, e.getKey(), e.getValue()));
    }
    return chain;
  }

  private Future<Void> sync(RolloutPass pass, ReplicaSet rs, Injected want) {
    Injected had = recorded(rs);
    if (want.isEmpty() && had.isEmpty()) {
      return Future.succeededFuture();
    }
    ObjectMeta tm = rs.getSpec().getTemplate().getMetadata();
    List<String> protectedKeys = protectedLabels(rs);
    ObjectNode labels =
        diff(tm == null ? null : tm.getLabels(), want.labels(), had.labels(), protectedKeys);
    ObjectNode annotations =
        diff(
            tm == null ? null : tm.getAnnotations(),
            want.annotations(),
            had.annotations(),
            List.of());
    boolean recordChanged = !want.equals(had);
    if (labels.isEmpty() && annotations.isEmpty() && !recordChanged) {
      return unlabeledPods(rs) ? syncPods(pass, rs, want, had) : Future.succeededFuture();
    }
    ObjectNode patch = JSON.createObjectNode();
    ObjectNode metaAnn = patch.putObject("metadata").putObject("annotations");
    if (want.isEmpty()) {
      metaAnn.putNull(Annotations.EPHEMERAL_METADATA);
    } else {
      metaAnn.put(Annotations.EPHEMERAL_METADATA, record(want));
    }
    if (!labels.isEmpty() || !annotations.isEmpty()) {
      ObjectNode meta = patch.putObject("spec").putObject("template").putObject("metadata");
      if (!labels.isEmpty()) {
        meta.set("labels", labels);
      }
      if (!annotations.isEmpty()) {
        meta.set("annotations", annotations);
      }
    }
    String name = rs.getMetadata().getName();
    LOG.info(
        "{} ephemeral metadata of ReplicaSet {}: labels {} annotations {}",
        pass.ctx,
        name,
        labels,
        annotations);
    return api.patchReplicaSet(pass.namespace(), name, patch.toString())
        .compose(
            updated -> {
              cache.wrote(updated);
              replace(pass, rs, updated);
              return syncPods(pass, updated, want, had);
            });
  }

  /**
   * Whether the ReplicaSet controller reports pods that lack some template label
   * (status.fullyLabeledReplicas below status.replicas at the current generation): pods created
   * from the template before our last write, or a pod patch that failed in an earlier pass.
   */
  private static boolean unlabeledPods(ReplicaSet rs) {
    var s = rs.getStatus();
    if (s == null
        || s.getObservedGeneration() == null
        || !s.getObservedGeneration().equals(rs.getMetadata().getGeneration())) {
      return false;
    }
    int replicas = s.getReplicas() == null ? 0 : s.getReplicas();
    int labeled = s.getFullyLabeledReplicas() == null ? 0 : s.getFullyLabeledReplicas();
    return labeled < replicas;
  }

  /**
   * The selector's keys (and the hash label): changing them on a template would orphan its pods.
   */
  private static List<String> protectedLabels(ReplicaSet rs) {
    List<String> keys = new ArrayList<>();
    keys.add(Labels.POD_TEMPLATE_HASH);
    if (rs.getSpec().getSelector() != null && rs.getSpec().getSelector().getMatchLabels() != null) {
      keys.addAll(rs.getSpec().getSelector().getMatchLabels().keySet());
    }
    return keys;
  }

  /** Patches the existing pods of a ReplicaSet in place (no restart). */
  private Future<Void> syncPods(RolloutPass pass, ReplicaSet rs, Injected want, Injected had) {
    var selector = rs.getSpec().getSelector();
    if (selector == null
        || selector.getMatchLabels() == null
        || selector.getMatchLabels().isEmpty()) {
      return Future.succeededFuture();
    }
    String uid = rs.getMetadata().getUid();
    List<String> protectedKeys = protectedLabels(rs);
    return api.listPods(pass.namespace(), selector.getMatchLabels(), POD_PAGE)
        .compose(
            pods -> {
              List<Future<Pod>> writes = new ArrayList<>();
              for (Pod pod : pods) {
                if (pod.getMetadata().getDeletionTimestamp() != null || !ownedBy(pod, uid)) {
                  continue;
                }
                ObjectNode labels =
                    diff(pod.getMetadata().getLabels(), want.labels(), had.labels(), protectedKeys);
                ObjectNode annotations =
                    diff(
                        pod.getMetadata().getAnnotations(),
                        want.annotations(),
                        had.annotations(),
                        List.of());
                if (labels.isEmpty() && annotations.isEmpty()) {
                  continue;
                }
                ObjectNode patch = JSON.createObjectNode();
                ObjectNode meta = patch.putObject("metadata");
                if (!labels.isEmpty()) {
                  meta.set("labels", labels);
                }
                if (!annotations.isEmpty()) {
                  meta.set("annotations", annotations);
                }
                String podName = pod.getMetadata().getName();
                writes.add(
                    api.patchPod(pass.namespace(), podName, patch.toString())
                        .recover(
                            err ->
                                KubeApiException.isNotFound(err)
                                    ? Future.succeededFuture()
                                    : Future.failedFuture(err)));
              }
              if (!writes.isEmpty()) {
                LOG.info(
                    "{} patching ephemeral metadata of {} pod(s) of ReplicaSet {}",
                    pass.ctx,
                    writes.size(),
                    rs.getMetadata().getName());
              }
              return Future.all(writes).<Void>mapEmpty();
            });
  }

  private static boolean ownedBy(Pod pod, String uid) {
    return pod.getMetadata().getOwnerReferences() != null
        && pod.getMetadata().getOwnerReferences().stream()
            .anyMatch(
                o -> Boolean.TRUE.equals(o.getController()) && Objects.equals(uid, o.getUid()));
  }

  private static void replace(RolloutPass pass, ReplicaSet old, ReplicaSet updated) {
    pass.allRSs.replaceAll(x -> x == old ? updated : x);
    pass.otherRSs.replaceAll(x -> x == old ? updated : x);
    if (pass.newRS == old) {
      pass.newRS = updated;
    }
    if (pass.stableRS == old) {
      pass.stableRS = updated;
    }
  }
}
