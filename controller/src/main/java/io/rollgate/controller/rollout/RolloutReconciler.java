package io.rollgate.controller.rollout;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetBuilder;
import io.rollgate.api.Annotations;
import io.rollgate.api.ConditionReason;
import io.rollgate.api.ConditionType;
import io.rollgate.api.Labels;
import io.rollgate.api.ModelJson;
import io.rollgate.api.Rollout;
import io.rollgate.api.RolloutPhase;
import io.rollgate.api.RolloutStatus;
import io.rollgate.controller.events.EventRecorder;
import io.rollgate.controller.kube.KubeApi;
import io.rollgate.controller.kube.StatusPatch;
import io.rollgate.controller.rollout.bluegreen.BlueGreenReconciler;
import io.rollgate.controller.rollout.cache.RolloutCache;
import io.rollgate.controller.rollout.canary.CanaryReconciler;
import io.rollgate.controller.rollout.canary.steps.CanaryStepPlugins;
import io.rollgate.controller.rollout.model.GoKubeApiVersion;
import io.rollgate.controller.rollout.model.GoPodTemplateJson;
import io.rollgate.controller.rollout.model.NewReplicaSetMatch;
import io.rollgate.controller.rollout.model.TemplateHashMemo;
import io.rollgate.controller.rollout.pass.RolloutPass;
import io.rollgate.controller.rollout.pass.SharedSteps;
import io.rollgate.controller.rollout.replicasets.EphemeralMetadata;
import io.rollgate.controller.rollout.replicasets.InjectedAntiAffinity;
import io.rollgate.controller.rollout.replicasets.PodRestarts;
import io.rollgate.controller.rollout.replicasets.ReplicaSetWrites;
import io.rollgate.controller.rollout.runs.RolloutAnalysisRuns;
import io.rollgate.controller.rollout.runs.RolloutExperiments;
import io.rollgate.controller.rollout.services.Services;
import io.rollgate.controller.rollout.status.Conditions;
import io.rollgate.controller.runtime.ReconcileContext;
import io.rollgate.controller.runtime.ReconcileOutcome;
import io.rollgate.controller.runtime.Reconciler;
import io.rollgate.controller.runtime.Reconciles;
import io.rollgate.defaults.RolloutDefaults;
import io.rollgate.kube.KubeApiException;
import io.rollgate.validation.FieldError;
import io.rollgate.validation.RolloutValidator;
import io.vertx.core.Future;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reconciles one Rollout: the mechanics shared by every strategy (docs/compatibility.md §4) and the
 * hand-off to the strategy reconciler.
 *
 * <p>One pass reads the Rollout and its ReplicaSets from the caches, writes at most a few objects,
 * and persists the status as a JSON merge patch carrying the resourceVersion it read (a 409
 * re-queues the key, never overwriting newer data). A pass that creates the new ReplicaSet or
 * resets the steps ends there; the next pass continues from what is stored in the cluster, so the
 * controller can be killed at any point.
 */
public final class RolloutReconciler implements Reconciler {

  private static final Logger LOG = LoggerFactory.getLogger(RolloutReconciler.class);
  private static final ObjectMapper JSON = ModelJson.mapper();

  /**
   * Distinct templates whose hashes are remembered: Rollouts sharing a template share an entry, and
   * an entry is a template's JSON (a few KiB), so this bounds the memo to a few MiB.
   */
  private static final int TEMPLATE_HASH_MEMO_SIZE = 1024;

  private static final List<String> NOT_COPIED_ANNOTATIONS =
      List.of(
          Annotations.LAST_APPLIED_CONFIGURATION,
          Annotations.REVISION,
          Annotations.REVISION_HISTORY,
          Annotations.DESIRED_REPLICAS,
          Annotations.NOTIFIED);

  /** The SMI TrafficSplit version (Argo's {@code --traffic-split-api-version} default). */
  static final String SMI_API_VERSION = "v1alpha1";

  private final RolloutCache cache;
  private final StatusPatch<Rollout> statusPatch;
  private final KubeApi api;
  private final EventRecorder events;

  /**
   * Per Rollout uid: events recorded for a status write that failed, not to be recorded again by
   * the next pass.
   */
  private final Map<String, Set<String>> unpersistedEvents = new ConcurrentHashMap<>();

  /**
   * namespace/name to the uid of the Rollout this process has recorded {@code
   * RolloutAddedToInformer} for.
   */
  private final Map<String, String> announced = new ConcurrentHashMap<>();

  private final Clock clock;
  private final CanaryReconciler canary;
  private final Services services;
  private final io.rollgate.controller.traffic.TrafficRouters routers;
  private final BlueGreenReconciler blueGreen;
  private final WorkloadRefs workloads;
  private final EphemeralMetadata ephemeral;
  private final PodRestarts restarts;
  private final RolloutAnalysisRuns analysis;
  private final io.rollgate.controller.plugin.StepPlugins stepPlugins;
  private final RolloutExperiments experiments;

  /** Pod-template hashes of recently reconciled templates, shared by all Rollouts. */
  private final TemplateHashMemo templateHashes = new TemplateHashMemo(TEMPLATE_HASH_MEMO_SIZE);

  /**
   * Creates the reconciler with the plugin host's hooks, the router API versions of the controller
   * flags and the AWS reads of ALB target-group verification (each hook may be null where the
   * feature is off).
   *
   * @param cache the informer caches
   * @param api the API facade
   * @param events the event recorder
   * @param clock the clock (all time decisions use it)
   * @param stepPlugins how canary {@code plugin} steps reach their plugins, or null when plugins
   *     are off
   * @param pluginRouters the traffic router of a {@code trafficRouting.plugins} name, or null when
   *     plugins are off
   * @param routerVersions the Traefik, Ambassador and App Mesh object versions ({@code
   *     --traefik-api-group} and the like)
   * @param albTargetGroups the AWS Elastic Load Balancing reads ({@code
   *     --aws-verify-target-group}), or null when the flag is off
   */
  public RolloutReconciler(
      RolloutCache cache,
      KubeApi api,
      EventRecorder events,
      Clock clock,
      io.rollgate.controller.plugin.StepPlugins stepPlugins,
      java.util.function.Function<String, io.rollgate.controller.traffic.TrafficRouter>
          pluginRouters,
      io.rollgate.controller.traffic.RouterApiVersions routerVersions,
      io.rollgate.controller.aws.LoadBalancerProvider albTargetGroups) {
    this.stepPlugins = stepPlugins;
    this.cache = cache;
    this.statusPatch = new StatusPatch<>(api, Rollout.class, "status", cache::wrote);
    this.api = api;
    this.events = events;
    this.clock = clock;
    this.ephemeral = new EphemeralMetadata(api, cache);
    this.restarts = new PodRestarts(api);
    this.analysis = new RolloutAnalysisRuns(cache, api);
    this.experiments = new RolloutExperiments(cache, api);
    this.services = new Services(cache, api, events);
    this.routers =
        new io.rollgate.controller.traffic.TrafficRouters(
            api, events, SMI_API_VERSION, routerVersions, pluginRouters, albTargetGroups);
    ReplicaSetWrites writes = new ReplicaSetWrites(api, cache, events);
    SharedSteps shared = sharedSteps();
    this.canary =
        new CanaryReconciler(
            shared,
            cache,
            events,
            restarts,
            ephemeral,
            analysis,
            experiments,
            writes,
            services,
            routers,
            new CanaryStepPlugins(
                stepPlugins == null ? NoStepPlugins.INSTANCE : stepPlugins,
                new StepConfigSchemas()::check));
    this.blueGreen =
        new BlueGreenReconciler(
            shared,
            cache,
            restarts,
            ephemeral,
            analysis,
            routers.targetGroupVerifier(),
            writes,
            services,
            new AnalysisPromotionGate(cache));
    this.workloads = new WorkloadRefs(cache, api);
  }

  /**
   * How canary {@code plugin} steps reach their plugins.
   *
   * @return the step plugins, or null when the controller runs without a plugin host
   */
  io.rollgate.controller.plugin.StepPlugins stepPlugins() {
    return stepPlugins;
  }

  @Override
  public Future<ReconcileOutcome> reconcile(ReconcileContext ctx) {
    return Reconciles.guarded(ctx, () -> reconcileSafely(ctx));
  }

  private Future<ReconcileOutcome> reconcileSafely(ReconcileContext ctx) {
    Rollout rollout = cache.rollout(ctx.namespace(), ctx.name());
    if (rollout == null) {
      LOG.debug("{} not found; releasing the Services and ALB actions it managed, if any", ctx);
      announced.remove(ctx.namespace() + "/" + ctx.name());
      return services
          .releaseAfterDeletion(ctx)
          .compose(v -> routers.releaseAfterDeletion(ctx.namespace(), ctx.name()))
          .map(v -> ReconcileOutcome.done());
    }
    if (rollout.getMetadata().getDeletionTimestamp() != null) {
      LOG.debug("{} being deleted, nothing to do", ctx);
      return Future.succeededFuture(ReconcileOutcome.done());
    }
    return announce(rollout).compose(v -> reconcileExisting(ctx, rollout));
  }

  /**
   * Records {@code RolloutAddedToInformer} the first time this process reconciles a Rollout (by
   * uid), as Argo records it when a Rollout enters its informer: at creation, and for every Rollout
   * when a controller starts leading.
   */
  private Future<Void> announce(Rollout rollout) {
    String key = rollout.getMetadata().getNamespace() + "/" + rollout.getMetadata().getName();
    String uid = rollout.getMetadata().getUid();
    if (uid == null || uid.equals(announced.put(key, uid))) {
      return Future.succeededFuture();
    }
    return events.beforeStatus(
        () ->
            events.normal(
                rollout,
                "RolloutAddedToInformer",
                "Rollout resource added to informer: "
                    + rollout.getMetadata().getNamespace()
                    + "/"
                    + rollout.getMetadata().getName()));
  }

  private Future<ReconcileOutcome> reconcileExisting(ReconcileContext ctx, Rollout rollout) {
    if (rollout.getSpec() == null) {
      return Future.succeededFuture(ReconcileOutcome.done());
    }
    if (rollout.getSpec().getReplicas() == null) {
      LOG.info("{} defaulting spec.replicas to {}", ctx, RolloutDefaults.REPLICAS);
      return api.patch(
              Rollout.class,
              ctx.namespace(),
              ctx.name(),
              null,
              "{\"metadata\":{\"resourceVersion\":\""
                  + rollout.getMetadata().getResourceVersion()
                  + "\"},\"spec\":{\"replicas\":"
                  + RolloutDefaults.REPLICAS
                  + "}}")
          .onSuccess(cache::wrote)
          .map(r -> ReconcileOutcome.done());
    }
    RolloutPass pass = new RolloutPass(ctx, ModelJson.deepCopy(rollout), clock.instant());
    List<FieldError> errors = RolloutValidator.validate(rollout);
    if (!errors.isEmpty()) {
      return invalidSpec(pass, errors);
    }
    if (rollout.getSpec().getWorkloadRef() != null) {
      return workloads.resolve(pass).compose(error -> reconcileWorkloadRef(pass, error));
    }
    return services.releaseUnreferenced(ctx, rollout).compose(v -> reconcileStrategy(pass));
  }

  /**
   * Continues a pass whose template comes from {@code spec.workloadRef}: reports a resolution error
   * as InvalidSpec, validates the resolved template as if it were the Rollout's own, stamps the
   * workload generation, applies {@code scaleDown}, then runs the strategy.
   */
  private Future<ReconcileOutcome> reconcileWorkloadRef(
      RolloutPass pass, java.util.Optional<FieldError> error) {
    if (error.isPresent()) {
      return invalidSpec(pass, List.of(error.get()));
    }
    // Validated as if the template were the Rollout's own: the reference is set aside for the
    // (read-only) validation instead of validating a copy of the whole Rollout.
    var spec = pass.rollout.getSpec();
    var workloadRef = spec.getWorkloadRef();
    List<FieldError> errors;
    spec.setWorkloadRef(null);
    try {
      errors = RolloutValidator.validate(pass.rollout);
    } finally {
      spec.setWorkloadRef(workloadRef);
    }
    if (!errors.isEmpty()) {
      return invalidSpec(pass, errors);
    }
    return stampWorkloadGeneration(pass)
        .compose(v -> workloads.scaleDown(pass))
        .compose(v -> services.releaseUnreferenced(pass.ctx, pass.rollout))
        .compose(v -> reconcileStrategy(pass));
  }

  /**
   * Keeps the Rollout annotation {@code rollout.argoproj.io/workload-generation} equal to the
   * workload's generation.
   */
  private Future<Void> stampWorkloadGeneration(RolloutPass pass) {
    Map<String, String> a = pass.rollout.getMetadata().getAnnotations();
    if (a != null && pass.workloadGeneration.equals(a.get(Annotations.WORKLOAD_GENERATION))) {
      return Future.succeededFuture();
    }
    ObjectNode patch = JSON.createObjectNode();
    patch
        .putObject("metadata")
        .putObject("annotations")
        .put(Annotations.WORKLOAD_GENERATION, pass.workloadGeneration);
    LOG.info("{} workload generation {}", pass.ctx, pass.workloadGeneration);
    return api.patch(Rollout.class, pass.namespace(), pass.name(), null, patch.toString())
        .onSuccess(
            updated -> {
              cache.wrote(updated);
              if (pass.rollout.getMetadata().getAnnotations() == null) {
                pass.rollout.getMetadata().setAnnotations(new HashMap<>());
              }
              pass.rollout
                  .getMetadata()
                  .getAnnotations()
                  .put(Annotations.WORKLOAD_GENERATION, pass.workloadGeneration);
              pass.rollout
                  .getMetadata()
                  .setResourceVersion(updated.getMetadata().getResourceVersion());
            })
        .mapEmpty();
  }

  private Future<ReconcileOutcome> reconcileStrategy(RolloutPass pass) {
    // docs/compatibility.md §2.3 items 2-5: referenced analysis templates must exist and build a
    // run.
    List<FieldError> analysisErrors = analysis.validate(pass.rollout);
    if (!analysisErrors.isEmpty()) {
      return invalidSpec(pass, analysisErrors);
    }
    classifyReplicaSets(pass);
    if (pass.rollout.getSpec().getStrategy().getBlueGreen() != null) {
      // Blue-green validates its Service references before it creates the new ReplicaSet.
      return blueGreen.reconcile(pass);
    }
    if (pass.newRS == null) {
      return createNewReplicaSet(pass);
    }
    return canary.reconcile(pass);
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Invalid spec

  /**
   * Reports the first error as the {@code InvalidSpec} condition (phase Degraded) and re-queues
   * after 20 s, as references (Services, templates) may appear later (docs/compatibility.md §2.1).
   */
  Future<ReconcileOutcome> invalidSpec(RolloutPass pass, List<FieldError> errors) {
    String message = "The Rollout \"" + pass.name() + "\" is invalid: " + errors.get(0).toString();
    RolloutStatus status = RolloutPass.copy(pass.old);
    boolean changed =
        Conditions.set(
            status,
            ConditionType.INVALID_SPEC,
            "True",
            ConditionReason.INVALID_SPEC,
            message,
            pass.nowText);
    if (!changed) {
      var c = Conditions.get(status, ConditionType.INVALID_SPEC);
      if (!Objects.equals(c.getMessage(), message)) {
        c.setMessage(message);
        c.setLastUpdateTime(pass.nowText);
        changed = true;
      }
    }
    if (changed) {
      LOG.info("{} invalid spec: {} ({} problem(s))", pass.ctx, errors.get(0), errors.size());
    }
    status.setObservedGeneration(String.valueOf(pass.rollout.getMetadata().getGeneration()));
    status.setPhase(RolloutPhase.DEGRADED);
    status.setMessage("InvalidSpec: " + message);
    return persistStatus(pass, status)
        .map(
            v ->
                ReconcileOutcome.requeueAfter(
                    Duration.ofSeconds(RolloutDefaults.INVALID_SPEC_REQUEUE_SECONDS)));
  }

  // ---------------------------------------------------------------------------------------------------------------
  // ReplicaSets

  private void classifyReplicaSets(RolloutPass pass) {
    Rollout rollout = pass.rollout;
    pass.allRSs = new ArrayList<>(cache.ownedReplicaSets(rollout));
    pass.allRSs.removeIf(rs -> rs.getMetadata().getDeletionTimestamp() != null);
    Map<GoKubeApiVersion, String> hashes =
        templateHashes.hashes(
            rollout.getSpec().getTemplate(),
            rollout.getStatus() == null ? null : rollout.getStatus().getCollisionCount());
    pass.podHash = hashes.get(GoPodTemplateJson.DEFAULT_VERSION);
    List<String> otherHashes = new ArrayList<>();
    for (GoKubeApiVersion v : GoKubeApiVersion.values()) {
      if (v != GoPodTemplateJson.DEFAULT_VERSION) {
        otherHashes.add(hashes.get(v));
      }
    }
    pass.newRS =
        NewReplicaSetMatch.find(
            pass.allRSs,
            RolloutPass::hashOf,
            pass.podHash,
            otherHashes,
            rs -> EphemeralMetadata.sameTemplate(rollout.getSpec().getTemplate(), rs));
    if (pass.newRS != null) {
      pass.podHash = RolloutPass.hashOf(pass.newRS);
    }
    String stableHash = pass.old.getStableRS();
    for (ReplicaSet rs : pass.allRSs) {
      String h = RolloutPass.hashOf(rs);
      if (rs == pass.newRS) {
        if (stableHash != null && stableHash.equals(h)) {
          pass.stableRS = rs;
        }
        continue;
      }
      if (stableHash != null && stableHash.equals(h)) {
        pass.stableRS = rs;
      } else {
        pass.otherRSs.add(rs);
      }
    }
  }

  /**
   * Creates the new ReplicaSet at 0 replicas (docs/compatibility.md §4 item 4); the pass ends after
   * the write.
   */
  Future<ReconcileOutcome> createNewReplicaSet(RolloutPass pass) {
    Rollout rollout = pass.rollout;
    long revision = maxRevision(pass.allRSs, null) + 1;
    String name = rollout.getMetadata().getName() + "-" + pass.podHash;
    PodTemplateSpec template = ModelJson.deepCopy(rollout.getSpec().getTemplate());
    if (template.getMetadata() == null) {
      template.setMetadata(new ObjectMetaBuilder().build());
    }
    Map<String, String> podLabels = new LinkedHashMap<>();
    if (template.getMetadata().getLabels() != null) {
      podLabels.putAll(template.getMetadata().getLabels());
    }
    podLabels.put(Labels.POD_TEMPLATE_HASH, pass.podHash);
    template.getMetadata().setLabels(podLabels);
    LabelSelector selector = ModelJson.deepCopy(rollout.getSpec().getSelector());
    Map<String, String> matchLabels =
        selector.getMatchLabels() == null
            ? new LinkedHashMap<>()
            : new LinkedHashMap<>(selector.getMatchLabels());
    matchLabels.put(Labels.POD_TEMPLATE_HASH, pass.podHash);
    selector = new LabelSelectorBuilder(selector).withMatchLabels(matchLabels).build();
    Map<String, String> annotations = new LinkedHashMap<>();
    if (rollout.getMetadata().getAnnotations() != null) {
      rollout
          .getMetadata()
          .getAnnotations()
          .forEach(
              (k, v) -> {
                if (!NOT_COPIED_ANNOTATIONS.contains(k)) {
                  annotations.put(k, v);
                }
              });
    }
    annotations.put(Annotations.REVISION, String.valueOf(revision));
    annotations.put(Annotations.DESIRED_REPLICAS, String.valueOf(pass.replicas));
    EphemeralMetadata.applyOnCreate(
        template, annotations, EphemeralMetadata.forNewReplicaSet(pass));
    var strategy = rollout.getSpec().getStrategy();
    var antiAffinity =
        strategy.getCanary() != null
            ? strategy.getCanary().getAntiAffinity()
            : strategy.getBlueGreen() == null ? null : strategy.getBlueGreen().getAntiAffinity();
    if (InjectedAntiAffinity.inject(
        template, antiAffinity, pass.old.getStableRS(), pass.podHash, pass.namespace())) {
      LOG.info(
          "{} ReplicaSet {} gets anti-affinity against stable {}",
          pass.ctx,
          name,
          pass.old.getStableRS());
    }
    ReplicaSet rs =
        new ReplicaSetBuilder()
            .withNewMetadata()
            .withName(name)
            .withNamespace(pass.namespace())
            .withLabels(podLabels)
            .withAnnotations(annotations)
            .withOwnerReferences(
                new OwnerReferenceBuilder()
                    .withApiVersion(rollout.getApiVersion())
                    .withKind(rollout.getKind())
                    .withName(rollout.getMetadata().getName())
                    .withUid(rollout.getMetadata().getUid())
                    .withController(true)
                    .withBlockOwnerDeletion(true)
                    .build())
            .endMetadata()
            .withNewSpec()
            .withReplicas(0)
            .withMinReadySeconds(
                RolloutDefaults.minReadySeconds(rollout.getSpec().getMinReadySeconds()))
            .withSelector(selector)
            .withTemplate(template)
            .endSpec()
            .build();
    return api.createReplicaSet(rs)
        .compose(
            created -> {
              cache.wrote(created);
              LOG.info("{} created ReplicaSet {} revision={}", pass.ctx, name, revision);
              RolloutStatus status = RolloutPass.copy(pass.old);
              Conditions.set(
                  status,
                  ConditionType.PROGRESSING,
                  "True",
                  ConditionReason.NEW_REPLICA_SET_CREATED,
                  "Created new replica set \"" + name + "\"",
                  pass.nowText);
              // As Argo: the Rollout's revision (RolloutUpdated) is recorded before
              // NewReplicaSetCreated.
              return syncRolloutRevision(pass, String.valueOf(revision))
                  .compose(
                      v ->
                          events.beforeStatus(
                              () ->
                                  events.normal(
                                      rollout,
                                      "NewReplicaSetCreated",
                                      "Created ReplicaSet "
                                          + name
                                          + " (revision "
                                          + revision
                                          + ")")))
                  .compose(v -> persistStatus(pass, status))
                  .map(v -> ReconcileOutcome.requeueAfter(Duration.ZERO));
            },
            err -> {
              if (err instanceof KubeApiException k && k.code() == 409) {
                return handleCollision(pass, name);
              }
              events.warning(
                  rollout,
                  "ReplicaSetCreateError",
                  "Failed to create new replica set \"" + name + "\": " + err.getMessage());
              return Future.failedFuture(err);
            });
  }

  /**
   * A ReplicaSet with our name already exists. If it is ours and has our template, the cache has
   * not caught up yet; otherwise it is a hash collision: {@code status.collisionCount} is raised so
   * the next pass computes another hash.
   */
  private Future<ReconcileOutcome> handleCollision(RolloutPass pass, String name) {
    return api.getReplicaSet(pass.namespace(), name)
        .compose(
            existing -> {
              if (existing != null
                  && RolloutCache.controllerOwnerUid(existing)
                      .contains(pass.rollout.getMetadata().getUid())
                  && EphemeralMetadata.sameTemplate(
                      pass.rollout.getSpec().getTemplate(), existing)) {
                cache.wrote(existing);
                return Future.succeededFuture(ReconcileOutcome.requeueAfter(Duration.ZERO));
              }
              RolloutStatus status = RolloutPass.copy(pass.old);
              int count = status.getCollisionCount() == null ? 1 : status.getCollisionCount() + 1;
              status.setCollisionCount(count);
              LOG.info(
                  "{} hash collision on ReplicaSet {}, collisionCount={}", pass.ctx, name, count);
              return persistStatus(pass, status)
                  .map(v -> ReconcileOutcome.requeueAfter(Duration.ZERO));
            });
  }

  /** Highest {@code rollout.argoproj.io/revision} among the ReplicaSets, excluding one. */
  static long maxRevision(List<ReplicaSet> rss, ReplicaSet exclude) {
    long max = 0;
    for (ReplicaSet rs : rss) {
      if (rs != exclude) {
        max = Math.max(max, RolloutPass.revisionOf(rs));
      }
    }
    return max;
  }

  /**
   * Keeps the new ReplicaSet's revision above every older one (a rollback to an old template makes
   * its ReplicaSet the newest revision again, remembering the old number in {@code
   * revision-history}) and the Rollout's revision annotation equal to it.
   */
  Future<Void> syncRevisions(RolloutPass pass) {
    ReplicaSet rs = pass.newRS;
    long maxOld = maxRevision(pass.allRSs, rs);
    long current = RolloutPass.revisionOf(rs);
    Future<Void> rsWrite = Future.succeededFuture();
    long revision = current;
    if (current <= maxOld) {
      revision = maxOld + 1;
      Map<String, String> a =
          rs.getMetadata().getAnnotations() == null ? Map.of() : rs.getMetadata().getAnnotations();
      String history = a.get(Annotations.REVISION_HISTORY);
      String newHistory =
          current == 0
              ? history
              : (history == null || history.isEmpty() ? "" + current : history + "," + current);
      ObjectNode patch = JSON.createObjectNode();
      ObjectNode ann = patch.putObject("metadata").putObject("annotations");
      ann.put(Annotations.REVISION, String.valueOf(revision));
      if (newHistory != null) {
        ann.put(Annotations.REVISION_HISTORY, newHistory);
      }
      LOG.info(
          "{} ReplicaSet {} revision {} -> {}",
          pass.ctx,
          rs.getMetadata().getName(),
          current,
          revision);
      rsWrite =
          api.patchReplicaSet(pass.namespace(), rs.getMetadata().getName(), patch.toString())
              .onSuccess(
                  updated -> {
                    cache.wrote(updated);
                    pass.newRS = updated;
                    pass.allRSs.replaceAll(x -> x == rs ? updated : x);
                    if (pass.stableRS == rs) {
                      pass.stableRS = updated;
                    }
                  })
              .mapEmpty();
    }
    String rev = String.valueOf(revision);
    return rsWrite.compose(v -> syncRolloutRevision(pass, rev));
  }

  private Future<Void> syncRolloutRevision(RolloutPass pass, String revision) {
    if (revision.equals(pass.revision())) {
      return Future.succeededFuture();
    }
    ObjectNode patch = JSON.createObjectNode();
    patch.putObject("metadata").putObject("annotations").put(Annotations.REVISION, revision);
    return api.patch(Rollout.class, pass.namespace(), pass.name(), null, patch.toString())
        .onSuccess(
            updated -> {
              cache.wrote(updated);
              if (pass.rollout.getMetadata().getAnnotations() == null) {
                pass.rollout.getMetadata().setAnnotations(new HashMap<>());
              }
              pass.rollout.getMetadata().getAnnotations().put(Annotations.REVISION, revision);
              pass.rollout
                  .getMetadata()
                  .setResourceVersion(updated.getMetadata().getResourceVersion());
            })
        // Argo records RolloutUpdated whenever the revision annotation changes, the first revision
        // included.
        .compose(
            updated ->
                events.beforeStatus(
                    () ->
                        events.normal(
                            pass.rollout,
                            "RolloutUpdated",
                            "Rollout updated to revision " + revision)));
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Status

  /**
   * Persists the status as a JSON merge patch against the status as read, guarded by the
   * resourceVersion read; records the pass's pending events once the write succeeded. Writes
   * nothing when nothing changed.
   *
   * @return a Future failing with a 409 {@link KubeApiException} when the Rollout changed meanwhile
   */
  Future<Void> persistStatus(RolloutPass pass, RolloutStatus status) {
    if (pass.workloadGeneration != null) {
      status.setWorkloadObservedGeneration(pass.workloadGeneration);
    } else if (pass.rollout.getSpec() != null && pass.rollout.getSpec().getWorkloadRef() == null) {
      // An inline template observes no workload: the field goes when a Rollout leaves workloadRef
      // (as Argo).
      status.setWorkloadObservedGeneration(null);
    }
    Optional<ObjectNode> patch = statusPatch.diff(pass.rollout, pass.old, status);
    if (patch.isEmpty()) {
      LOG.debug("{} status unchanged", pass.ctx);
      return recordEvents(pass);
    }
    List<RolloutPass.PendingEvent> recorded = List.copyOf(pass.events);
    return recordEvents(pass)
        .compose(v -> statusPatch.write(pass.rollout, patch.get()))
        .onFailure(err -> rememberUnpersisted(pass, recorded))
        .mapEmpty();
  }

  /**
   * Records the pass's pending events and completes once they were written (a failed event write is
   * logged, never a failure). As Argo does, the events of a decision are recorded before the status
   * that shows it, so a reader who sees the new phase (Healthy, Paused) also finds its event.
   * Events already recorded for a status write that then failed (a 409) are not recorded again by
   * the next pass that makes the same decision.
   */
  private Future<Void> recordEvents(RolloutPass pass) {
    String uid = pass.rollout.getMetadata().getUid();
    Set<String> already = uid == null ? null : unpersistedEvents.remove(uid);
    return events.beforeStatus(
        () -> {
          List<Future<Void>> writes = new ArrayList<>();
          for (RolloutPass.PendingEvent e : pass.events) {
            if (already != null && already.remove(eventKey(e))) {
              continue;
            }
            writes.add(
                e.warning()
                    ? events.warning(pass.rollout, e.reason(), e.message())
                    : events.normal(pass.rollout, e.reason(), e.message()));
          }
          pass.events.clear();
          return Future.join(writes).mapEmpty();
        });
  }

  private void rememberUnpersisted(RolloutPass pass, List<RolloutPass.PendingEvent> recorded) {
    String uid = pass.rollout.getMetadata().getUid();
    if (uid == null || recorded.isEmpty()) {
      return;
    }
    Set<String> keys = new HashSet<>();
    recorded.forEach(e -> keys.add(eventKey(e)));
    unpersistedEvents.put(uid, keys);
  }

  private static String eventKey(RolloutPass.PendingEvent e) {
    return e.warning() + "|" + e.reason() + "|" + e.message();
  }

  /** The steps the strategy reconcilers share with this one, without exposing the rest of it. */
  private SharedSteps sharedSteps() {
    return new SharedSteps() {
      @Override
      public Future<ReconcileOutcome> invalidSpec(RolloutPass pass, List<FieldError> errors) {
        return RolloutReconciler.this.invalidSpec(pass, errors);
      }

      @Override
      public Future<Void> syncRevisions(RolloutPass pass) {
        return RolloutReconciler.this.syncRevisions(pass);
      }

      @Override
      public Future<ReconcileOutcome> createNewReplicaSet(RolloutPass pass) {
        return RolloutReconciler.this.createNewReplicaSet(pass);
      }

      @Override
      public Future<Void> persistStatus(RolloutPass pass, RolloutStatus status) {
        return RolloutReconciler.this.persistStatus(pass, status);
      }
    };
  }
}
