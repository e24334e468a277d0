package io.rollgate.controller.rollout.trafficrouting;

import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.rollgate.api.Annotations;
import io.rollgate.api.CanaryStrategy;
import io.rollgate.api.TrafficWeights;
import io.rollgate.controller.rollout.cache.RolloutCache;
import io.rollgate.controller.rollout.model.CanarySplit;
import io.rollgate.controller.rollout.pass.RolloutPass;
import io.rollgate.controller.rollout.replicasets.ReplicaSetWrites;
import io.rollgate.controller.rollout.services.Services;
import io.rollgate.defaults.RolloutDefaults;
import io.vertx.core.Future;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Scales the ReplicaSets of a traffic-routed canary (docs/compatibility.md §5.1 item 10, §5.5,
 * §5.8, §5.9): stable first, then the new ReplicaSet, then the others; at most one category changes
 * per pass.
 *
 * <ul>
 *   <li>Stale {@code scale-down-deadline} annotations are removed from the new and the stable
 *       ReplicaSet (a rollback within the delay brings an old ReplicaSet back as it is), except
 *       from an aborted new ReplicaSet under an abort delay.
 *   <li>Abort: the new ReplicaSet keeps its pods until the stable ReplicaSet is fully available,
 *       then gets {@code scale-down-deadline = now + abortScaleDownDelaySeconds} (default 30) and
 *       is scaled down once it passed; with {@code abortScaleDownDelaySeconds: 0} it is scaled at
 *       once; with dynamicStableScale and no explicit delay it drains step by step with the weight.
 *   <li>Other ReplicaSets: never while something still routes to them; after a full promotion they
 *       get {@code scale-down-deadline = now + scaleDownDelaySeconds} (default 30) and are scaled
 *       to 0 when it passed, keeping at most {@code scaleDownDelayRevisionLimit} of them under a
 *       deadline; with dynamicStableScale at once; an intermediate ReplicaSet of an interrupted
 *       update at once.
 * </ul>
 */
public final class TrafficRoutedScaling {

  private static final Logger LOG = LoggerFactory.getLogger(TrafficRoutedScaling.class);

  private final ReplicaSetWrites writes;
  private final RolloutCache cache;
  private final io.rollgate.controller.traffic.TargetGroupVerifier targetGroupVerifier;

  /**
   * Creates the scaling step on its collaborators.
   *
   * @param writes the ReplicaSet writes
   * @param cache the informer caches (the Services a TargetGroupBinding names)
   * @param targetGroupVerifier the ALB target registration check ({@code
   *     --aws-verify-target-group}), or null when off
   */
  public TrafficRoutedScaling(
      ReplicaSetWrites writes,
      RolloutCache cache,
      io.rollgate.controller.traffic.TargetGroupVerifier targetGroupVerifier) {
    this.writes = writes;
    this.cache = cache;
    this.targetGroupVerifier = targetGroupVerifier;
  }

  /** Scales at most one category; completes with whether a ReplicaSet was scaled. */
  public Future<Boolean> scale(RolloutPass pass) {
    return removeStaleDeadlines(pass).compose(v -> scaleStableAndNew(pass));
  }

  private Future<Void> removeStaleDeadlines(RolloutPass pass) {
    Future<Void> chain = Future.succeededFuture();
    if (pass.stableRS != null && deadline(pass.stableRS) != null) {
      ReplicaSet rs = pass.stableRS;
      chain =
          chain.compose(
              v ->
                  writes
                      .setScaleDownDeadline(pass, rs, null)
                      .onSuccess(u -> replace(pass, rs, u))
                      .mapEmpty());
    }
    if (pass.newRS != null
        && pass.newRS != pass.stableRS
        && deadline(pass.newRS) != null
        && !abortDelayActive(pass)) {
      ReplicaSet rs = pass.newRS;
      chain =
          chain.compose(
              v ->
                  writes
                      .setScaleDownDeadline(pass, rs, null)
                      .onSuccess(u -> replace(pass, rs, u))
                      .mapEmpty());
    }
    return chain;
  }

  private static void replace(RolloutPass pass, ReplicaSet old, ReplicaSet updated) {
    if (pass.newRS == old) {
      pass.newRS = updated;
    }
    if (pass.stableRS == old) {
      pass.stableRS = updated;
    }
    pass.allRSs.replaceAll(x -> x == old ? updated : x);
  }

  /**
   * Whether the aborted new ReplicaSet waits for an abort delay rather than following the maths at
   * once.
   */
  private static boolean abortDelayActive(RolloutPass pass) {
    if (!pass.aborted()) {
      return false;
    }
    Integer delay = TrafficRouted.canary(pass).getAbortScaleDownDelaySeconds();
    if (delay != null && delay == 0) {
      return false;
    }
    return !(TrafficRouted.dynamic(pass) && delay == null);
  }

  private Future<Boolean> scaleStableAndNew(RolloutPass pass) {
    CanarySplit split = TrafficRouted.targets(pass);
    if (pass.stableRS != null
        && pass.stableRS != pass.newRS
        && split.stableRS() != RolloutPass.spec(pass.stableRS)) {
      return writes.scale(pass, pass.stableRS, split.stableRS()).map(true);
    }
    int target = split.newRS();
    int current = RolloutPass.spec(pass.newRS);
    if (target < current && pass.newRS != pass.stableRS && abortDelayActive(pass)) {
      return abortScaleDown(pass, target);
    }
    if (target != current) {
      return writes.scale(pass, pass.newRS, target).map(true);
    }
    return writes.syncReplicaSetSpec(pass, pass.newRS).compose(v -> scaleDownOthers(pass));
  }

  /**
   * docs/compatibility.md §5.9: the aborted new ReplicaSet waits for a fully available stable one,
   * then for the abort delay.
   */
  private Future<Boolean> abortScaleDown(RolloutPass pass, int target) {
    if (RolloutPass.available(pass.stableRS) < pass.replicas) {
      LOG.debug(
          "{} aborted: stable ReplicaSet not fully available yet; canary keeps its pods", pass.ctx);
      return scaleDownOthers(pass);
    }
    Instant deadline = deadline(pass.newRS);
    if (deadline == null) {
      Integer d = TrafficRouted.canary(pass).getAbortScaleDownDelaySeconds();
      int delay = d == null ? RolloutDefaults.ABORT_SCALE_DOWN_DELAY_SECONDS : d;
      ReplicaSet rs = pass.newRS;
      pass.requeueAfter(Duration.ofSeconds(delay).plusMillis(500));
      return writes
          .setScaleDownDeadline(pass, rs, pass.now.plusSeconds(delay))
          .onSuccess(u -> replace(pass, rs, u))
          .compose(v -> scaleDownOthers(pass));
    }
    if (!deadline.isAfter(pass.now)) {
      return writes.scale(pass, pass.newRS, target).map(true);
    }
    pass.requeueAfter(Duration.between(pass.now, deadline).plusMillis(500));
    return scaleDownOthers(pass);
  }

  /**
   * docs/compatibility.md §5.8: with {@code --aws-verify-target-group}, an ALB canary that is fully
   * promoted scales nothing down and sets no deadline while an old ReplicaSet still waits for one
   * and the stable Service's target groups do not have all of its endpoints yet
   * (docs/traffic-routers.md "AWS ALB").
   */
  private Future<Boolean> scaleDownOthers(RolloutPass pass) {
    var verifier = targetGroupVerifier;
    CanaryStrategy c = TrafficRouted.canary(pass);
    boolean alb = c.getTrafficRouting() != null && c.getTrafficRouting().getAlb() != null;
    boolean waiting =
        pass.otherRSs.stream().anyMatch(rs -> RolloutPass.spec(rs) > 0 && deadline(rs) == null);
    if (verifier == null || !alb || !waiting || !pass.podHash.equals(pass.old.getStableRS())) {
      return scaleDownOthersVerified(pass);
    }
    String name =
        new io.rollgate.controller.traffic.TrafficRequest(pass.ctx, pass.rollout).stableService();
    Service svc = name == null ? null : cache.service(pass.namespace(), name);
    if (svc == null) {
      return scaleDownOthersVerified(pass);
    }
    return verifier
        .verify(pass.ctx, pass.rollout, svc)
        .compose(
            verified -> {
              pass.targetsVerified = verified;
              if (Boolean.FALSE.equals(verified)) {
                LOG.info(
                    "{} stable Service {}: target groups not verified yet; old ReplicaSets wait",
                    pass.ctx,
                    name);
                pass.requeueAfter(TrafficRouting.VERIFY_REQUEUE);
                return Future.succeededFuture(false);
              }
              return scaleDownOthersVerified(pass);
            });
  }

  private Future<Boolean> scaleDownOthersVerified(RolloutPass pass) {
    CanaryStrategy c = TrafficRouted.canary(pass);
    Set<String> referenced = referencedHashes(pass);
    boolean promoted = TrafficRouted.fullyPromoted(pass);
    boolean dynamic = TrafficRouted.dynamic(pass);
    int delay =
        c.getScaleDownDelaySeconds() == null
            ? RolloutDefaults.SCALE_DOWN_DELAY_SECONDS
            : c.getScaleDownDelaySeconds();
    Integer limit = c.getScaleDownDelayRevisionLimit();
    List<ReplicaSet> others = new ArrayList<>(pass.otherRSs);
    others.sort(Comparator.comparingLong(RolloutPass::revisionOf).reversed());
    int kept = 0;
    Future<Boolean> chain = Future.succeededFuture(false);
    for (ReplicaSet rs : others) {
      if (RolloutPass.spec(rs) == 0 || referenced.contains(RolloutPass.hashOf(rs))) {
        continue;
      }
      Instant deadline = deadline(rs);
      if (!promoted && deadline == null) {
        LOG.info(
            "{} scaling down intermediate ReplicaSet {}", pass.ctx, rs.getMetadata().getName());
        return chain.compose(v -> writes.scale(pass, rs, 0).map(true));
      }
      if (dynamic || (limit != null && kept >= limit)) {
        return chain.compose(v -> writes.scale(pass, rs, 0).map(true));
      }
      if (deadline == null) {
        kept++;
        pass.requeueAfter(Duration.ofSeconds(delay).plusMillis(500));
        chain =
            chain.compose(
                v -> writes.setScaleDownDeadline(pass, rs, pass.now.plusSeconds(delay)).map(false));
      } else if (!deadline.isAfter(pass.now)) {
        return chain.compose(v -> writes.scale(pass, rs, 0).map(true));
      } else {
        kept++;
        pass.requeueAfter(Duration.between(pass.now, deadline).plusMillis(500));
      }
    }
    return chain;
  }

  /** Hashes something still routes to: status, recorded weights, and the Services' selectors. */
  private Set<String> referencedHashes(RolloutPass pass) {
    Set<String> hashes = new HashSet<>();
    hashes.add(pass.old.getStableRS());
    hashes.add(pass.podHash);
    addWeights(hashes, pass.old.getCanary() == null ? null : pass.old.getCanary().getWeights());
    if (pass.trafficReconciled) {
      // The weights written this pass replace the recorded ones.
      hashes.clear();
      hashes.add(pass.old.getStableRS());
      hashes.add(pass.podHash);
      addWeights(hashes, pass.trafficWeights);
    }
    CanaryStrategy c = TrafficRouted.canary(pass);
    java.util.List<String> names =
        new java.util.ArrayList<>(
            java.util.Arrays.asList(c.getStableService(), c.getCanaryService()));
    if (c.getPingPong() != null) {
      names.add(c.getPingPong().getPingService());
      names.add(c.getPingPong().getPongService());
    }
    for (String name : names) {
      if (name != null && !name.isEmpty()) {
        Service svc = cache.service(pass.namespace(), name);
        hashes.add(Services.selectedHash(svc));
      }
    }
    hashes.remove(null);
    return hashes;
  }

  private static void addWeights(Set<String> hashes, TrafficWeights w) {
    if (w == null) {
      return;
    }
    if (w.getCanary() != null && TrafficRouted.nz(w.getCanary().getWeight()) > 0) {
      hashes.add(w.getCanary().getPodTemplateHash());
    }
    if (w.getStable() != null) {
      hashes.add(w.getStable().getPodTemplateHash());
    }
  }

  /** The {@code scale-down-deadline} annotation, or null when absent or unreadable. */
  static Instant deadline(ReplicaSet rs) {
    Map<String, String> a = rs.getMetadata().getAnnotations();
    String v = a == null ? null : a.get(Annotations.SCALE_DOWN_DEADLINE);
    if (v == null || v.isEmpty()) {
      return null;
    }
    try {
      return Instant.parse(v);
    } catch (DateTimeParseException e) {
      return null;
    }
  }
}
