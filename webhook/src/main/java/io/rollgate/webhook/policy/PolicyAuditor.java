package io.rollgate.webhook.policy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.rollgate.api.ModelJson;
import io.rollgate.api.Rollout;
import io.rollgate.api.policy.PolicyViolation;
import io.rollgate.api.policy.RolloutPolicy;
import io.rollgate.api.policy.RolloutPolicyStatus;
import io.rollgate.policy.PolicyEvaluator;
import io.rollgate.validation.FieldError;
import io.rollgate.webhook.ClusterView;
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
 * Audits existing Rollouts against every RolloutPolicy and writes what it finds into each policy's status
 * ({@code totalViolations}, the first {@link RolloutPolicyStatus#MAX_LISTED} violating Rollouts with their messages,
 * {@code observedGeneration}, {@code lastAuditTime}). Runs on the leader only: every {@code interval}, and shortly
 * after a policy's spec or a namespace's labels change. Every enforcement action is audited, so the status shows how
 * many Rollouts a {@code warn} or {@code deny} policy would catch too (objects admitted before the policy existed).
 *
 * <p>The Rollouts are listed in pages ({@code --audit-page-size}, API {@code limit}/{@code continue}). The list and the status writes are
 * API calls, run on a worker ({@code executeBlocking}); status is
 * written as a merge patch on the {@code status} subresource, so a concurrent spec edit is never overwritten.
 */
public final class PolicyAuditor {

  private static final Logger LOG = LoggerFactory.getLogger(PolicyAuditor.class);
  private static final long DEBOUNCE_MILLIS = 500;

  private final Vertx vertx;
  private final KubernetesClient client;
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
   * @param client the Kubernetes client
   * @param cluster the policies and namespace labels
   * @param clock the time source for {@code lastAuditTime}
   * @param interval the period between audits
   * @param pageSize Rollouts per list request (API {@code limit}), at least 1
   * @param leader whether this replica may audit (holds the Lease)
   */
  public PolicyAuditor(
      Vertx vertx,
      KubernetesClient client,
      ClusterView cluster,
      Clock clock,
      Duration interval,
      long pageSize,
      BooleanSupplier leader) {
    this.pageSize = pageSize;
    this.vertx = vertx;
    this.client = client;
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
                LOG.warn("policy audit failed, retrying in {}s: {}", interval.toSeconds(), ar.cause().toString());
              }
              if (again) {
                again = false;
                run();
              }
            });
  }

  /**
   * Audits every policy once and writes the statuses.
   *
   * @return a Future completed when every status is written; failed with the client's exception when the Rollouts
   *     cannot be listed (a failed status write is logged and retried on the next audit)
   */
  public Future<Void> audit() {
    List<RolloutPolicy> policies = cluster.policies();
    if (policies.isEmpty()) {
      return Future.succeededFuture();
    }
    return vertx.executeBlocking(
        () -> {
          // Page through the Rollouts so that only one page and the violations found are in memory at a time.
          List<List<PolicyViolation>> found = new ArrayList<>();
          policies.forEach(p -> found.add(new ArrayList<>()));
          String next = null;
          do {
            KubernetesResourceList<Rollout> page =
                client
                    .resources(Rollout.class)
                    .inAnyNamespace()
                    .list(new ListOptionsBuilder().withLimit(pageSize).withContinue(next).build());
            for (Rollout r : page.getItems()) {
              for (int i = 0; i < policies.size(); i++) {
                violation(policies.get(i), r).ifPresent(found.get(i)::add);
              }
            }
            next = page.getMetadata() == null ? null : page.getMetadata().getContinue();
          } while (next != null && !next.isEmpty());
          String now = Instant.now(clock).truncatedTo(ChronoUnit.SECONDS).toString();
          for (int i = 0; i < policies.size(); i++) {
            write(policies.get(i), status(policies.get(i), found.get(i), now));
          }
          return null;
        },
        false);
  }

  private Optional<PolicyViolation> violation(RolloutPolicy policy, Rollout r) {
    Optional<Map<String, String>> nsLabels = cluster.namespaceLabels(r.getMetadata().getNamespace());
    if (nsLabels.isEmpty() || !PolicyEvaluator.selects(policy, nsLabels.get(), r.getMetadata().getLabels())) {
      return Optional.empty();
    }
    List<FieldError> v = PolicyEvaluator.violations(policy, r);
    return v.isEmpty()
        ? Optional.empty()
        : Optional.of(
            new PolicyViolation(
                r.getMetadata().getNamespace(), r.getMetadata().getName(), v.stream().map(FieldError::toString).toList()));
  }

  private static RolloutPolicyStatus status(RolloutPolicy policy, List<PolicyViolation> found, String now) {
    found.sort(Comparator.comparing(PolicyViolation::getNamespace).thenComparing(PolicyViolation::getName));
    RolloutPolicyStatus status = new RolloutPolicyStatus();
    status.setObservedGeneration(policy.getMetadata().getGeneration());
    status.setLastAuditTime(now);
    status.setTotalViolations(found.size());
    status.setViolations(List.copyOf(found.subList(0, Math.min(found.size(), RolloutPolicyStatus.MAX_LISTED))));
    return status;
  }

  private void write(RolloutPolicy policy, RolloutPolicyStatus status) {
    String name = policy.getMetadata().getName();
    ObjectNode patch = ModelJson.mapper().createObjectNode();
    patch.set("status", ModelJson.mapper().valueToTree(status));
    try {
      client
          .resources(RolloutPolicy.class)
          .withName(name)
          .subresource("status")
          .patch(PatchContext.of(PatchType.JSON_MERGE), patch.toString());
      LOG.info("audited RolloutPolicy {}: {} violating Rollouts", name, status.getTotalViolations());
    } catch (KubernetesClientException e) {
      if (e.getCode() == 404) {
        LOG.debug("RolloutPolicy {} deleted during the audit", name);
      } else {
        LOG.warn("cannot write the status of RolloutPolicy {}: {}", name, e.getMessage());
      }
    }
  }
}
