package io.rollgate.controller.rollout.replicasets;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.rollgate.api.CanaryStrategy;
import io.rollgate.controller.kube.KubeApi;
import io.rollgate.controller.rollout.model.Fenceposts;
import io.rollgate.controller.rollout.pass.RolloutPass;
import io.rollgate.defaults.RolloutDefaults;
import io.vertx.core.Future;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pod restarts requested through {@code spec.restartAt} ({@code kubectl argo rollouts restart};
 * docs/compatibility.md §8.6): pods created before that time are evicted through the Eviction API,
 * a few at a time so that availability never drops more than {@code max(maxUnavailable, 1)} below
 * {@code max(spec.replicas, Σ ReplicaSet replicas)}; once none remain, {@code status.restartedAt}
 * is set to {@code spec.restartAt}.
 *
 * <p>Availability is counted from the pods read from the API server in the same pass (ready for at
 * least {@code minReadySeconds}, not terminating), not from ReplicaSet status, which lags behind an
 * eviction.
 */
public final class PodRestarts {

  private static final Logger LOG = LoggerFactory.getLogger(PodRestarts.class);

  /** Re-check while old pods remain. */
  static final Duration RECHECK = Duration.ofSeconds(30);

  /** Re-check while evicted pods are being replaced (informer events usually come first). */
  static final Duration WAIT_REPLACEMENT = Duration.ofSeconds(2);

  private final KubeApi api;

  /**
   * Creates the restart step over the API facade.
   *
   * @param api the API facade (pod reads and evictions)
   */
  public PodRestarts(KubeApi api) {
    this.api = api;
  }

  /**
   * Runs one restart step.
   *
   * @param pass the pass; {@code restartedAt} is set on it when the restart is complete, and
   *     re-queues are requested
   * @return a Future completing with whether pods were evicted this pass; fails with a {@code
   *     KubeApiException}
   */
  public Future<Boolean> reconcile(RolloutPass pass) {
    String restartAt = pass.rollout.getSpec().getRestartAt();
    if (restartAt == null || restartAt.isEmpty() || restartAt.equals(pass.old.getRestartedAt())) {
      return Future.succeededFuture(false);
    }
    Instant at = parse(restartAt);
    if (at == null) {
      return Future.succeededFuture(false);
    }
    if (at.isAfter(pass.now)) {
      pass.requeueAfter(Duration.between(pass.now, at).plusMillis(500));
      return Future.succeededFuture(false);
    }
    List<ReplicaSet> ordered = ordered(pass);
    List<Future<List<Pod>>> lists = new ArrayList<>();
    for (ReplicaSet rs : ordered) {
      lists.add(podsOf(pass, rs));
    }
    return Future.all(lists)
        .compose(
            done -> {
              List<Pod> pods = new ArrayList<>();
              for (int i = 0; i < lists.size(); i++) {
                pods.addAll(lists.get(i).result());
              }
              return restart(pass, restartAt, at, pods);
            });
  }

  private Future<Boolean> restart(RolloutPass pass, String restartAt, Instant at, List<Pod> pods) {
    List<Pod> old = new ArrayList<>();
    int available = 0;
    int minReady = RolloutDefaults.minReadySeconds(pass.rollout.getSpec().getMinReadySeconds());
    for (Pod p : pods) {
      if (created(p).isBefore(at)) {
        old.add(p);
      }
      if (available(p, minReady, pass.now)) {
        available++;
      }
    }
    if (old.isEmpty()) {
      LOG.info("{} restart at {} complete", pass.ctx, restartAt);
      pass.restartedAt = restartAt;
      return Future.succeededFuture(false);
    }
    pass.requeueAfter(RECHECK);
    int total = 0;
    for (ReplicaSet rs : pass.allRSs) {
      total += RolloutPass.spec(rs);
    }
    int concurrent = Math.max(maxUnavailable(pass), 1);
    int minAvailable = Math.max(pass.replicas, total) - concurrent;
    int canRestart = available - minAvailable;
    if (canRestart <= 0) {
      LOG.debug(
          "{} restart: {} pod(s) left, waiting for availability ({} available, {} needed)",
          pass.ctx,
          old.size(),
          available,
          minAvailable);
      pass.requeueAfter(WAIT_REPLACEMENT);
      return Future.succeededFuture(false);
    }
    List<Pod> batch = old.subList(0, Math.min(canRestart, old.size()));
    Future<Integer> chain = Future.succeededFuture(0);
    for (Pod p : batch) {
      String name = p.getMetadata().getName();
      chain =
          chain.compose(
              n ->
                  n < 0
                      ? Future.succeededFuture(n)
                      : api.evictPod(pass.namespace(), name)
                          .map(
                              ok -> {
                                if (ok) {
                                  LOG.info("{} restart: evicted pod {}", pass.ctx, name);
                                  return n + 1;
                                }
                                LOG.info(
                                    "{} restart: eviction of pod {} refused for now (disruption budget)",
                                    pass.ctx,
                                    name);
                                return n == 0 ? -1 : -n - 1;
                              }));
    }
    return chain.map(
        n -> {
          int evicted = n < 0 ? -n - 1 : n;
          pass.requeueAfter(WAIT_REPLACEMENT);
          return evicted > 0;
        });
  }

  /**
   * Stable first, then new, then the others oldest first (docs/compatibility.md §8.6); only
   * ReplicaSets that may have pods.
   */
  private static List<ReplicaSet> ordered(RolloutPass pass) {
    List<ReplicaSet> out = new ArrayList<>();
    if (pass.stableRS != null) {
      out.add(pass.stableRS);
    }
    if (pass.newRS != null && pass.newRS != pass.stableRS) {
      out.add(pass.newRS);
    }
    List<ReplicaSet> others = new ArrayList<>(pass.otherRSs);
    others.sort(
        Comparator.comparing(
            rs -> rs.getMetadata().getCreationTimestamp(),
            Comparator.nullsFirst(Comparator.naturalOrder())));
    out.addAll(others);
    out.removeIf(rs -> RolloutPass.spec(rs) == 0 && RolloutPass.current(rs) == 0);
    return out;
  }

  private Future<List<Pod>> podsOf(RolloutPass pass, ReplicaSet rs) {
    var selector = rs.getSpec().getSelector();
    if (selector == null
        || selector.getMatchLabels() == null
        || selector.getMatchLabels().isEmpty()) {
      return Future.succeededFuture(List.of());
    }
    String uid = rs.getMetadata().getUid();
    return api.listPods(pass.namespace(), selector.getMatchLabels(), EphemeralMetadata.POD_PAGE)
        .map(
            pods ->
                pods.stream()
                    .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
                    .filter(
                        p ->
                            p.getMetadata().getOwnerReferences() != null
                                && p.getMetadata().getOwnerReferences().stream()
                                    .anyMatch(
                                        o ->
                                            Boolean.TRUE.equals(o.getController())
                                                && Objects.equals(uid, o.getUid())))
                    .sorted(Comparator.comparing(p -> p.getMetadata().getName()))
                    .toList());
  }

  private static int maxUnavailable(RolloutPass pass) {
    CanaryStrategy canary = pass.rollout.getSpec().getStrategy().getCanary();
    if (canary == null) {
      return 0;
    }
    return Fenceposts.resolve(
            raw(canary.getMaxSurge()), raw(canary.getMaxUnavailable()), pass.replicas)
        .maxUnavailable();
  }

  private static Object raw(IntOrString v) {
    if (v == null) {
      return null;
    }
    return v.getIntVal() != null ? v.getIntVal() : v.getStrVal();
  }

  private static Instant created(Pod p) {
    Instant t = parse(p.getMetadata().getCreationTimestamp());
    return t == null ? Instant.EPOCH : t;
  }

  /**
   * A pod is available when Ready for at least {@code minReadySeconds} (Kubernetes'
   * podutil.IsPodAvailable).
   */
  private static boolean available(Pod p, int minReadySeconds, Instant now) {
    if (p.getStatus() == null || p.getStatus().getConditions() == null) {
      return false;
    }
    for (PodCondition c : p.getStatus().getConditions()) {
      if ("Ready".equals(c.getType()) && "True".equals(c.getStatus())) {
        if (minReadySeconds == 0) {
          return true;
        }
        Instant since = parse(c.getLastTransitionTime());
        return since != null && !since.plusSeconds(minReadySeconds).isAfter(now);
      }
    }
    return false;
  }

  private static Instant parse(String text) {
    if (text == null || text.isEmpty()) {
      return null;
    }
    try {
      return OffsetDateTime.parse(text).toInstant();
    } catch (DateTimeParseException e) {
      return null;
    }
  }
}
