package io.rollgate.e2e.support;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.rollgate.api.Labels;
import io.rollgate.api.Rollout;
import io.rollgate.api.RolloutStatus;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * What a user does to Rollouts, with the exact patches the {@code kubectl argo rollouts} plugin
 * sends, and what a user looks at (status, ReplicaSets).
 */
public final class Rollouts {

  private final KubernetesClient client;
  private final String namespace;

  /**
   * Creates the helper for one namespace.
   *
   * @param client the client
   * @param namespace the namespace
   */
  public Rollouts(KubernetesClient client, String namespace) {
    this.client = client;
    this.namespace = namespace;
  }

  /**
   * Creates a Rollout from a YAML resource, after replacing {@code ${KEY}} placeholders.
   *
   * @param resource the classpath resource
   * @param vars placeholder values
   * @return the created Rollout
   */
  public Rollout create(String resource, Map<String, String> vars) {
    String yaml = read(resource);
    for (Map.Entry<String, String> e : vars.entrySet()) {
      yaml = yaml.replace("${" + e.getKey() + "}", e.getValue());
    }
    Rollout r = client.getKubernetesSerialization().unmarshal(yaml, Rollout.class);
    return client.resources(Rollout.class).inNamespace(namespace).resource(r).create();
  }

  /** Reads the Rollout from the API server. */
  public Rollout get(String name) {
    return client.resources(Rollout.class).inNamespace(namespace).withName(name).get();
  }

  /** The Rollout's status (never null). */
  public RolloutStatus status(String name) {
    Rollout r = get(name);
    return r == null || r.getStatus() == null ? new RolloutStatus() : r.getStatus();
  }

  /** {@code kubectl argo rollouts set image}: changes the image of the first container. */
  public void setImage(String name, String image) {
    patch(
        name,
        "[{\"op\":\"replace\",\"path\":\"/spec/template/spec/containers/0/image\",\"value\":\""
            + image
            + "\"}]",
        PatchType.JSON,
        null);
  }

  /** {@code kubectl argo rollouts promote} (no flags), as the plugin builds it. */
  public void promote(String name) {
    Rollout r = get(name);
    RolloutStatus s = r.getStatus() == null ? new RolloutStatus() : r.getStatus();
    boolean hasPauses = s.getPauseConditions() != null && !s.getPauseConditions().isEmpty();
    int steps =
        r.getSpec().getStrategy().getCanary() == null
                || r.getSpec().getStrategy().getCanary().getSteps() == null
            ? 0
            : r.getSpec().getStrategy().getCanary().getSteps().size();
    boolean inconclusiveStep =
        s.getCanary() != null
            && s.getCanary().getCurrentStepAnalysisRunStatus() != null
            && "Inconclusive".equals(s.getCanary().getCurrentStepAnalysisRunStatus().getStatus());
    if (inconclusiveStep && hasPauses && Boolean.TRUE.equals(s.getControllerPause())) {
      int idx = s.getCurrentStepIndex() == null ? 0 : s.getCurrentStepIndex();
      statusPatch(
          name,
          "{\"status\":{\"pauseConditions\":null,\"controllerPause\":false,\"currentStepIndex\":"
              + Math.min(idx + 1, steps)
              + "}}");
    } else if (hasPauses) {
      statusPatch(name, "{\"status\":{\"pauseConditions\":null}}");
    } else if (r.getSpec().getStrategy().getCanary() != null) {
      int idx = s.getCurrentStepIndex() == null ? 0 : s.getCurrentStepIndex();
      statusPatch(
          name,
          "{\"status\":{\"pauseConditions\":null,\"currentStepIndex\":"
              + Math.min(idx + 1, steps)
              + "}}");
    }
    if (Boolean.TRUE.equals(r.getSpec().getPaused())) {
      patch(name, "{\"spec\":{\"paused\":false}}", PatchType.JSON_MERGE, null);
    }
  }

  /** {@code kubectl argo rollouts promote --full}. */
  public void promoteFull(String name) {
    Rollout r = get(name);
    RolloutStatus s = r.getStatus() == null ? new RolloutStatus() : r.getStatus();
    if (s.getCurrentPodHash() == null || !s.getCurrentPodHash().equals(s.getStableRS())) {
      statusPatch(name, "{\"status\":{\"promoteFull\":true}}");
    }
    if (Boolean.TRUE.equals(r.getSpec().getPaused())) {
      patch(name, "{\"spec\":{\"paused\":false}}", PatchType.JSON_MERGE, null);
    }
  }

  /** {@code kubectl argo rollouts abort}. */
  public void abort(String name) {
    statusPatch(name, "{\"status\":{\"abort\":true}}");
  }

  /** {@code kubectl argo rollouts retry rollout}. */
  public void retry(String name) {
    statusPatch(name, "{\"status\":{\"abort\":false}}");
  }

  /** {@code kubectl argo rollouts pause}. */
  public void pause(String name) {
    patch(name, "{\"spec\":{\"paused\":true}}", PatchType.JSON_MERGE, null);
  }

  /** Applies a JSON merge patch to the main resource. */
  public void mergePatch(String name, String patch) {
    patch(name, patch, PatchType.JSON_MERGE, null);
  }

  /**
   * Applies a JSON patch (RFC 6902) to the main resource, for example to change several template
   * fields at once.
   */
  public void jsonPatch(String name, String patch) {
    patch(name, patch, PatchType.JSON, null);
  }

  private void statusPatch(String name, String patch) {
    patch(name, patch, PatchType.JSON_MERGE, "status");
  }

  private void patch(String name, String patch, PatchType type, String subresource) {
    var op = client.resources(Rollout.class).inNamespace(namespace).withName(name);
    if (subresource == null) {
      op.patch(PatchContext.of(type), patch);
    } else {
      op.subresource(subresource).patch(PatchContext.of(type), patch);
    }
  }

  /**
   * {@code kubectl scale rollout NAME --replicas=N}: writes {@code spec.replicas} through the
   * Rollout's scale subresource, as kubectl and the HorizontalPodAutoscaler do.
   *
   * @param name the Rollout
   * @param replicas the new replica count
   */
  public void scale(String name, int replicas) {
    client
        .resources(Rollout.class)
        .inNamespace(namespace)
        .withName(name)
        .subresource("scale")
        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"replicas\":" + replicas + "}}");
  }

  /**
   * {@code kubectl argo rollouts undo NAME [--to-revision N]} (docs/compatibility.md §8.7):
   * replaces {@code /spec/template} with the template of the ReplicaSet of revision N (0: the
   * second-highest revision), minus the {@code rollouts-pod-template-hash} label. Does nothing when
   * that template is already the current one.
   *
   * @param name the Rollout
   * @param toRevision the revision to return to, or 0 for the previous one
   * @return true when the Rollout was patched, false for the no-op case
   */
  public boolean undo(String name, long toRevision) {
    Rollout r = get(name);
    List<ReplicaSet> rss = replicaSets(name);
    ReplicaSet target;
    if (toRevision == 0) {
      List<ReplicaSet> byRevision = new ArrayList<>(rss);
      byRevision.sort(Comparator.comparingLong(Rollouts::revision).reversed());
      if (byRevision.size() < 2) {
        throw new IllegalStateException("no rollout history found for " + name);
      }
      target = byRevision.get(1);
    } else {
      target =
          rss.stream()
              .filter(rs -> revision(rs) == toRevision)
              .findFirst()
              .orElseThrow(
                  () ->
                      new IllegalStateException(
                          "unable to find specified revision " + toRevision + " in history"));
    }
    var serialization = client.getKubernetesSerialization();
    io.fabric8.kubernetes.api.model.PodTemplateSpec template =
        serialization.clone(target.getSpec().getTemplate());
    if (template.getMetadata() != null && template.getMetadata().getLabels() != null) {
      var labels = new java.util.LinkedHashMap<>(template.getMetadata().getLabels());
      labels.remove(Labels.POD_TEMPLATE_HASH);
      template.getMetadata().setLabels(labels);
    }
    if (serialization.asJson(template).equals(serialization.asJson(r.getSpec().getTemplate()))) {
      return false;
    }
    jsonPatch(
        name,
        "[{\"op\":\"replace\",\"path\":\"/spec/template\",\"value\":"
            + serialization.asJson(template)
            + "}]");
    return true;
  }

  /** The Rollout's ReplicaSets (controller owner = the Rollout), oldest revision first. */
  public List<ReplicaSet> replicaSets(String name) {
    Rollout r = get(name);
    return client.apps().replicaSets().inNamespace(namespace).list().getItems().stream()
        .filter(
            rs ->
                rs.getMetadata().getOwnerReferences() != null
                    && rs.getMetadata().getOwnerReferences().stream()
                        .anyMatch(
                            o ->
                                Boolean.TRUE.equals(o.getController())
                                    && o.getUid().equals(r.getMetadata().getUid())))
        .sorted(Comparator.comparingLong(Rollouts::revision))
        .collect(Collectors.toList());
  }

  /** The ReplicaSet of a pod-template hash, or null. */
  public ReplicaSet replicaSet(String name, String hash) {
    return replicaSets(name).stream()
        .filter(
            rs ->
                hash != null
                    && hash.equals(rs.getMetadata().getLabels().get(Labels.POD_TEMPLATE_HASH)))
        .findFirst()
        .orElse(null);
  }

  /** {@code spec.replicas} of the ReplicaSet with this hash (0 when absent). */
  public int specReplicas(String name, String hash) {
    ReplicaSet rs = replicaSet(name, hash);
    return rs == null || rs.getSpec().getReplicas() == null ? 0 : rs.getSpec().getReplicas();
  }

  /** {@code status.availableReplicas} of the ReplicaSet with this hash (0 when absent). */
  public int availableReplicas(String name, String hash) {
    ReplicaSet rs = replicaSet(name, hash);
    return rs == null || rs.getStatus() == null || rs.getStatus().getAvailableReplicas() == null
        ? 0
        : rs.getStatus().getAvailableReplicas();
  }

  /**
   * Waits until the Rollout satisfies a predicate, polling; fails with the last status seen.
   *
   * @param name the Rollout
   * @param what a description for the failure message
   * @param timeout the bound
   * @param condition the predicate on the Rollout
   * @return the Rollout that satisfied it
   */
  public Rollout await(String name, String what, Duration timeout, Predicate<Rollout> condition) {
    Rollout[] last = new Rollout[1];
    try {
      Awaitility.await(what)
          .atMost(timeout)
          .pollInterval(Duration.ofMillis(250))
          .ignoreExceptions()
          .until(
              () -> {
                last[0] = get(name);
                return last[0] != null && condition.test(last[0]);
              });
    } catch (ConditionTimeoutException e) {
      throw new AssertionError(
          "timed out waiting for "
              + what
              + "; last status: "
              + client
                  .getKubernetesSerialization()
                  .asJson(last[0] == null ? null : last[0].getStatus())
              + "; replicaSets: "
              + describeReplicaSets(name),
          e);
    }
    return last[0];
  }

  /**
   * Polls for a whole period and fails at the first poll where the Rollout no longer satisfies the
   * predicate: the bounded way to assert that something does <em>not</em> happen.
   *
   * @param name the Rollout
   * @param what a description for the failure message
   * @param period how long the predicate must keep holding
   * @param condition the predicate on the Rollout (a missing Rollout is passed as null)
   * @return the Rollout read at the last poll
   */
  public Rollout holdsFor(String name, String what, Duration period, Predicate<Rollout> condition) {
    Rollout[] last = new Rollout[1];
    Rollout[] broken = new Rollout[1];
    try {
      Awaitility.await(what)
          .during(period)
          .atMost(period.plusSeconds(5))
          .pollInterval(Duration.ofMillis(250))
          .until(
              () -> {
                last[0] = get(name);
                boolean ok = condition.test(last[0]);
                if (!ok && broken[0] == null) {
                  broken[0] = last[0] == null ? new Rollout() : last[0];
                }
                return ok;
              });
    } catch (ConditionTimeoutException e) {
      // reported below with the first Rollout that broke the condition
    }
    if (broken[0] != null) {
      throw new AssertionError(
          what
              + " stopped holding; status: "
              + client.getKubernetesSerialization().asJson(broken[0].getStatus())
              + "; replicaSets now: "
              + describeReplicaSets(name));
    }
    return last[0];
  }

  /**
   * The core/v1 Events recorded on the Rollout ({@code involvedObject} = this Rollout, by kind,
   * name and uid), oldest first.
   *
   * @param name the Rollout
   * @return the events (empty when there are none)
   */
  public List<Event> events(String name) {
    Rollout r = get(name);
    List<Event> out = new ArrayList<>();
    for (Event e : client.v1().events().inNamespace(namespace).list().getItems()) {
      var o = e.getInvolvedObject();
      if (o != null
          && "Rollout".equals(o.getKind())
          && name.equals(o.getName())
          && (r == null || o.getUid() == null || o.getUid().equals(r.getMetadata().getUid()))) {
        out.add(e);
      }
    }
    out.sort(
        Comparator.comparing((Event e) -> String.valueOf(e.getFirstTimestamp()))
            .thenComparing(e -> e.getMetadata().getCreationTimestamp()));
    return out;
  }

  /**
   * The messages of the Rollout's events with this reason, oldest first.
   *
   * @param name the Rollout
   * @param reason the event reason, for example {@code RolloutStepCompleted}
   * @return the messages
   */
  public List<String> eventMessages(String name, String reason) {
    return events(name).stream()
        .filter(e -> reason.equals(e.getReason()))
        .map(Event::getMessage)
        .collect(Collectors.toList());
  }

  /** A one-line description of the Rollout's ReplicaSets: {@code hash spec/available}. */
  public String describeReplicaSets(String name) {
    try {
      return replicaSets(name).stream()
          .map(
              rs ->
                  rs.getMetadata().getLabels().get(Labels.POD_TEMPLATE_HASH)
                      + " rev="
                      + revision(rs)
                      + " "
                      + rs.getSpec().getReplicas()
                      + "/"
                      + (rs.getStatus() == null ? null : rs.getStatus().getAvailableReplicas()))
          .collect(Collectors.joining(", "));
    } catch (RuntimeException e) {
      return "<" + e.getMessage() + ">";
    }
  }

  static long revision(ReplicaSet rs) {
    var a = rs.getMetadata().getAnnotations();
    return a == null ? 0 : Long.parseLong(a.getOrDefault("rollout.argoproj.io/revision", "0"));
  }

  private static String read(String resource) {
    try (InputStream in = Rollouts.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalArgumentException("no resource " + resource);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
