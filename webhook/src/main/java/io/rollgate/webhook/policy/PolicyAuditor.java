package io.rollgate.webhook.policy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.rollgate.api.ModelJson;
import io.rollgate.api.Rollout;
import io.rollgate.api.policy.PolicyViolation;
import io.rollgate.api.policy.RolloutPolicy;
import io.rollgate.api.policy.RolloutPolicyStatus;
import io.rollgate.kube.KubeApiException;
import io.rollgate.kube.MergePatch;
import io.rollgate.policy.PolicyEvaluator;
import io.rollgate.validation.FieldError;
import io.rollgate.webhook.ClusterView;
import io.rollgate.webhook.kube.WebhookApi;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Audits existing Rollouts against every RolloutPolicy and writes what it finds into each policy's
 * status ({@code totalViolations}, the first {@link RolloutPolicyStatus#MAX_LISTED} violating
 * Rollouts with their messages, {@code observedGeneration}, {@code lastAuditTime}). Runs on the
 * leader only: every {@code interval}, and shortly after a policy's spec or a namespace's labels
 * change. Every enforcement action is audited, so the status shows how many Rollouts a {@code warn}
 * or {@code deny} policy would catch too (objects admitted before the policy existed).
 *
 * <p>The Rollouts are listed in pages ({@code --audit-page-size}, API {@code limit}/{@code
 * continue}) through the webhook's API facade; each page is evaluated on a worker. A status is
 * written only when the audit's result differs from the stored one in something other than {@code
 * lastAuditTime} (the violations, their count, or the audited generation), so an unchanged cluster
 * costs no write per audit and {@code lastAuditTime} tells when the result last changed. The write
 * is a merge patch of the changed fields on the {@code status} subresource, carrying the policy's
 * {@code resourceVersion} as read: a concurrent write makes it fail with 409, and the audit is
 * requested again once the informer has the newer object (README.md, RolloutPolicy).
 */
public final class PolicyAuditor {

  private static final Logger LOG = LoggerFactory.getLogger(PolicyAuditor.class);
  private static final long DEBOUNCE_MILLIS = 500;

  private final Vertx vertx;
  private final WebhookApi api;
  private final ClusterView cluster;
  private final Clock clock;
  private final Duration interval;
  private final BooleanSupplier leader;
  private final long pageSize;
  private long periodic = -1;
  private long pending = -1;
  private boolean running;
  private boolean again;
  private volatile Context context;

  /**
   * Creates the auditor (not started).
   *
   * @param vertx the Vert.x instance
   * @param api the webhook's API facade
   * @param cluster the policies and namespace labels
   * @param clock the time source for {@code lastAuditTime}
   * @param interval the period between audits
   * @param pageSize Rollouts per list request (API {@code limit}), at least 1
   * @param leader whether this replica may audit (holds the Lease)
   */
  public PolicyAuditor(
      Vertx vertx,
      WebhookApi api,
      ClusterView cluster,
      Clock clock,
      Duration interval,
      long pageSize,
      BooleanSupplier leader) {
    this.pageSize = pageSize;
    this.vertx = vertx;
    this.api = api;
    this.cluster = cluster;
    this.clock = clock;
    this.interval = interval;
    this.leader = leader;
  }

  /** Starts the periodic audit. Call on the verticle's context: every audit runs on it. */
  public void start() {
    context = vertx.getOrCreateContext();
    periodic = vertx.setPeriodic(interval.toMillis(), id -> run());
  }

  /** Requests an audit soon (debounced); safe from any thread. */
  public void trigger() {
    Context c = context;
    if (c == null) {
      return;
    }
    c.runOnContext(
        v -> {
          if (pending < 0) {
            pending =
                vertx.setTimer(
                    DEBOUNCE_MILLIS,
                    id -> {
                      pending = -1;
                      run();
                    });
          }
        });
  }

  /** Stops the timers. */
  public void stop() {
    if (periodic >= 0) {
      vertx.cancelTimer(periodic);
    }
    if (pending >= 0) {
      vertx.cancelTimer(pending);
    }
  }

  private void run() {
    if (!leader.getAsBoolean() || !cluster.policiesKnown()) {
      return;
    }
    if (running) {
      again = true;
      return;
    }
    running = true;
    audit()
        .onComplete(
            ar -> {
              running = false;
              if (ar.failed()) {
                LOG.warn(
                    "policy audit failed, retrying in {}s: {}",
                    interval.toSeconds(),
                    ar.cause().toString());
              }
              if (again) {
                again = false;
                run();
              }
            });
  }

  /**
   * Audits every policy once and writes the statuses that changed.
   *
   * @return a Future completed when every changed status is written; failed with the {@link
   *     KubeApiException} when the Rollouts cannot be listed (a failed status write is logged and
   *     retried on the next audit)
   */
  public Future<Void> audit() {
    List<RolloutPolicy> policies = cluster.policies();
    if (policies.isEmpty()) {
      return Future.succeededFuture();
    }
    // Page through the Rollouts so that only one page and the violations found are in memory at a
    // time.
    List<List<PolicyViolation>> found = new ArrayList<>();
    policies.forEach(p -> found.add(new ArrayList<>()));
    return scan(policies, found, null)
        .compose(
            v -> {
              String now = Instant.now(clock).truncatedTo(ChronoUnit.SECONDS).toString();
              Future<Void> written = Future.succeededFuture();
              for (int i = 0; i < policies.size(); i++) {
                RolloutPolicy policy = policies.get(i);
                RolloutPolicyStatus status = status(policy, found.get(i), now);
                written = written.compose(w -> write(policy, status));
              }
              return written;
            });
  }

  /** Lists one page, evaluates it on a worker, then goes on with the next page. */
  private Future<Void> scan(
      List<RolloutPolicy> policies, List<List<PolicyViolation>> found, String continueToken) {
    return api.listRollouts(pageSize, continueToken)
        .compose(page -> vertx.executeBlocking(() -> evaluate(policies, found, page), false))
        .compose(
            next ->
                next == null || next.isEmpty()
                    ? Future.<Void>succeededFuture()
                    : scan(policies, found, next));
  }

  /** Adds the page's violations to {@code found}; returns the next page's continue token. */
  private String evaluate(
      List<RolloutPolicy> policies,
      List<List<PolicyViolation>> found,
      KubernetesResourceList<Rollout> page) {
    for (Rollout r : page.getItems()) {
      for (int i = 0; i < policies.size(); i++) {
        violation(policies.get(i), r).ifPresent(found.get(i)::add);
      }
    }
    return page.getMetadata() == null ? null : page.getMetadata().getContinue();
  }

  private Optional<PolicyViolation> violation(RolloutPolicy policy, Rollout r) {
    Optional<Map<String, String>> nsLabels =
        cluster.namespaceLabels(r.getMetadata().getNamespace());
    if (nsLabels.isEmpty()
        || !PolicyEvaluator.selects(policy, nsLabels.get(), r.getMetadata().getLabels())) {
      return Optional.empty();
    }
    List<FieldError> v = PolicyEvaluator.violations(policy, r);
    return v.isEmpty()
        ? Optional.empty()
        : Optional.of(
            new PolicyViolation(
                r.getMetadata().getNamespace(),
                r.getMetadata().getName(),
                v.stream().map(FieldError::toString).toList()));
  }

  private static RolloutPolicyStatus status(
      RolloutPolicy policy, List<PolicyViolation> found, String now) {
    found.sort(
        Comparator.comparing(PolicyViolation::getNamespace)
            .thenComparing(PolicyViolation::getName));
    RolloutPolicyStatus status = new RolloutPolicyStatus();
    status.setObservedGeneration(policy.getMetadata().getGeneration());
    status.setLastAuditTime(now);
    status.setTotalViolations(found.size());
    status.setViolations(
        List.copyOf(found.subList(0, Math.min(found.size(), RolloutPolicyStatus.MAX_LISTED))));
    return status;
  }

  /**
   * The status patch of one audit: the changed fields, {@code lastAuditTime} among them, guarded by
   * the policy's {@code metadata.resourceVersion}; empty when the result is the stored one but for
   * {@code lastAuditTime}. Fields of the stored status that the audit does not write are left
   * alone.
   *
   * @param policy the policy as read (its stored status and resourceVersion)
   * @param audited the status this audit computed, with its {@code lastAuditTime}
   * @return the merge patch, or empty when nothing but {@code lastAuditTime} would change
   */
  static Optional<ObjectNode> statusPatch(RolloutPolicy policy, RolloutPolicyStatus audited) {
    ObjectNode after = ModelJson.mapper().valueToTree(audited);
    RolloutPolicyStatus stored = policy.getStatus();
    ObjectNode before = ModelJson.mapper().createObjectNode();
    if (stored != null) {
      JsonNode read = ModelJson.mapper().valueToTree(stored);
      after
          .fieldNames()
          .forEachRemaining(
              f -> {
                if (read.has(f)) {
                  before.set(f, read.get(f));
                }
              });
    }
    ObjectNode sameTime = after.deepCopy();
    JsonNode storedTime = before.get("lastAuditTime");
    if (storedTime == null) {
      sameTime.remove("lastAuditTime");
    } else {
      sameTime.set("lastAuditTime", storedTime);
    }
    if (MergePatch.diff(before, sameTime).isEmpty()) {
      return Optional.empty();
    }
    return MergePatch.guarded(policy.getMetadata().getResourceVersion(), "status", before, after);
  }

  private Future<Void> write(RolloutPolicy policy, RolloutPolicyStatus status) {
    String name = policy.getMetadata().getName();
    Optional<ObjectNode> patch = statusPatch(policy, status);
    if (patch.isEmpty()) {
      LOG.debug(
          "audited RolloutPolicy {}: unchanged, {} violating Rollouts",
          name,
          status.getTotalViolations());
      return Future.succeededFuture();
    }
    return api.patchPolicyStatus(name, patch.get().toString())
        .onSuccess(
            p ->
                LOG.info(
                    "audited RolloutPolicy {}: {} violating Rollouts",
                    name,
                    status.getTotalViolations()))
        .<Void>mapEmpty()
        .recover(
            err -> {
              if (KubeApiException.isNotFound(err)) {
                LOG.debug("RolloutPolicy {} deleted during the audit", name);
              } else if (KubeApiException.isConflict(err)) {
                LOG.info("RolloutPolicy {} changed during the audit; auditing again", name);
                trigger();
              } else {
                LOG.warn("cannot write the status of RolloutPolicy {}: {}", name, err.getMessage());
              }
              return Future.succeededFuture();
            });
  }
}
