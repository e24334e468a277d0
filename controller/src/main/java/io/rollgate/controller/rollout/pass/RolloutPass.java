package io.rollgate.controller.rollout.pass;

import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.rollgate.api.AnalysisRun;
import io.rollgate.api.Annotations;
import io.rollgate.api.CanaryStep;
import io.rollgate.api.Experiment;
import io.rollgate.api.Labels;
import io.rollgate.api.ModelJson;
import io.rollgate.api.Rollout;
import io.rollgate.api.RolloutStatus;
import io.rollgate.controller.runtime.ReconcileContext;
import io.rollgate.defaults.RolloutDefaults;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The state of one reconcile pass over a Rollout: what was read, and the intents collected before
 * the status is persisted (pause reasons to add or remove, abort, events to record once the write
 * succeeded).
 */
public final class RolloutPass {

  /** The AnalysisRuns one pass settled on; read when the status is written. */
  public static final class AnalysisRuns {
    /**
     * Whether the analysis stage ran in this pass (otherwise the stored references are kept as they
     * are).
     */
    public boolean reconciled;

    /** The run of the current canary analysis step, or null. */
    public AnalysisRun step;

    /** The background run ({@code canary.analysis}), or null. */
    public AnalysisRun background;

    /** The blue-green pre-promotion run, or null. */
    public AnalysisRun pre;

    /** The blue-green post-promotion run, or null. */
    public AnalysisRun post;
  }

  /** The Experiment of the current experiment step one pass settled on. */
  public static final class Experiments {
    /** Whether the experiment stage ran in this pass. */
    public boolean reconciled;

    /** The current step's Experiment, or null. */
    public Experiment current;
  }

  /** An event to record after the status write succeeded. */
  public record PendingEvent(boolean warning, String reason, String message) {}

  /** The reconcile this pass belongs to (its log prefix). */
  public final ReconcileContext ctx;

  /** The Rollout as read (with its workload template resolved). */
  public final Rollout rollout;

  /** The status as read; never modified. */
  public final RolloutStatus old;

  /** The pass's clock reading, truncated to seconds as Argo's timestamps are. */
  public final Instant now;

  /** {@link #now} in RFC 3339 form, for status timestamps. */
  public final String nowText;

  /** {@code spec.replicas} with its default (1). */
  public final int replicas;

  /** The ReplicaSet of the current pod template, or null before it is created. */
  public ReplicaSet newRS;

  /** The ReplicaSet named by {@code status.stableRS}, or null. */
  public ReplicaSet stableRS;

  /** The owned ReplicaSets that are neither new nor stable. */
  public List<ReplicaSet> otherRSs = new ArrayList<>();

  /** Every ReplicaSet the Rollout owns. */
  public List<ReplicaSet> allRSs = new ArrayList<>();

  /** The pod-template hash of the current template ({@code rollouts-pod-template-hash}). */
  public String podHash;

  /** The hash of the canary steps ({@code status.currentStepHash}), set by the canary pass. */
  public String stepsHash;

  /** Pause reasons ({@code status.pauseConditions[].reason}) to add when the status is written. */
  public final Set<String> addPause = new LinkedHashSet<>();

  /** Pause reasons to remove when the status is written. */
  public final Set<String> removePause = new LinkedHashSet<>();

  /** Whether every pause condition goes when the status is written. */
  public boolean clearPauses;

  /** Whether this pass aborts the rollout ({@code status.abort}). */
  public boolean addAbort;

  /** The abort message for {@code status.message}, when this pass aborts. */
  public String abortMessage;

  /** Whether this pass clears {@code status.abort}. */
  public boolean removeAbort;

  /** The events to record once the status write succeeded, in order. */
  public final List<PendingEvent> events = new ArrayList<>();

  /** The earliest re-queue asked for this pass, or null; see {@link #requeueAfter}. */
  public Duration requeue;

  /**
   * {@code spec.restartAt} once every pod created before it was replaced this pass; stored as
   * status.restartedAt.
   */
  public String restartedAt;

  // Blue-green (docs/compatibility.md §7): the Services as read (or as written) this pass, and the
  // gate decisions.
  /** The active Service; null for canary. */
  public Service activeService;

  /** The preview Service; null when none is configured. */
  public Service previewService;

  /**
   * Whether the new ReplicaSet may skip the blue-green pause and go straight to the active Service
   * (7.3).
   */
  public boolean fastTracked;

  /**
   * Whether the new ReplicaSet carried a scale-down deadline still in the future when the pass
   * began (read before the pass removes it): returning to it is a fast rollback
   * (docs/compatibility.md §7.5).
   */
  public boolean newRsWithinDelay;

  /**
   * Whether the blue-green pause is over this pass (7.3: not managed, timed out, or resumed by the
   * user).
   */
  public boolean pauseCompleted;

  /** Whether prePromotionAnalysis passed (or is not configured). */
  public boolean prePromotionPassed = true;

  /** Whether postPromotionAnalysis passed (or is not configured). */
  public boolean postPromotionPassed = true;

  /** The desired replicas of the new ReplicaSet computed this pass (blue-green). */
  public int newDesired;

  /** The AnalysisRuns this pass settled on (docs/compatibility.md §9.8). */
  public final AnalysisRuns analysis = new AnalysisRuns();

  /**
   * The Experiment of the current experiment step this pass settled on (docs/compatibility.md
   * §12.2).
   */
  public final Experiments experiments = new Experiments();

  /**
   * Whether the traffic step ran this pass, so {@link #trafficWeights} is the new {@code
   * status.canary.weights}.
   */
  public boolean trafficReconciled;

  /** The {@code status.canary.weights} decided by the traffic step (null: none). */
  public io.rollgate.api.TrafficWeights trafficWeights;

  /**
   * The ALB router's weight verification of this pass, which decides {@code status.alb}/{@code
   * status.albs}; null when it did not run (docs/traffic-routers.md "AWS ALB").
   */
  public io.rollgate.controller.traffic.AlbTrafficRouter.Verification albVerification;

  /**
   * The target registration check of this pass ({@code --aws-verify-target-group}): false while a
   * TargetGroupBinding's target group lacks some endpoint of the Service; null when not checked or
   * nothing to check.
   */
  public Boolean targetsVerified;

  /**
   * The {@code status.canary.stepPluginStatuses} decided by the step-plugin part of this pass
   * (docs/compatibility.md §10.3); null when it did not run, so the stored list is carried over.
   */
  public List<io.rollgate.api.StepPluginStatus> stepPluginStatuses;

  /**
   * The message of a step-plugin call that met a handled error this pass (the plugin step then does
   * not complete, and the message becomes {@code status.message}); null when none did.
   */
  public String stepPluginError;

  /** The object named by {@code spec.workloadRef} as read this pass; null without a workloadRef. */
  public io.fabric8.kubernetes.api.model.HasMetadata workload;

  /**
   * Its {@code metadata.generation} (decimal), stamped into the Rollout; null without a
   * workloadRef.
   */
  public String workloadGeneration;

  /**
   * Starts a pass.
   *
   * @param ctx the reconcile
   * @param rollout the Rollout as read
   * @param now the current time (truncated to seconds here)
   */
  public RolloutPass(ReconcileContext ctx, Rollout rollout, Instant now) {
    this.ctx = ctx;
    this.rollout = rollout;
    this.old = rollout.getStatus() == null ? new RolloutStatus() : rollout.getStatus();
    this.now = now.truncatedTo(ChronoUnit.SECONDS);
    this.nowText = DateTimeFormatter.ISO_INSTANT.format(this.now);
    this.replicas = RolloutDefaults.replicas(rollout.getSpec().getReplicas());
  }

  /**
   * Asks for the key to be reconciled again after {@code d} (the earliest request wins).
   *
   * @param d the delay
   */
  public void requeueAfter(Duration d) {
    if (requeue == null || d.compareTo(requeue) < 0) {
      requeue = d;
    }
  }

  /**
   * Queues a Normal event, recorded once the status write succeeded.
   *
   * @param reason the event reason
   * @param message the event message
   */
  public void event(String reason, String message) {
    events.add(new PendingEvent(false, reason, message));
  }

  /**
   * Queues a Warning event, recorded once the status write succeeded.
   *
   * @param reason the event reason
   * @param message the event message
   */
  public void warning(String reason, String message) {
    events.add(new PendingEvent(true, reason, message));
  }

  /**
   * Whether the rollout is (or is being) aborted this pass.
   *
   * @return true when this pass aborts or the stored abort is not being cleared
   */
  public boolean aborted() {
    return addAbort || (Boolean.TRUE.equals(old.getAbort()) && !removeAbort);
  }

  /**
   * The canary steps ({@code spec.strategy.canary.steps}).
   *
   * @return the steps; empty for blue-green or without steps
   */
  public List<CanaryStep> steps() {
    var canary = rollout.getSpec().getStrategy().getCanary();
    return canary == null || canary.getSteps() == null ? List.of() : canary.getSteps();
  }

  /**
   * The Rollout's name.
   *
   * @return {@code metadata.name}
   */
  public String name() {
    return rollout.getMetadata().getName();
  }

  /**
   * The Rollout's namespace.
   *
   * @return {@code metadata.namespace}
   */
  public String namespace() {
    return rollout.getMetadata().getNamespace();
  }

  /**
   * The Rollout's current revision annotation.
   *
   * @return {@code rollout.argoproj.io/revision}, or empty
   */
  public String revision() {
    Map<String, String> a = rollout.getMetadata().getAnnotations();
    return a == null ? "" : a.getOrDefault(Annotations.REVISION, "");
  }

  /**
   * The pod-template hash label of a ReplicaSet.
   *
   * @param rs the ReplicaSet, may be null
   * @return its {@code rollouts-pod-template-hash} label, or null
   */
  public static String hashOf(ReplicaSet rs) {
    if (rs == null || rs.getMetadata().getLabels() == null) {
      return null;
    }
    return rs.getMetadata().getLabels().get(Labels.POD_TEMPLATE_HASH);
  }

  /**
   * The revision annotation of a ReplicaSet.
   *
   * @param rs the ReplicaSet
   * @return its {@code rollout.argoproj.io/revision}, 0 when missing or not a number
   */
  public static long revisionOf(ReplicaSet rs) {
    Map<String, String> a = rs.getMetadata().getAnnotations();
    if (a == null) {
      return 0;
    }
    try {
      return Long.parseLong(a.getOrDefault(Annotations.REVISION, "0"));
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  /**
   * The desired replicas of a ReplicaSet.
   *
   * @param rs the ReplicaSet, may be null
   * @return {@code spec.replicas}, 0 when unset or null
   */
  public static int spec(ReplicaSet rs) {
    return rs == null || rs.getSpec().getReplicas() == null ? 0 : rs.getSpec().getReplicas();
  }

  /**
   * The available replicas of a ReplicaSet.
   *
   * @param rs the ReplicaSet, may be null
   * @return {@code status.availableReplicas}, 0 when unset or null
   */
  public static int available(ReplicaSet rs) {
    return rs == null || rs.getStatus() == null || rs.getStatus().getAvailableReplicas() == null
        ? 0
        : rs.getStatus().getAvailableReplicas();
  }

  /**
   * The ready replicas of a ReplicaSet.
   *
   * @param rs the ReplicaSet, may be null
   * @return {@code status.readyReplicas}, 0 when unset or null
   */
  public static int ready(ReplicaSet rs) {
    return rs == null || rs.getStatus() == null || rs.getStatus().getReadyReplicas() == null
        ? 0
        : rs.getStatus().getReadyReplicas();
  }

  /**
   * The current replicas of a ReplicaSet.
   *
   * @param rs the ReplicaSet, may be null
   * @return {@code status.replicas}, 0 when unset or null
   */
  public static int current(ReplicaSet rs) {
    return rs == null || rs.getStatus() == null || rs.getStatus().getReplicas() == null
        ? 0
        : rs.getStatus().getReplicas();
  }

  /**
   * A deep copy of a status, to build the new status from.
   *
   * @param status the status, may be null
   * @return the copy; an empty status for null
   */
  public static RolloutStatus copy(RolloutStatus status) {
    return status == null ? new RolloutStatus() : ModelJson.deepCopy(status);
  }
}
