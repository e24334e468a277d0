package io.rollgate.e2e.analysis;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.rollgate.api.AnalysisRun;
import io.rollgate.api.Annotations;
import io.rollgate.api.Labels;
import io.rollgate.api.MetricResult;
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
 * Test helpers for AnalysisRuns and the Jobs of the Job provider, in one namespace.
 *
 * <p>Job outcomes are made portable across clusters: a Job whose pod can run completes (kwok
 * completes Job pods at once; a real cluster runs the busybox command); a Job whose pod is pinned
 * to a node that does not exist stays Running until the test sets its pod's status (Succeeded,
 * Failed, or waiting on an image pull error), or until its {@code activeDeadlineSeconds} fail it.
 */
final class AnalysisRuns {

  /** Node selector no node matches: the pod stays Pending, and the test decides its fate. */
  static final String NOWHERE = "{rollgate.io/e2e-node: nowhere}";

  private final KubernetesClient client;
  private final String namespace;

  AnalysisRuns(KubernetesClient client, String namespace) {
    this.client = client;
    this.namespace = namespace;
  }

  /** Creates a run from YAML ({@code metadata.namespace} is set here). */
  AnalysisRun create(String yaml) {
    AnalysisRun run = client.getKubernetesSerialization().unmarshal(yaml, AnalysisRun.class);
    run.getMetadata().setNamespace(namespace);
    return client.resources(AnalysisRun.class).inNamespace(namespace).resource(run).create();
  }

  AnalysisRun get(String name) {
    return client.resources(AnalysisRun.class).inNamespace(namespace).withName(name).get();
  }

  void mergePatch(String name, String patch) {
    client
        .resources(AnalysisRun.class)
        .inNamespace(namespace)
        .withName(name)
        .patch(PatchContext.of(PatchType.JSON_MERGE), patch);
  }

  /**
   * {@code kubectl patch ar NAME --type merge -p '{"spec":{"terminate":true}}'}, as a Rollout does
   * it.
   */
  void terminate(String name) {
    mergePatch(name, "{\"spec\":{\"terminate\":true}}");
  }

  AnalysisRun await(String name, String what, Duration timeout, Predicate<AnalysisRun> condition) {
    AnalysisRun[] last = new AnalysisRun[1];
    RuntimeException[] error = new RuntimeException[1];
    try {
      Awaitility.await(what)
          .atMost(timeout)
          .pollInterval(Duration.ofMillis(250))
          .until(
              () -> {
                try {
                  last[0] = get(name);
                  return last[0] != null && condition.test(last[0]);
                } catch (RuntimeException e) {
                  error[0] = e;
                  return false;
                }
              });
    } catch (ConditionTimeoutException e) {
      AssertionError failure =
          new AssertionError(
              "timed out waiting for " + what + "; last status: " + statusJson(last[0]), e);
      if (error[0] != null) {
        failure.addSuppressed(error[0]);
      }
      throw failure;
    }
    return last[0];
  }

  AnalysisRun awaitPhase(String name, String phase, Duration timeout) {
    return await(
        name,
        name + " " + phase,
        timeout,
        r -> r.getStatus() != null && phase.equals(r.getStatus().getPhase()));
  }

  /** Polls for a whole period and fails at the first poll where the predicate does not hold. */
  void holdsFor(String name, String what, Duration period, Predicate<AnalysisRun> condition) {
    AnalysisRun[] broken = new AnalysisRun[1];
    try {
      Awaitility.await(what)
          .during(period)
          .atMost(period.plusSeconds(5))
          .pollInterval(Duration.ofMillis(250))
          .until(
              () -> {
                AnalysisRun r = get(name);
                boolean ok = condition.test(r);
                if (!ok && broken[0] == null) {
                  broken[0] = r == null ? new AnalysisRun() : r;
                }
                return ok;
              });
    } catch (ConditionTimeoutException e) {
      // reported below
    }
    if (broken[0] != null) {
      throw new AssertionError(what + " stopped holding; status: " + statusJson(broken[0]));
    }
  }

  String statusJson(AnalysisRun run) {
    return client.getKubernetesSerialization().asJson(run == null ? null : run.getStatus());
  }

  static MetricResult result(AnalysisRun run, String metric) {
    if (run.getStatus() == null || run.getStatus().getMetricResults() == null) {
      return null;
    }
    return run.getStatus().getMetricResults().stream()
        .filter(r -> metric.equals(r.getName()))
        .findFirst()
        .orElse(null);
  }

  static int n(Integer i) {
    return i == null ? 0 : i;
  }

  /**
   * The Jobs created for a run's metric (by the uid label and the metric-name annotation), oldest
   * first.
   */
  List<Job> jobs(AnalysisRun run, String metric) {
    return client
        .batch()
        .v1()
        .jobs()
        .inNamespace(namespace)
        .withLabel(Labels.ANALYSIS_RUN_UID, run.getMetadata().getUid())
        .list()
        .getItems()
        .stream()
        .filter(
            j ->
                j.getMetadata().getAnnotations() != null
                    && metric.equals(
                        j.getMetadata().getAnnotations().get(Annotations.ANALYSIS_RUN_METRIC_NAME)))
        .sorted(Comparator.comparing((Job j) -> j.getMetadata().getName()))
        .collect(Collectors.toList());
  }

  /** Waits for the pod of a Job and returns it. */
  Pod awaitPod(String jobName) {
    Pod[] pod = new Pod[1];
    Awaitility.await("pod of job " + jobName)
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(250))
        .ignoreExceptions()
        .until(
            () -> {
              List<Pod> pods =
                  client
                      .pods()
                      .inNamespace(namespace)
                      .withLabel("job-name", jobName)
                      .list()
                      .getItems();
              pod[0] = pods.isEmpty() ? null : pods.get(0);
              return pod[0] != null;
            });
    return pod[0];
  }

  /** Marks a Job's pod Succeeded, as a kubelet would after the container exited 0. */
  void succeedPod(String jobName) {
    finishPod(jobName, "Succeeded", 0);
  }

  /** Marks a Job's pod Failed, as a kubelet would after the container exited 1. */
  void failPod(String jobName) {
    finishPod(jobName, "Failed", 1);
  }

  private void finishPod(String jobName, String phase, int exitCode) {
    Pod pod = awaitPod(jobName);
    String container = pod.getSpec().getContainers().get(0).getName();
    String image = pod.getSpec().getContainers().get(0).getImage();
    patchPodStatus(
        pod.getMetadata().getName(),
        "{\"status\":{\"phase\":\""
            + phase
            + "\",\"containerStatuses\":[{\"name\":\""
            + container
            + "\",\"image\":\""
            + image
            + "\",\"imageID\":\"\",\"ready\":false,\"restartCount\":0,\"state\":{\"terminated\":{\"exitCode\":"
            + exitCode
            + ",\"reason\":\""
            + (exitCode == 0 ? "Completed" : "Error")
            + "\"}}}]}}");
  }

  /** Puts a Job's pod's container in an image pull error, as a kubelet would. */
  void imagePullError(String jobName, String reason) {
    Pod pod = awaitPod(jobName);
    String container = pod.getSpec().getContainers().get(0).getName();
    String image = pod.getSpec().getContainers().get(0).getImage();
    patchPodStatus(
        pod.getMetadata().getName(),
        "{\"status\":{\"phase\":\"Pending\",\"containerStatuses\":[{\"name\":\""
            + container
            + "\",\"image\":\""
            + image
            + "\",\"imageID\":\"\",\"ready\":false,\"restartCount\":0,\"state\":{\"waiting\":{\"reason\":\""
            + reason
            + "\",\"message\":\"pull access denied for "
            + image
            + "\"}}}]}}");
  }

  private void patchPodStatus(String pod, String patch) {
    client
        .pods()
        .inNamespace(namespace)
        .withName(pod)
        .subresource("status")
        .patch(PatchContext.of(PatchType.JSON_MERGE), patch);
  }

  /** Events recorded on the run, oldest first. */
  List<Event> events(String name) {
    List<Event> out = new ArrayList<>();
    for (Event e : client.v1().events().inNamespace(namespace).list().getItems()) {
      if (e.getInvolvedObject() != null
          && "AnalysisRun".equals(e.getInvolvedObject().getKind())
          && name.equals(e.getInvolvedObject().getName())) {
        out.add(e);
      }
    }
    out.sort(
        Comparator.comparing((Event e) -> String.valueOf(e.getFirstTimestamp()))
            .thenComparing(e -> e.getMetadata().getCreationTimestamp()));
    return out;
  }

  /** {@code reason: message} of the run's events, oldest first. */
  List<String> eventTexts(String name) {
    return events(name).stream()
        .map(e -> e.getType() + " " + e.getReason() + ": " + e.getMessage())
        .collect(Collectors.toList());
  }

  /** How a Job metric's Jobs end. */
  enum JobOutcome {
    /** The pod runs and exits 0 (kwok completes Job pods at once). */
    COMPLETES,
    /** The pod never runs and the Job fails after {@code activeDeadlineSeconds: 1}. */
    FAILS,
    /** The pod never runs until the test sets its status. */
    BLOCKED
  }

  /**
   * A Job metric as a YAML list item.
   *
   * @param name the metric name
   * @param fields further metric fields, one per line (for example {@code count: 2})
   * @param outcome how its Jobs end
   */
  static String jobMetric(String name, String fields, JobOutcome outcome) {
    StringBuilder y = new StringBuilder("- name: " + name + "\n");
    for (String line : fields.split("\n")) {
      if (!line.isBlank()) {
        y.append("  ").append(line).append("\n");
      }
    }
    y.append("  provider:\n")
        .append("    job:\n")
        .append("      metadata: {labels: {team: qa}, annotations: {purpose: e2e}}\n")
        .append("      spec:\n")
        .append("        backoffLimit: 0\n");
    if (outcome == JobOutcome.FAILS) {
      y.append("        activeDeadlineSeconds: 1\n");
    }
    y.append("        template:\n")
        .append("          spec:\n")
        .append("            restartPolicy: Never\n");
    if (outcome != JobOutcome.COMPLETES) {
      y.append("            nodeSelector: " + NOWHERE + "\n");
    }
    y.append("            containers:\n")
        .append("            - {name: check, image: busybox:1.36, command: [sh, -c, 'exit 0']}\n");
    return y.toString();
  }

  /**
   * An AnalysisRun manifest.
   *
   * @param name the run name
   * @param specFields further spec fields, one per line at spec level (for example {@code
   *     ttlStrategy: {...}})
   * @param metrics metric list items from {@link #jobMetric}
   */
  static String run(String name, String specFields, String... metrics) {
    StringBuilder y =
        new StringBuilder(
                "apiVersion: argoproj.io/v1alpha1\nkind: AnalysisRun\nmetadata:\n  name: ")
            .append(name)
            .append("\nspec:\n");
    for (String line : specFields.split("\n")) {
      if (!line.isBlank()) {
        y.append("  ").append(line).append("\n");
      }
    }
    y.append("  metrics:\n");
    for (String metric : metrics) {
      for (String line : metric.split("\n")) {
        y.append("  ").append(line).append("\n");
      }
    }
    return y.toString();
  }

  static Map<String, String> annotations(Job job) {
    return job.getMetadata().getAnnotations();
  }
}
