package io.rollgate.controller.experiment;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.rollgate.api.AnalysisRun;
import io.rollgate.api.AnalysisTemplate;
import io.rollgate.api.AnalysisTemplateSpec;
import io.rollgate.api.ClusterAnalysisTemplate;
import io.rollgate.api.Experiment;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The Experiment controller's view of the cluster: informer stores of Experiments, the ReplicaSets
 * and AnalysisRuns they control (indexed by owner uid) and the analysis templates, overlaid with
 * the objects returned by the controller's own writes until the informers have caught up (compared
 * by resourceVersion), so that a pass never starts from older data than the controller itself
 * wrote.
 */
final class ExperimentCache {

  /** The controller-owner-uid index the shared informers carry. */
  static final String BY_OWNER = io.rollgate.controller.rollout.cache.RolloutCache.BY_OWNER;

  private static final long WRITE_OVERLAY_SECONDS = 60;

  private final SharedIndexInformer<Experiment> experiments;
  private final SharedIndexInformer<ReplicaSet> replicaSets;
  private final SharedIndexInformer<AnalysisRun> runs;
  private final SharedIndexInformer<AnalysisTemplate> templates;
  private final SharedIndexInformer<ClusterAnalysisTemplate> clusterTemplates;
  private final Clock clock;
  private final Map<String, Written> written = new ConcurrentHashMap<>();

  private record Written(HasMetadata obj, Instant at) {}

  ExperimentCache(
      SharedIndexInformer<Experiment> experiments,
      SharedIndexInformer<ReplicaSet> replicaSets,
      SharedIndexInformer<AnalysisRun> runs,
      SharedIndexInformer<AnalysisTemplate> templates,
      SharedIndexInformer<ClusterAnalysisTemplate> clusterTemplates,
      Clock clock) {
    this.experiments = experiments;
    this.replicaSets = replicaSets;
    this.runs = runs;
    this.templates = templates;
    this.clusterTemplates = clusterTemplates;
    this.clock = clock;
  }

  /** Index function: the uid of the object's controller owner when that owner is an Experiment. */
  static List<String> experimentOwnerUid(HasMetadata obj) {
    List<OwnerReference> refs = obj.getMetadata().getOwnerReferences();
    if (refs != null) {
      for (OwnerReference ref : refs) {
        if (Boolean.TRUE.equals(ref.getController()) && "Experiment".equals(ref.getKind())) {
          return List.of(ref.getUid());
        }
      }
    }
    return List.of();
  }

  Experiment experiment(String namespace, String name) {
    return fresh(
        "Experiment", experiments.getStore().getByKey(namespace + "/" + name), namespace, name);
  }

  /** The ReplicaSets the Experiment controls (not being deleted), freshest copies. */
  List<ReplicaSet> replicaSets(Experiment ex) {
    List<ReplicaSet> out = new ArrayList<>();
    for (ReplicaSet rs : replicaSets.getIndexer().byIndex(BY_OWNER, ex.getMetadata().getUid())) {
      ReplicaSet f =
          fresh("ReplicaSet", rs, rs.getMetadata().getNamespace(), rs.getMetadata().getName());
      if (f != null && f.getMetadata().getDeletionTimestamp() == null) {
        out.add(f);
      }
    }
    return out;
  }

  /** The AnalysisRuns the Experiment controls, freshest copies. */
  List<AnalysisRun> runs(Experiment ex) {
    List<AnalysisRun> out = new ArrayList<>();
    for (AnalysisRun r : runs.getIndexer().byIndex(BY_OWNER, ex.getMetadata().getUid())) {
      AnalysisRun f =
          fresh("AnalysisRun", r, r.getMetadata().getNamespace(), r.getMetadata().getName());
      if (f != null) {
        out.add(f);
      }
    }
    return out;
  }

  AnalysisTemplateSpec analysisTemplate(String namespace, String name) {
    AnalysisTemplate t = templates.getStore().getByKey(namespace + "/" + name);
    return t == null ? null : t.getSpec();
  }

  AnalysisTemplateSpec clusterAnalysisTemplate(String name) {
    if (clusterTemplates == null) {
      return null;
    }
    ClusterAnalysisTemplate t = clusterTemplates.getStore().getByKey(name);
    return t == null ? null : t.getSpec();
  }

  /** Remembers the object returned by one of our writes. */
  void wrote(HasMetadata obj) {
    if (obj != null && obj.getMetadata() != null) {
      written.put(
          key(obj.getKind(), obj.getMetadata().getNamespace(), obj.getMetadata().getName()),
          new Written(obj, clock.instant()));
    }
  }

  /** Forgets a deleted object. */
  void forget(String kind, String namespace, String name) {
    written.remove(key(kind, namespace, name));
  }

  @SuppressWarnings("unchecked")
  private <T extends HasMetadata> T fresh(String kind, T cached, String namespace, String name) {
    String key = key(kind, namespace, name);
    Written w = written.get(key);
    if (w == null) {
      return cached;
    }
    boolean expired = w.at().plusSeconds(WRITE_OVERLAY_SECONDS).isBefore(clock.instant());
    if (cached == null) {
      if (expired) {
        written.remove(key, w);
      }
      return null;
    }
    if (expired
        || !Objects.equals(w.obj().getMetadata().getUid(), cached.getMetadata().getUid())
        || newerOrEqual(
            cached.getMetadata().getResourceVersion(),
            w.obj().getMetadata().getResourceVersion())) {
      written.remove(key, w);
      return cached;
    }
    return (T) w.obj();
  }

  private static String key(String kind, String namespace, String name) {
    return kind + "/" + namespace + "/" + name;
  }

  private static boolean newerOrEqual(String cachedRv, String writtenRv) {
    try {
      return Long.parseLong(cachedRv) >= Long.parseLong(writtenRv);
    } catch (NumberFormatException | NullPointerException e) {
      return true;
    }
  }
}
