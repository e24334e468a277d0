package io.rollgate.e2e.analysis;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.rollgate.api.AnalysisRun;
import io.rollgate.api.AnalysisTemplate;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;

/**
 * Analysis helpers for the e2e tests: AnalysisTemplates backed by the Job provider (a Job that
 * completes, one whose pod can never be scheduled and that gives up after a second, and one that
 * stays pending), the AnalysisRuns a Rollout owns, and the one thing a fake node cannot produce by
 * itself: an image pull error on a pending pod (written to the pod status, which makes the Job
 * measurement Inconclusive on any cluster).
 */
final class AnalysisFixtures {

  private final KubernetesClient client;
  private final String namespace;

  AnalysisFixtures(KubernetesClient client, String namespace) {
    this.client = client;
    this.namespace = namespace;
  }

  /**
   * Creates the AnalysisTemplates {@code pass}, {@code fail} and {@code pending} in the namespace.
   */
  void createTemplates() {
    for (String t : List.of("pass", "fail", "pending")) {
      AnalysisTemplate template =
          client
              .getKubernetesSerialization()
              .unmarshal(read("analysis/template-" + t + ".yaml"), AnalysisTemplate.class);
      client.resources(AnalysisTemplate.class).inNamespace(namespace).resource(template).create();
    }
  }

  /**
   * Creates objects (Services) from a YAML resource after replacing {@code ${KEY}} placeholders.
   */
  void apply(String resource, Map<String, String> vars) {
    String yaml = read(resource);
    for (Map.Entry<String, String> e : vars.entrySet()) {
      yaml = yaml.replace("${" + e.getKey() + "}", e.getValue());
    }
    for (HasMetadata item :
        client
            .load(new java.io.ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8)))
            .items()) {
      client.resource(item).inNamespace(namespace).create();
    }
  }

  /** The AnalysisRuns whose controller owner is the Rollout, oldest first. */
  List<AnalysisRun> runs(String rollout) {
    return client.resources(AnalysisRun.class).inNamespace(namespace).list().getItems().stream()
        .filter(
            r ->
                r.getMetadata().getOwnerReferences() != null
                    && r.getMetadata().getOwnerReferences().stream()
                        .anyMatch(
                            o ->
                                Boolean.TRUE.equals(o.getController())
                                    && rollout.equals(o.getName())))
        .sorted(
            Comparator.comparing((AnalysisRun r) -> r.getMetadata().getCreationTimestamp())
                .thenComparing(r -> r.getMetadata().getName()))
        .collect(Collectors.toList());
  }

  AnalysisRun run(String name) {
    return client.resources(AnalysisRun.class).inNamespace(namespace).withName(name).get();
  }

  static String phase(AnalysisRun run) {
    return run == null || run.getStatus() == null ? null : run.getStatus().getPhase();
  }

  /** Waits until the run exists and satisfies the predicate. */
  AnalysisRun awaitRun(
      String name, String what, Duration timeout, Predicate<AnalysisRun> condition) {
    AnalysisRun[] last = new AnalysisRun[1];
    Awaitility.await(what + " (run " + name + ")")
        .atMost(timeout)
        .pollInterval(Duration.ofMillis(250))
        .ignoreExceptions()
        .until(
            () -> {
              last[0] = run(name);
              return last[0] != null && condition.test(last[0]);
            });
    return last[0];
  }

  /**
   * Waits for the pending pod of the run's Job and reports an image pull error in its status, as a
   * kubelet would.
   *
   * @param run the run name
   */
  void failImagePull(String run, Duration timeout) {
    Pod[] pod = new Pod[1];
    Awaitility.await("pod of the Job of run " + run)
        .atMost(timeout)
        .pollInterval(Duration.ofMillis(250))
        .ignoreExceptions()
        .until(
            () -> {
              AnalysisRun r = run(run);
              for (Job j :
                  client
                      .batch()
                      .v1()
                      .jobs()
                      .inNamespace(namespace)
                      .withLabel("analysisrun.argoproj.io/uid", r.getMetadata().getUid())
                      .list()
                      .getItems()) {
                List<Pod> pods =
                    client
                        .pods()
                        .inNamespace(namespace)
                        .withLabels(j.getSpec().getSelector().getMatchLabels())
                        .list()
                        .getItems();
                if (!pods.isEmpty()) {
                  pod[0] = pods.get(0);
                  return true;
                }
              }
              return false;
            });
    String patch =
        "{\"status\":{\"containerStatuses\":[{\"name\":\"check\",\"image\":\"busybox:1.36\",\"imageID\":\"\",\"ready\":false,"
            + "\"restartCount\":0,\"state\":{\"waiting\":{\"reason\":\"ErrImagePull\",\"message\":\"pull access denied\"}}}]}}";
    client
        .pods()
        .inNamespace(namespace)
        .withName(pod[0].getMetadata().getName())
        .subresource("status")
        .patch(PatchContext.of(PatchType.JSON_MERGE), patch);
  }

  private static String read(String resource) {
    try (InputStream in = AnalysisFixtures.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalArgumentException("no resource " + resource);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
