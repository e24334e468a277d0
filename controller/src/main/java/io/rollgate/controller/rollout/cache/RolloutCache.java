package io.rollgate.controller.rollout.cache;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.rollgate.api.AnalysisRun;
import io.rollgate.api.AnalysisTemplate;
import io.rollgate.api.AnalysisTemplateSpec;
import io.rollgate.api.Annotations;
import io.rollgate.api.ClusterAnalysisTemplate;
import io.rollgate.api.Rollout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Read side of the Rollout reconciler: the informer caches of Rollouts, ReplicaSets and Services,
 * plus the objects returned by our own most recent writes.
 *
 * <p>After the controller patches an object, the informer may still hold the older version for a
 * moment. Until the informer has caught up (its resourceVersion is at least ours), the object
 * returned by our write wins, so the next reconcile never acts on state older than what it wrote
 * itself.
 */
public final class RolloutCache {

  /** Informer index of ReplicaSets by the UID of their controller owner. */
  public static final String BY_OWNER = "controllerOwnerUid";

  /**
   * Informer index of Services by {@code <namespace>/<rollout>} taken from their {@code
   * argo-rollouts.argoproj.io/managed-by-rollouts} annotation.
   */
  public static final String BY_MANAGED_BY = "managedByRollout";

  private final SharedIndexInformer<Rollout> rollouts;
  private final SharedIndexInformer<ReplicaSet> replicaSets;
  private final SharedIndexInformer<Service> services;
  private volatile SharedIndexInformer<io.fabric8.kubernetes.api.model.apps.Deployment> deployments;
  private volatile SharedIndexInformer<AnalysisRun> analysisRuns;
  private volatile SharedIndexInformer<io.rollgate.api.Experiment> experiments;
  private volatile SharedIndexInformer<AnalysisTemplate> analysisTemplates;
  private volatile SharedIndexInformer<ClusterAnalysisTemplate> clusterAnalysisTemplates;
  private final Map<String, Written> written = new ConcurrentHashMap<>();

  /**
   * Keys of {@link #written} per controller-owner uid, so a Rollout's own writes are found without
   * a scan.
   */
  private final Map<String, java.util.Set<String>> writtenByOwner = new ConcurrentHashMap<>();

  private final java.util.concurrent.atomic.AtomicInteger writesSinceSweep =
      new java.util.concurrent.atomic.AtomicInteger();
  private final java.time.Clock clock;

  /** How long the object of our own write may stand in for the informer's copy, in seconds. */
  private static final long WRITE_OVERLAY_SECONDS = 60;

  /** Remembered writes are swept of expired entries once per this many writes. */
  private static final int SWEEP_EVERY_WRITES = 512;

  private record Written(HasMetadata obj, java.time.Instant at) {}

  /**
   * Creates the cache over running informers, without Services (for strategies that use none).
   *
   * @param rollouts the Rollout informer
   * @param replicaSets the ReplicaSet informer, indexed by {@link #BY_OWNER}
   * @param clock the clock bounding how long our own writes shadow the informer
   */
  public RolloutCache(
      SharedIndexInformer<Rollout> rollouts,
      SharedIndexInformer<ReplicaSet> replicaSets,
      java.time.Clock clock) {
    this(rollouts, replicaSets, null, clock);
  }

  /**
   * Creates the cache over running informers.
   *
   * @param rollouts the Rollout informer
   * @param replicaSets the ReplicaSet informer, indexed by {@link #BY_OWNER}
   * @param services the Service informer, indexed by {@link #BY_MANAGED_BY}; null when Services are
   *     not watched
   * @param clock the clock bounding how long our own writes shadow the informer
   */
  public RolloutCache(
      SharedIndexInformer<Rollout> rollouts,
      SharedIndexInformer<ReplicaSet> replicaSets,
      SharedIndexInformer<Service> services,
      java.time.Clock clock) {
    this.rollouts = rollouts;
    this.replicaSets = replicaSets;
    this.services = services;
    this.clock = clock;
  }

  /**
   * Index function for {@link #BY_MANAGED_BY}.
   *
   * @param svc a Service
   * @return {@code <namespace>/<rollout>} of the Rollout named in its managed-by annotation, or an
   *     empty list
   */
  public static List<String> managedByRollout(Service svc) {
    Map<String, String> a = svc.getMetadata().getAnnotations();
    String owner = a == null ? null : a.get(Annotations.MANAGED_BY_ROLLOUTS);
    if (owner == null || owner.isEmpty()) {
      return List.of();
    }
    return List.of(svc.getMetadata().getNamespace() + "/" + owner);
  }

  /**
   * Index function for {@link #BY_OWNER}.
   *
   * @param rs a ReplicaSet
   * @return the UID of its controller owner, or an empty list
   */
  public static List<String> controllerOwnerUid(ReplicaSet rs) {
    List<OwnerReference> refs = rs.getMetadata().getOwnerReferences();
    if (refs != null) {
      for (OwnerReference ref : refs) {
        if (Boolean.TRUE.equals(ref.getController())) {
          return List.of(ref.getUid());
        }
      }
    }
    return List.of();
  }

  /**
   * Index function for {@link #BY_OWNER} over any object (AnalysisRuns).
   *
   * @param obj an object
   * @return the UID of its controller owner, or an empty list
   */
  public static List<String> controllerOwnerUidOf(HasMetadata obj) {
    List<OwnerReference> refs = obj.getMetadata().getOwnerReferences();
    if (refs != null) {
      for (OwnerReference ref : refs) {
        if (Boolean.TRUE.equals(ref.getController())) {
          return List.of(ref.getUid());
        }
      }
    }
    return List.of();
  }

  /**
   * Adds the informers that serve analysis (docs/compatibility.md §9.8): AnalysisRuns (indexed by
   * {@link #BY_OWNER}), AnalysisTemplates and ClusterAnalysisTemplates.
   *
   * @param runs the AnalysisRun informer
   * @param templates the AnalysisTemplate informer
   * @param clusterTemplates the ClusterAnalysisTemplate informer, or null when they are not watched
   *     ({@code --namespaced})
   * @return this cache
   */
  public RolloutCache withAnalysis(
      SharedIndexInformer<AnalysisRun> runs,
      SharedIndexInformer<AnalysisTemplate> templates,
      SharedIndexInformer<ClusterAnalysisTemplate> clusterTemplates) {
    this.analysisRuns = runs;
    this.analysisTemplates = templates;
    this.clusterAnalysisTemplates = clusterTemplates;
    return this;
  }

  /**
   * Adds the Experiment informer (indexed by {@link #BY_OWNER}) that serves the canary {@code
   * experiment} step (docs/compatibility.md §12.2).
   *
   * @param informer the Experiment informer
   * @return this cache
   */
  public RolloutCache withExperiments(SharedIndexInformer<io.rollgate.api.Experiment> informer) {
    this.experiments = informer;
    return this;
  }

  /**
   * Returns the Experiments the Rollout controls (freshest copies, including ones just created and
   * not yet seen by the informer).
   *
   * @param rollout the Rollout
   * @return the Experiments; empty without an Experiment informer
   */
  public List<io.rollgate.api.Experiment> ownedExperiments(Rollout rollout) {
    var informer = experiments;
    if (informer == null) {
      return List.of();
    }
    String uid = rollout.getMetadata().getUid();
    String ns = rollout.getMetadata().getNamespace();
    List<io.rollgate.api.Experiment> result = new ArrayList<>();
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (io.rollgate.api.Experiment ex : informer.getIndexer().byIndex(BY_OWNER, uid)) {
      io.rollgate.api.Experiment fresh =
          freshest("Experiment", ex, ex.getMetadata().getNamespace(), ex.getMetadata().getName());
      if (fresh != null && ns.equals(fresh.getMetadata().getNamespace())) {
        result.add(fresh);
        seen.add(fresh.getMetadata().getName());
      }
    }
    addUndelivered(io.rollgate.api.Experiment.class, uid, ns, seen, result);
    return result;
  }

  /**
   * Returns the AnalysisRuns whose controller owner is the Rollout, freshest versions, including
   * runs we created that the informer has not delivered yet.
   *
   * @param rollout the Rollout
   * @return its runs, in no particular order; empty when AnalysisRuns are not watched
   */
  public List<AnalysisRun> ownedAnalysisRuns(Rollout rollout) {
    var informer = analysisRuns;
    if (informer == null) {
      return List.of();
    }
    String uid = rollout.getMetadata().getUid();
    String ns = rollout.getMetadata().getNamespace();
    List<AnalysisRun> result = new ArrayList<>();
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (AnalysisRun run : informer.getIndexer().byIndex(BY_OWNER, uid)) {
      AnalysisRun fresh =
          freshest(
              "AnalysisRun", run, run.getMetadata().getNamespace(), run.getMetadata().getName());
      if (fresh != null && ns.equals(fresh.getMetadata().getNamespace())) {
        result.add(fresh);
        seen.add(fresh.getMetadata().getName());
      }
    }
    addUndelivered(AnalysisRun.class, uid, ns, seen, result);
    return result;
  }

  /**
   * Returns the spec of an AnalysisTemplate.
   *
   * @param namespace the namespace
   * @param name the template name
   * @return its spec, or null when it is not cached (or templates are not watched)
   */
  public AnalysisTemplateSpec analysisTemplate(String namespace, String name) {
    var informer = analysisTemplates;
    AnalysisTemplate t =
        informer == null ? null : informer.getStore().getByKey(namespace + "/" + name);
    return t == null ? null : (t.getSpec() == null ? new AnalysisTemplateSpec() : t.getSpec());
  }

  /**
   * Returns the spec of a ClusterAnalysisTemplate.
   *
   * @param name the template name
   * @return its spec, or null when it is not cached (or templates are not watched)
   */
  public AnalysisTemplateSpec clusterAnalysisTemplate(String name) {
    var informer = clusterAnalysisTemplates;
    ClusterAnalysisTemplate t = informer == null ? null : informer.getStore().getByKey(name);
    return t == null ? null : (t.getSpec() == null ? new AnalysisTemplateSpec() : t.getSpec());
  }

  /**
   * Returns the freshest known Rollout.
   *
   * @param namespace the namespace
   * @param name the name
   * @return the Rollout, or null when it does not exist (or is no longer watched)
   */
  public Rollout rollout(String namespace, String name) {
    Rollout cached = rollouts.getStore().getByKey(namespace + "/" + name);
    return freshest("Rollout", cached, namespace, name);
  }

  /**
   * Returns the ReplicaSets whose controller owner is the Rollout, freshest versions.
   *
   * @param rollout the Rollout
   * @return its ReplicaSets (not being deleted), in no particular order
   */
  public List<ReplicaSet> ownedReplicaSets(Rollout rollout) {
    String uid = rollout.getMetadata().getUid();
    String ns = rollout.getMetadata().getNamespace();
    List<ReplicaSet> result = new ArrayList<>();
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (ReplicaSet rs : replicaSets.getIndexer().byIndex(BY_OWNER, uid)) {
      ReplicaSet fresh =
          freshest("ReplicaSet", rs, rs.getMetadata().getNamespace(), rs.getMetadata().getName());
      if (fresh != null && ns.equals(fresh.getMetadata().getNamespace())) {
        result.add(fresh);
        seen.add(fresh.getMetadata().getName());
      }
    }
    // ReplicaSets we created that the informer has not delivered yet.
    addUndelivered(ReplicaSet.class, uid, ns, seen, result);
    return result;
  }

  /**
   * Returns the freshest known Service.
   *
   * @param namespace the namespace
   * @param name the Service name
   * @return the Service, or null when it does not exist or Services are not watched
   */
  public Service service(String namespace, String name) {
    if (services == null || name == null || name.isEmpty()) {
      return null;
    }
    Service cached = services.getStore().getByKey(namespace + "/" + name);
    return freshest("Service", cached, namespace, name);
  }

  /**
   * Returns the Services whose {@code argo-rollouts.argoproj.io/managed-by-rollouts} annotation
   * names a Rollout.
   *
   * @param namespace the namespace
   * @param rollout the Rollout name
   * @return the Services, freshest versions, in no particular order
   */
  public List<Service> servicesManagedBy(String namespace, String rollout) {
    if (services == null) {
      return List.of();
    }
    List<Service> result = new ArrayList<>();
    for (Service svc : services.getIndexer().byIndex(BY_MANAGED_BY, namespace + "/" + rollout)) {
      Service fresh =
          freshest("Service", svc, svc.getMetadata().getNamespace(), svc.getMetadata().getName());
      if (fresh != null && managedByRollout(fresh).contains(namespace + "/" + rollout)) {
        result.add(fresh);
      }
    }
    return result;
  }

  /**
   * Adds the Deployment informer that serves {@code spec.workloadRef} (docs/compatibility.md §6).
   *
   * @param informer the Deployment informer, running or about to run
   * @return this cache
   */
  public RolloutCache withDeployments(
      SharedIndexInformer<io.fabric8.kubernetes.api.model.apps.Deployment> informer) {
    this.deployments = informer;
    return this;
  }

  /**
   * Returns the freshest known Deployment.
   *
   * @param namespace the namespace
   * @param name the name
   * @return the Deployment, or null when it is not cached (or Deployments are not watched)
   */
  public io.fabric8.kubernetes.api.model.apps.Deployment deployment(String namespace, String name) {
    var informer = deployments;
    if (informer == null || name == null) {
      return null;
    }
    return freshest(
        "Deployment", informer.getStore().getByKey(namespace + "/" + name), namespace, name);
  }

  /**
   * Returns the cached Rollouts whose {@code spec.workloadRef} names a Deployment.
   *
   * @param namespace the Deployment's namespace
   * @param deployment the Deployment's name
   * @return the Rollouts, in no particular order
   */
  public List<Rollout> rolloutsReferencingDeployment(String namespace, String deployment) {
    List<Rollout> result = new ArrayList<>();
    for (Rollout r : rollouts.getStore().list()) {
      if (RolloutReferences.workload(r, namespace, deployment)) {
        result.add(r);
      }
    }
    return result;
  }

  /**
   * Returns the cached Rollouts of a namespace that name a Service in their strategy (active,
   * preview, stable, canary, ping or pong Service).
   *
   * @param namespace the namespace
   * @param service the Service name
   * @return the Rollouts, in no particular order
   */
  public List<Rollout> rolloutsReferencing(String namespace, String service) {
    List<Rollout> result = new ArrayList<>();
    for (Rollout r : rollouts.getStore().list()) {
      if (namespace.equals(r.getMetadata().getNamespace())
          && RolloutReferences.services(r).contains(service)) {
        result.add(r);
      }
    }
    return result;
  }

  /**
   * Remembers the object returned by one of our writes.
   *
   * @param obj the object as the API server returned it
   */
  public void wrote(HasMetadata obj) {
    if (obj != null && obj.getMetadata() != null) {
      String k = key(obj.getKind(), obj.getMetadata().getNamespace(), obj.getMetadata().getName());
      written.put(k, new Written(obj, clock.instant()));
      for (String owner : controllerOwnerUidOf(obj)) {
        writtenByOwner.computeIfAbsent(owner, o -> ConcurrentHashMap.newKeySet()).add(k);
      }
      if (writesSinceSweep.incrementAndGet() >= SWEEP_EVERY_WRITES) {
        writesSinceSweep.set(0);
        sweep();
      }
    }
  }

  /** Drops the remembered writes that can no longer stand in for the informer's copy. */
  private void sweep() {
    written.entrySet().removeIf(e -> expired(e.getValue()));
    writtenByOwner.values().forEach(keys -> keys.removeIf(k -> !written.containsKey(k)));
    writtenByOwner.values().removeIf(java.util.Set::isEmpty);
  }

  /**
   * Adds to {@code result} the objects of {@code type} that our own writes created for the owner
   * and that the informer has not delivered yet (their names are not in {@code seen}).
   */
  private <T extends HasMetadata> void addUndelivered(
      Class<T> type, String ownerUid, String ns, java.util.Set<String> seen, List<T> result) {
    java.util.Set<String> keys = writtenByOwner.get(ownerUid);
    if (keys == null) {
      return;
    }
    for (String k : keys) {
      Written w = written.get(k);
      if (w == null) {
        keys.remove(k);
      } else if (type.isInstance(w.obj())
          && ns.equals(w.obj().getMetadata().getNamespace())
          && !seen.contains(w.obj().getMetadata().getName())
          && controllerOwnerUidOf(w.obj()).contains(ownerUid)
          && !expired(w)) {
        result.add(type.cast(w.obj()));
      }
    }
  }

  /**
   * Forgets everything remembered about an object (it was deleted).
   *
   * @param kind the kind
   * @param namespace the namespace
   * @param name the name
   */
  public void forget(String kind, String namespace, String name) {
    written.remove(key(kind, namespace, name));
  }

  /**
   * Tells whether the informers have listed everything once.
   *
   * @return true when every cache is synced
   */
  public boolean synced() {
    return rollouts.hasSynced()
        && replicaSets.hasSynced()
        && (services == null || services.hasSynced())
        && (deployments == null || deployments.hasSynced())
        && (analysisRuns == null || analysisRuns.hasSynced())
        && (analysisTemplates == null || analysisTemplates.hasSynced())
        && (clusterAnalysisTemplates == null || clusterAnalysisTemplates.hasSynced());
  }

  @SuppressWarnings("unchecked")
  private <T extends HasMetadata> T freshest(String kind, T cached, String namespace, String name) {
    String k = key(kind, namespace, name);
    Written w = written.get(k);
    if (w == null) {
      return cached;
    }
    HasMetadata mine = w.obj();
    if (cached == null) {
      // Not delivered yet (a fresh create) or deleted since; the overlay only bridges a short gap.
      if (expired(w)) {
        written.remove(k, w);
      }
      return null;
    }
    if (expired(w)
        || !java.util.Objects.equals(mine.getMetadata().getUid(), cached.getMetadata().getUid())
        || newerOrEqual(
            cached.getMetadata().getResourceVersion(), mine.getMetadata().getResourceVersion())) {
      written.remove(k, w);
      return cached;
    }
    return (T) mine;
  }

  private boolean expired(Written w) {
    return w.at().plusSeconds(WRITE_OVERLAY_SECONDS).isBefore(clock.instant());
  }

  private static boolean newerOrEqual(String cachedRv, String writtenRv) {
    try {
      return Long.parseLong(cachedRv) >= Long.parseLong(writtenRv);
    } catch (NumberFormatException | NullPointerException e) {
      // resourceVersions are opaque in general; when they are not numbers, trust the informer.
      return true;
    }
  }

  private static String key(String kind, String namespace, String name) {
    return kind + "/" + namespace + "/" + name;
  }
}
