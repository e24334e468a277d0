package io.rollgate.controller.analysis.provider;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.api.model.batch.v1.JobSpec;
import io.rollgate.api.AnalysisPhase;
import io.rollgate.api.AnalysisRun;
import io.rollgate.api.Annotations;
import io.rollgate.api.JobMetric;
import io.rollgate.api.Labels;
import io.rollgate.api.Measurement;
import io.rollgate.api.MetricResult;
import io.rollgate.api.ModelJson;
import io.rollgate.controller.analysis.model.Results;
import io.rollgate.controller.analysis.model.Times;
import io.rollgate.controller.kube.KubeApi;
import io.rollgate.kube.KubeApiException;
import io.vertx.core.Future;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The Job metric provider ({@code provider.job}, docs/compatibility.md §9.7): each measurement is a
 * Kubernetes Job; it is Successful when the Job completes and Failed when it fails.
 *
 * <ul>
 *   <li>Run: creates Job {@code <run UID>.<metric name>.<n>} ({@code n} = the metric's count +
 *       error + 1; the metric name is truncated so the name fits 63 characters) in the run's
 *       namespace (or {@code ARGO_ROLLOUTS_ANALYSIS_JOB_NAMESPACE}), with label {@code
 *       analysisrun.argoproj.io/uid} on the Job and its pod template, annotations {@code
 *       analysisrun.argoproj.io/name|namespace|metric-name}, and a controller owner reference to
 *       the run when it is in the same namespace. The measurement becomes Running with metadata
 *       {@code job-name} and {@code job-namespace} and {@code resumeAt = now}. The name is
 *       deterministic, so when a Job of that name already exists for the same run (the controller
 *       stopped before it recorded the measurement), it is adopted instead of created twice.
 *   <li>Resume: Job condition Complete ⇒ Successful, Failed ⇒ Failed; a pod container waiting with
 *       {@code ErrImagePull}, {@code ImagePullBackOff} or {@code InvalidImageName} ⇒ Inconclusive;
 *       otherwise still Running, checked again at {@code now + sqrt(2 × seconds since the
 *       measurement started)}.
 *   <li>Terminate: deletes the Job (foreground propagation) and answers Inconclusive ({@code Metric
 *       Terminated}).
 *   <li>Garbage collection: deletes all but the newest {@code limit} Jobs of the metric.
 * </ul>
 */
public final class JobMetricProvider implements MetricProvider {

  /** Measurement metadata key: name of the Job. */
  public static final String JOB_NAME_KEY = "job-name";

  /** Measurement metadata key: namespace of the Job. */
  public static final String JOB_NAMESPACE_KEY = "job-namespace";

  /** Environment variable naming a namespace for every analysis Job (Argo's). */
  public static final String JOB_NAMESPACE_ENV = "ARGO_ROLLOUTS_ANALYSIS_JOB_NAMESPACE";

  private static final Set<String> IMAGE_PULL_ERRORS =
      Set.of("ErrImagePull", "ImagePullBackOff", "InvalidImageName");
  private static final int MAX_NAME_LENGTH = 63;

  private final KubeApi api;
  private final String jobNamespace;

  /**
   * Creates the provider; Jobs go to the namespace named by {@code
   * ARGO_ROLLOUTS_ANALYSIS_JOB_NAMESPACE} when set, else to the run's namespace.
   *
   * @param api the API facade
   */
  public JobMetricProvider(KubeApi api) {
    this(api, System.getenv(JOB_NAMESPACE_ENV));
  }

  /**
   * Creates the provider.
   *
   * @param api the API facade
   * @param jobNamespace namespace of every Job, or {@code null}/empty for the run's namespace
   */
  public JobMetricProvider(KubeApi api, String jobNamespace) {
    this.api = api;
    this.jobNamespace = jobNamespace == null || jobNamespace.isEmpty() ? null : jobNamespace;
  }

  @Override
  public String type() {
    return "job";
  }

  @Override
  public Future<ProviderResult> run(MeasurementContext ctx) {
    Job job;
    try {
      job = newJob(ctx);
    } catch (IllegalArgumentException e) {
      return Future.failedFuture(e);
    }
    String ns = job.getMetadata().getNamespace();
    String name = job.getMetadata().getName();
    Map<String, String> metadata = Map.of(JOB_NAME_KEY, name, JOB_NAMESPACE_KEY, ns);
    return api.createJob(job)
        .map(created -> (ProviderResult) new ProviderResult.Running(ctx.now(), metadata))
        .recover(
            err -> {
              if (!(err instanceof KubeApiException k && k.code() == 409)) {
                return Future.failedFuture(err);
              }
              // Created by an earlier pass whose measurement was never recorded: adopt it if it is
              // ours.
              return api.getJob(ns, name)
                  .compose(
                      existing -> {
                        String uid = ctx.run().getMetadata().getUid();
                        if (existing != null
                            && existing.getMetadata().getLabels() != null
                            && uid.equals(
                                existing.getMetadata().getLabels().get(Labels.ANALYSIS_RUN_UID))) {
                          return Future.succeededFuture(
                              new ProviderResult.Running(ctx.now(), metadata));
                        }
                        return Future.failedFuture(
                            new IllegalStateException(
                                "job "
                                    + ns
                                    + "/"
                                    + name
                                    + " already exists and does not belong to this AnalysisRun"));
                      });
            });
  }

  @Override
  public Future<ProviderResult> resume(MeasurementContext ctx, Measurement running) {
    Map<String, String> metadata = running.getMetadata() == null ? Map.of() : running.getMetadata();
    String name = metadata.get(JOB_NAME_KEY);
    String ns = metadata.getOrDefault(JOB_NAMESPACE_KEY, ctx.run().getMetadata().getNamespace());
    if (name == null) {
      return Future.failedFuture(
          new IllegalStateException("measurement has no " + JOB_NAME_KEY + " metadata"));
    }
    return api.getJob(ns, name)
        .compose(
            job -> {
              if (job == null) {
                return Future.failedFuture(
                    new IllegalStateException("job " + ns + "/" + name + " not found"));
              }
              String verdict = jobVerdict(job);
              if (verdict != null) {
                return Future.succeededFuture(new ProviderResult.Verdict(verdict, null, metadata));
              }
              return imagePullProblem(job)
                  .map(
                      problem -> {
                        if (problem != null) {
                          return new ProviderResult.Verdict(
                              AnalysisPhase.INCONCLUSIVE, problem, metadata);
                        }
                        return new ProviderResult.Running(nextCheck(ctx.now(), running), metadata);
                      });
            });
  }

  @Override
  public Future<ProviderResult> terminate(MeasurementContext ctx, Measurement running) {
    Map<String, String> metadata = running.getMetadata() == null ? Map.of() : running.getMetadata();
    String name = metadata.get(JOB_NAME_KEY);
    String ns = metadata.getOrDefault(JOB_NAMESPACE_KEY, ctx.run().getMetadata().getNamespace());
    Future<Void> deleted =
        name == null ? Future.succeededFuture() : api.deleteJobForeground(ns, name);
    return deleted
        .recover(
            err ->
                KubeApiException.isNotFound(err)
                    ? Future.succeededFuture()
                    : Future.failedFuture(err))
        .map(
            v ->
                new ProviderResult.Verdict(
                    AnalysisPhase.INCONCLUSIVE, "Metric Terminated", metadata));
  }

  @Override
  public Future<Void> garbageCollect(MeasurementContext ctx, int keep) {
    AnalysisRun run = ctx.run();
    String ns = jobNamespace != null ? jobNamespace : run.getMetadata().getNamespace();
    String metricName = ctx.metric().getName();
    return api.listJobs(ns, Map.of(Labels.ANALYSIS_RUN_UID, run.getMetadata().getUid()))
        .compose(
            jobs -> {
              List<Job> mine = new ArrayList<>();
              for (Job j : jobs) {
                Map<String, String> a = j.getMetadata().getAnnotations();
                if (a != null
                    && metricName.equals(a.get(Annotations.ANALYSIS_RUN_METRIC_NAME))
                    && j.getMetadata().getDeletionTimestamp() == null) {
                  mine.add(j);
                }
              }
              mine.sort(Comparator.comparing((Job j) -> sequence(j)).reversed());
              List<Future<Void>> deletes = new ArrayList<>();
              for (int i = keep; i < mine.size(); i++) {
                deletes.add(
                    api.deleteJobForeground(ns, mine.get(i).getMetadata().getName())
                        .recover(
                            err ->
                                KubeApiException.isNotFound(err)
                                    ? Future.succeededFuture()
                                    : Future.failedFuture(err)));
              }
              return Future.all(deletes).mapEmpty();
            });
  }

  /** The {@code <n>} suffix of a Job name, for ordering; creation time when the name has none. */
  private static long sequence(Job j) {
    String name = j.getMetadata().getName();
    int dot = name.lastIndexOf('.');
    try {
      return Long.parseLong(name.substring(dot + 1));
    } catch (NumberFormatException e) {
      Instant created = Times.parse(j.getMetadata().getCreationTimestamp());
      return created == null ? 0 : created.getEpochSecond();
    }
  }

  /**
   * Names the Job of the next measurement: {@code <run UID>.<metric name>.<count + error + 1>}, the
   * metric name cut so that the whole name has at most 63 characters.
   *
   * @param run the run, with the stored metric result
   * @param metricName the metric name
   * @return the Job name
   */
  public static String jobName(AnalysisRun run, String metricName) {
    MetricResult result = Results.get(run.getStatus(), metricName);
    int n =
        result == null
            ? 1
            : Results.intOf(result.getCount()) + Results.intOf(result.getError()) + 1;
    String uid = run.getMetadata().getUid();
    String suffix = "." + n;
    int room = MAX_NAME_LENGTH - uid.length() - 1 - suffix.length();
    String metric =
        metricName.length() > room ? metricName.substring(0, Math.max(0, room)) : metricName;
    return uid + "." + metric + suffix;
  }

  private Job newJob(MeasurementContext ctx) {
    AnalysisRun run = ctx.run();
    JobMetric config = ctx.metric().getProvider().getJob();
    JobSpec spec;
    try {
      spec =
          config.getSpec() == null
              ? new JobSpec()
              : ModelJson.mapper().treeToValue(config.getSpec(), JobSpec.class);
    } catch (JsonProcessingException | IllegalArgumentException e) {
      throw new IllegalArgumentException("invalid job spec: " + e.getMessage(), e);
    }
    String runNs = run.getMetadata().getNamespace();
    String ns = jobNamespace != null ? jobNamespace : runNs;
    String uid = run.getMetadata().getUid();
    Map<String, String> labels = new LinkedHashMap<>();
    Map<String, String> annotations = new LinkedHashMap<>();
    ObjectMeta configured = config.getMetadata();
    if (configured != null && configured.getLabels() != null) {
      labels.putAll(configured.getLabels());
    }
    if (configured != null && configured.getAnnotations() != null) {
      annotations.putAll(configured.getAnnotations());
    }
    labels.put(Labels.ANALYSIS_RUN_UID, uid);
    annotations.put(Annotations.ANALYSIS_RUN_NAME, run.getMetadata().getName());
    annotations.put(Annotations.ANALYSIS_RUN_NAMESPACE, runNs);
    annotations.put(Annotations.ANALYSIS_RUN_METRIC_NAME, ctx.metric().getName());
    ObjectMeta meta = new ObjectMeta();
    meta.setName(jobName(run, ctx.metric().getName()));
    meta.setNamespace(ns);
    meta.setLabels(labels);
    meta.setAnnotations(annotations);
    if (ns.equals(runNs)) {
      meta.setOwnerReferences(
          List.of(
              new OwnerReferenceBuilder()
                  .withApiVersion("argoproj.io/v1alpha1")
                  .withKind("AnalysisRun")
                  .withName(run.getMetadata().getName())
                  .withUid(uid)
                  .withController(true)
                  .withBlockOwnerDeletion(true)
                  .build()));
    }
    PodTemplateSpec template =
        spec.getTemplate() == null ? new PodTemplateSpec() : spec.getTemplate();
    if (template.getMetadata() == null) {
      template.setMetadata(new ObjectMeta());
    }
    Map<String, String> podLabels =
        template.getMetadata().getLabels() == null
            ? new HashMap<>()
            : new HashMap<>(template.getMetadata().getLabels());
    podLabels.put(Labels.ANALYSIS_RUN_UID, uid);
    template.getMetadata().setLabels(podLabels);
    spec.setTemplate(template);
    Job job = new Job();
    job.setApiVersion("batch/v1");
    job.setKind("Job");
    job.setMetadata(meta);
    job.setSpec(spec);
    return job;
  }

  /** Successful for condition Complete=True, Failed for Failed=True, else null. */
  private static String jobVerdict(Job job) {
    if (job.getStatus() == null || job.getStatus().getConditions() == null) {
      return null;
    }
    String verdict = null;
    for (JobCondition c : job.getStatus().getConditions()) {
      if (!"True".equals(c.getStatus())) {
        continue;
      }
      if ("Failed".equals(c.getType())) {
        verdict = AnalysisPhase.FAILED;
      } else if ("Complete".equals(c.getType())) {
        verdict = AnalysisPhase.SUCCESSFUL;
      }
    }
    return verdict;
  }

  /** A message naming a pod container stuck pulling its image, or null. */
  private Future<String> imagePullProblem(Job job) {
    Map<String, String> selector =
        job.getSpec() != null
                && job.getSpec().getSelector() != null
                && job.getSpec().getSelector().getMatchLabels() != null
            ? job.getSpec().getSelector().getMatchLabels()
            : Map.of("job-name", job.getMetadata().getName());
    return api.listPods(job.getMetadata().getNamespace(), selector, 100)
        .map(
            pods -> {
              for (Pod pod : pods) {
                if (pod.getStatus() == null) {
                  continue;
                }
                List<ContainerStatus> statuses = new ArrayList<>();
                if (pod.getStatus().getInitContainerStatuses() != null) {
                  statuses.addAll(pod.getStatus().getInitContainerStatuses());
                }
                if (pod.getStatus().getContainerStatuses() != null) {
                  statuses.addAll(pod.getStatus().getContainerStatuses());
                }
                for (ContainerStatus cs : statuses) {
                  if (cs.getState() != null
                      && cs.getState().getWaiting() != null
                      && IMAGE_PULL_ERRORS.contains(cs.getState().getWaiting().getReason())) {
                    String detail = cs.getState().getWaiting().getMessage();
                    return "job "
                        + job.getMetadata().getName()
                        + " pod "
                        + pod.getMetadata().getName()
                        + " container "
                        + cs.getName()
                        + ": "
                        + cs.getState().getWaiting().getReason()
                        + (detail == null || detail.isEmpty() ? "" : ": " + detail);
                  }
                }
              }
              return null;
            });
  }

  /** now + sqrt(2 × seconds since the measurement started), Argo's back-off for polling a Job. */
  static Instant nextCheck(Instant now, Measurement running) {
    Instant started = Times.parse(running.getStartedAt());
    double elapsed =
        started == null ? 0 : Math.max(0, Duration.between(started, now).toMillis() / 1000.0);
    long millis = (long) (Math.sqrt(2 * elapsed) * 1000);
    return now.plusMillis(millis);
  }
}
