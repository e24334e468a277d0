package io.rollgate.controller.rollout.replicasets;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.rollgate.api.Annotations;
import io.rollgate.api.ModelJson;
import io.rollgate.controller.events.EventRecorder;
import io.rollgate.controller.kube.KubeApi;
import io.rollgate.controller.rollout.cache.RolloutCache;
import io.rollgate.controller.rollout.pass.RollbackWindow;
import io.rollgate.controller.rollout.pass.RolloutPass;
import io.rollgate.defaults.RolloutDefaults;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ReplicaSet writes both strategies make (docs/compatibility.md §5.1, §7): scale with the
 * {@code desired-replicas} stamp and the {@code ScalingReplicaSet} event, the {@code
 * scale-down-deadline} annotation, {@code minReadySeconds}, and the revision-history cleanup. Each
 * write goes through {@link KubeApi} and is remembered in the cache so the next pass sees it.
 */
public final class ReplicaSetWrites {

  private static final Logger LOG = LoggerFactory.getLogger(ReplicaSetWrites.class);
  private static final ObjectMapper JSON = ModelJson.mapper();

  private final KubeApi api;
  private final RolloutCache cache;
  private final EventRecorder events;

  /**
   * Creates the ReplicaSet writer.
   *
   * @param api the API facade
   * @param cache the informer caches, told about every object written
   * @param events the event recorder (scaling events)
   */
  public ReplicaSetWrites(KubeApi api, RolloutCache cache, EventRecorder events) {
    this.api = api;
    this.cache = cache;
    this.events = events;
  }

  /**
   * Scales a ReplicaSet, stamping {@code desired-replicas} (and removing {@code
   * scale-down-deadline} when scaling to zero), and records the {@code ScalingReplicaSet} event.
   *
   * @return a Future completing with the updated ReplicaSet
   */
  public Future<ReplicaSet> scale(RolloutPass pass, ReplicaSet rs, int to) {
    return scale(pass, rs, to, false);
  }

  /**
   * Scales a ReplicaSet as {@link #scale(RolloutPass, ReplicaSet, int)} does; with {@code
   * keepDeadline} a scale to zero leaves {@code scale-down-deadline} in place (blue-green abort:
   * the deadline keeps the aborted ReplicaSet down).
   *
   * @return a Future completing with the updated ReplicaSet
   */
  public Future<ReplicaSet> scale(RolloutPass pass, ReplicaSet rs, int to, boolean keepDeadline) {
    int from = RolloutPass.spec(rs);
    ObjectNode patch = JSON.createObjectNode();
    ObjectNode ann = patch.putObject("metadata").putObject("annotations");
    ann.put(Annotations.DESIRED_REPLICAS, String.valueOf(pass.replicas));
    if (to == 0 && !keepDeadline) {
      ann.putNull(Annotations.SCALE_DOWN_DEADLINE);
    }
    patch.putObject("spec").put("replicas", to);
    String name = rs.getMetadata().getName();
    return api.patchReplicaSet(pass.namespace(), name, patch.toString())
        .onSuccess(
            updated -> {
              cache.wrote(updated);
              String dir = to > from ? "up" : "down";
              LOG.info("{} scaled {} ReplicaSet {} from {} to {}", pass.ctx, dir, name, from, to);
              events.normal(
                  pass.rollout,
                  "ScalingReplicaSet",
                  "Scaled "
                      + dir
                      + " ReplicaSet "
                      + name
                      + " (revision "
                      + RolloutPass.revisionOf(rs)
                      + ") from "
                      + from
                      + " to "
                      + to);
            });
  }

  /**
   * Sets or removes the {@code scale-down-deadline} annotation (RFC 3339, UTC, seconds) of a
   * ReplicaSet.
   *
   * @param pass the pass
   * @param rs the ReplicaSet
   * @param deadline the deadline, or null to remove the annotation
   * @return a Future completing with the updated ReplicaSet
   */
  public Future<ReplicaSet> setScaleDownDeadline(
      RolloutPass pass, ReplicaSet rs, java.time.Instant deadline) {
    ObjectNode patch = JSON.createObjectNode();
    ObjectNode ann = patch.putObject("metadata").putObject("annotations");
    String name = rs.getMetadata().getName();
    if (deadline == null) {
      ann.putNull(Annotations.SCALE_DOWN_DEADLINE);
    } else {
      ann.put(
          Annotations.SCALE_DOWN_DEADLINE,
          java.time.format.DateTimeFormatter.ISO_INSTANT.format(
              deadline.truncatedTo(java.time.temporal.ChronoUnit.SECONDS)));
    }
    return api.patchReplicaSet(pass.namespace(), name, patch.toString())
        .onSuccess(
            updated -> {
              cache.wrote(updated);
              if (deadline == null) {
                LOG.info("{} removed scale-down deadline of ReplicaSet {}", pass.ctx, name);
              } else {
                LOG.info("{} ReplicaSet {} will be scaled down at {}", pass.ctx, name, deadline);
              }
            });
  }

  /**
   * Sets the {@code desired-replicas} annotation of a ReplicaSet with pods to {@code spec.replicas}
   * without scaling it (end of a scaling event whose count was already right).
   *
   * @return a Future completing when the annotation is stored (at once when it already is)
   */
  public Future<Void> stampDesiredReplicas(RolloutPass pass, ReplicaSet rs) {
    String want = String.valueOf(pass.replicas);
    Map<String, String> a = rs.getMetadata().getAnnotations();
    if (RolloutPass.spec(rs) == 0
        || (a != null && want.equals(a.get(Annotations.DESIRED_REPLICAS)))) {
      return Future.succeededFuture();
    }
    ObjectNode patch = JSON.createObjectNode();
    patch.putObject("metadata").putObject("annotations").put(Annotations.DESIRED_REPLICAS, want);
    return api.patchReplicaSet(pass.namespace(), rs.getMetadata().getName(), patch.toString())
        .onSuccess(cache::wrote)
        .mapEmpty();
  }

  /**
   * Updates {@code desired-replicas} and {@code minReadySeconds} of a ReplicaSet whose count is
   * already right.
   */
  public Future<ReplicaSet> syncReplicaSetSpec(RolloutPass pass, ReplicaSet rs) {
    int minReady = RolloutDefaults.minReadySeconds(pass.rollout.getSpec().getMinReadySeconds());
    Integer rsMinReady = rs.getSpec().getMinReadySeconds();
    if ((rsMinReady == null ? 0 : rsMinReady) == minReady) {
      return Future.succeededFuture(rs);
    }
    ObjectNode patch = JSON.createObjectNode();
    patch.putObject("spec").put("minReadySeconds", minReady);
    return api.patchReplicaSet(pass.namespace(), rs.getMetadata().getName(), patch.toString())
        .onSuccess(cache::wrote);
  }

  /**
   * Deletes the oldest drained ReplicaSets beyond {@code spec.revisionHistoryLimit} (default 10):
   * only other ReplicaSets with zero spec and status replicas whose latest generation was observed,
   * oldest first (creation time, then the revision each was created with), skipping those still
   * referenced.
   *
   * @param pass the pass, ReplicaSets classified
   * @param referenced pod-template hashes that must be kept (Service selectors, status)
   * @return a Future completing once the deletions were accepted
   */
  public Future<Void> cleanupOldReplicaSets(RolloutPass pass, java.util.Set<String> referenced) {
    int limit =
        RolloutDefaults.revisionHistoryLimit(pass.rollout.getSpec().getRevisionHistoryLimit());
    List<ReplicaSet> candidates = new ArrayList<>(pass.otherRSs);
    int excess = candidates.size() - limit;
    if (excess <= 0) {
      return Future.succeededFuture();
    }
    candidates.sort((a, b) -> RollbackWindow.older(a, b) ? -1 : RollbackWindow.older(b, a) ? 1 : 0);
    List<ReplicaSet> toDelete = new ArrayList<>();
    for (ReplicaSet rs : candidates) {
      if (toDelete.size() == excess) {
        break;
      }
      boolean drained = RolloutPass.spec(rs) == 0 && RolloutPass.current(rs) == 0;
      Long observed = rs.getStatus() == null ? null : rs.getStatus().getObservedGeneration();
      boolean observedGen = observed != null && observed.equals(rs.getMetadata().getGeneration());
      if (drained && observedGen && !referenced.contains(RolloutPass.hashOf(rs))) {
        toDelete.add(rs);
      }
    }
    Future<Void> chain = Future.succeededFuture();
    for (ReplicaSet rs : toDelete) {
      chain = chain.compose(v -> delete(pass, rs));
    }
    return chain.onSuccess(
        v -> {
          pass.otherRSs.removeAll(toDelete);
          pass.allRSs.removeAll(toDelete);
        });
  }

  /** Deletes a ReplicaSet (revision-history cleanup). */
  Future<Void> delete(RolloutPass pass, ReplicaSet rs) {
    String name = rs.getMetadata().getName();
    LOG.info("{} deleting old ReplicaSet {} (revision history limit)", pass.ctx, name);
    return api.deleteReplicaSet(pass.namespace(), name)
        .onSuccess(v -> cache.forget("ReplicaSet", pass.namespace(), name));
  }
}
