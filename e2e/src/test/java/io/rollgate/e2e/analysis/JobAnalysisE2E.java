package io.rollgate.e2e.analysis;

import static io.rollgate.e2e.analysis.AnalysisRuns.JobOutcome.BLOCKED;
import static io.rollgate.e2e.analysis.AnalysisRuns.JobOutcome.COMPLETES;
import static io.rollgate.e2e.analysis.AnalysisRuns.JobOutcome.FAILS;
import static io.rollgate.e2e.analysis.AnalysisRuns.jobMetric;
import static io.rollgate.e2e.analysis.AnalysisRuns.n;
import static io.rollgate.e2e.analysis.AnalysisRuns.result;
import static io.rollgate.e2e.analysis.AnalysisRuns.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.rollgate.api.AnalysisRun;
import io.rollgate.api.Measurement;
import io.rollgate.api.MetricResult;
import io.rollgate.e2e.support.ControllerLog;
import io.rollgate.e2e.support.ControllerProcess;
import io.rollgate.e2e.support.TestCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * AnalysisRuns measured by the Job provider on a real API server: outcomes, limits, dry-run,
 * retention, terminate, TTL, Secret arguments and spec validation, as a user sees them in the run's
 * status, its Jobs and its Events.
 */
@ExtendWith(JobAnalysisE2E.FailureTracker.class)
class JobAnalysisE2E {

  static final Duration TIMEOUT = Duration.ofSeconds(90);

  static TestCluster cluster;
  static String ns;
  static AnalysisRuns runs;
  static ControllerProcess controller;
  static boolean failed;

  @BeforeAll
  static void setUp() {
    cluster = TestCluster.get();
    ns = cluster.createNamespace("analysis");
    runs = new AnalysisRuns(cluster.client(), ns);
    // A started controller writes its log afresh (a restart appends): its lines start at line 0.
    ControllerLog log = new ControllerLog(Path.of("target", "controller-analysis.log"));
    int from = 0;
    controller = ControllerProcess.start(cluster, "analysis", "--namespace", ns);
    log.awaitLine(from, "informer synced analysisruns", Duration.ofSeconds(120));
  }

  @AfterAll
  static void tearDown() {
    if (controller != null) {
      controller.close();
    }
    if (!failed && ns != null) {
      cluster.deleteNamespace(ns);
    }
  }

  @Test
  void completedJobsMakeTheRunSuccessful() {
    runs.create(run("ok", "", jobMetric("integration", "count: 2\ninterval: 1s", COMPLETES)));

    AnalysisRun done = runs.awaitPhase("ok", "Successful", TIMEOUT);

    MetricResult r = result(done, "integration");
    assertEquals("Successful", r.getPhase());
    assertEquals(2, n(r.getCount()));
    assertEquals(2, n(r.getSuccessful()));
    assertEquals(2, r.getMeasurements().size());
    assertNotNull(done.getStatus().getStartedAt());
    assertNotNull(done.getStatus().getCompletedAt());
    assertEquals(1, n(done.getStatus().getRunSummary().getCount()));
    assertEquals(1, n(done.getStatus().getRunSummary().getSuccessful()));
    String uid = done.getMetadata().getUid();
    List<Job> jobs = runs.jobs(done, "integration");
    assertEquals(
        List.of(uid + ".integration.1", uid + ".integration.2"),
        jobs.stream().map(j -> j.getMetadata().getName()).toList());
    Job job = jobs.get(0);
    assertEquals(uid, job.getMetadata().getLabels().get("analysisrun.argoproj.io/uid"));
    assertEquals("qa", job.getMetadata().getLabels().get("team"));
    assertEquals(
        uid,
        job.getSpec().getTemplate().getMetadata().getLabels().get("analysisrun.argoproj.io/uid"));
    assertEquals("ok", job.getMetadata().getAnnotations().get("analysisrun.argoproj.io/name"));
    assertEquals(ns, job.getMetadata().getAnnotations().get("analysisrun.argoproj.io/namespace"));
    assertEquals(
        "integration",
        job.getMetadata().getAnnotations().get("analysisrun.argoproj.io/metric-name"));
    assertEquals("e2e", job.getMetadata().getAnnotations().get("purpose"));
    OwnerReference owner = job.getMetadata().getOwnerReferences().get(0);
    assertEquals("AnalysisRun", owner.getKind());
    assertEquals(uid, owner.getUid());
    assertEquals(Boolean.TRUE, owner.getController());
    Measurement first = r.getMeasurements().get(0);
    assertEquals(uid + ".integration.1", first.getMetadata().get("job-name"));
    assertEquals(ns, first.getMetadata().get("job-namespace"));
    assertNotNull(first.getFinishedAt());
    awaitEvents(
        "ok",
        List.of(
            "Normal MetricSuccessful: Metric 'integration' Completed. Result: Successful",
            "Normal AnalysisRunSuccessful: Analysis Completed. Result: Successful"));
  }

  @Test
  void aFailedJobFailsTheRun() {
    runs.create(run("fail", "", jobMetric("integration", "", FAILS)));

    AnalysisRun done = runs.awaitPhase("fail", "Failed", TIMEOUT);

    assertEquals(
        "Metric \"integration\" assessed Failed due to failed (1) > failureLimit (0)",
        done.getStatus().getMessage());
    MetricResult r = result(done, "integration");
    assertEquals("Failed", r.getPhase());
    assertEquals(1, n(r.getFailed()));
    assertEquals(1, n(done.getStatus().getRunSummary().getFailed()));
    awaitEvents(
        "fail",
        List.of(
            "Warning MetricFailed: Metric 'integration' Completed. Result: Failed",
            "Warning AnalysisRunFailed: Analysis Completed. Result: Failed"));
  }

  @Test
  void anImagePullErrorIsInconclusive() {
    AnalysisRun created = runs.create(run("pull", "", jobMetric("integration", "", BLOCKED)));
    String job = created.getMetadata().getUid() + ".integration.1";

    runs.imagePullError(job, "ImagePullBackOff");
    AnalysisRun done = runs.awaitPhase("pull", "Inconclusive", TIMEOUT);

    MetricResult r = result(done, "integration");
    assertEquals(1, n(r.getInconclusive()));
    Measurement m = r.getMeasurements().get(0);
    assertEquals("Inconclusive", m.getPhase());
    assertTrue(m.getMessage().contains("ImagePullBackOff"), m.getMessage());
    assertTrue(
        done.getStatus()
            .getMessage()
            .startsWith(
                "Metric \"integration\" assessed Inconclusive due to inconclusive (1) > inconclusiveLimit (0)"),
        done.getStatus().getMessage());
  }

  @Test
  void failureLimitToleratesFailedMeasurements() {
    runs.create(
        run(
            "tolerant",
            "",
            jobMetric("tolerates-one", "failureLimit: 1", FAILS),
            jobMetric("tolerates-none-of-two", "count: 2\ninterval: 1s\nfailureLimit: 1", FAILS)));

    AnalysisRun done = runs.awaitPhase("tolerant", "Failed", TIMEOUT);

    assertEquals("Successful", result(done, "tolerates-one").getPhase());
    assertEquals(1, n(result(done, "tolerates-one").getFailed()));
    assertEquals("Failed", result(done, "tolerates-none-of-two").getPhase());
    assertEquals(
        "Metric \"tolerates-none-of-two\" assessed Failed due to failed (2) > failureLimit (1)",
        done.getStatus().getMessage());
  }

  @Test
  void consecutiveErrorsBeyondTheLimitEndTheRunInError() {
    // A Job without containers is refused by the API server: every measurement is an Error, retried
    // after 10 s.
    runs.create(
        run(
            "errors",
            "",
            "- name: broken\n"
                + "  consecutiveErrorLimit: 1\n"
                + "  provider:\n"
                + "    job:\n"
                + "      spec: {template: {spec: {restartPolicy: Never, containers: []}}}\n"));

    AnalysisRun once =
        runs.await(
            "errors",
            "one Error measurement",
            TIMEOUT,
            r -> result(r, "broken") != null && n(result(r, "broken").getError()) == 1);
    assertEquals(
        "Running",
        once.getStatus().getPhase(),
        "one error is tolerated with consecutiveErrorLimit: 1");
    AnalysisRun done = runs.awaitPhase("errors", "Error", TIMEOUT);

    MetricResult r = result(done, "broken");
    assertEquals(2, n(r.getError()));
    assertEquals(2, n(r.getConsecutiveError()));
    assertEquals(0, n(r.getCount()), "errors do not count as measurements");
    assertTrue(
        done.getStatus()
            .getMessage()
            .startsWith(
                "Metric \"broken\" assessed Error due to consecutiveErrors (2) > consecutiveErrorLimit (1): \"Error Message: "),
        done.getStatus().getMessage());
    assertEquals(List.of(), runs.jobs(done, "broken"));
  }

  @Test
  void aDryRunMetricDoesNotAffectThePhase() {
    runs.create(
        run(
            "dry",
            "dryRun: [{metricName: exp}]",
            jobMetric("gate", "", COMPLETES),
            jobMetric("experimental", "", FAILS)));

    AnalysisRun done = runs.awaitPhase("dry", "Successful", TIMEOUT);

    MetricResult experimental = result(done, "experimental");
    assertEquals("Failed", experimental.getPhase());
    assertEquals(Boolean.TRUE, experimental.getDryRun());
    assertNull(result(done, "gate").getDryRun());
    assertEquals(1, n(done.getStatus().getRunSummary().getCount()));
    assertEquals(1, n(done.getStatus().getRunSummary().getSuccessful()));
    assertEquals(1, n(done.getStatus().getDryRunSummary().getCount()));
    assertEquals(1, n(done.getStatus().getDryRunSummary().getFailed()));
  }

  @Test
  void measurementRetentionKeepsTheNewestMeasurementsAndJobs() {
    runs.create(
        run(
            "retention",
            "measurementRetention: [{metricName: '.*', limit: 2}]",
            jobMetric("smoke", "count: 4\ninterval: 1s", COMPLETES)));

    AnalysisRun done = runs.awaitPhase("retention", "Successful", TIMEOUT);

    MetricResult r = result(done, "smoke");
    assertEquals(4, n(r.getCount()));
    String uid = done.getMetadata().getUid();
    assertEquals(
        List.of(uid + ".smoke.3", uid + ".smoke.4"),
        r.getMeasurements().stream().map(m -> m.getMetadata().get("job-name")).toList());
    Awaitility.await("jobs of measurements 1 and 2 deleted")
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(250))
        .until(
            () ->
                runs.jobs(done, "smoke").stream()
                    .map(j -> j.getMetadata().getName())
                    .toList()
                    .equals(List.of(uid + ".smoke.3", uid + ".smoke.4")));
  }

  @Test
  void terminateStopsARunningJobAsInconclusive() {
    AnalysisRun created = runs.create(run("stop", "", jobMetric("long", "", BLOCKED)));
    String job = created.getMetadata().getUid() + ".long.1";
    runs.await(
        "stop",
        "Job measurement Running",
        TIMEOUT,
        r ->
            result(r, "long") != null
                && "Running".equals(result(r, "long").getMeasurements().get(0).getPhase())
                && job.equals(
                    result(r, "long").getMeasurements().get(0).getMetadata().get("job-name")));

    runs.terminate("stop");
    AnalysisRun done = runs.awaitPhase("stop", "Inconclusive", TIMEOUT);

    assertEquals("Run Terminated", done.getStatus().getMessage());
    Measurement m = result(done, "long").getMeasurements().get(0);
    assertEquals("Inconclusive", m.getPhase());
    assertEquals("Metric Terminated", m.getMessage());
    Awaitility.await("terminated Job deleted")
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(250))
        .until(() -> runs.jobs(done, "long").isEmpty());
  }

  @Test
  void anUnboundedMetricRunsUntilTerminated() {
    runs.create(run("forever", "", jobMetric("watch", "interval: 4s", COMPLETES)));

    runs.await(
        "forever",
        "three measurements and still Running",
        TIMEOUT,
        r -> {
          MetricResult res = result(r, "watch");
          return res != null
              && n(res.getCount()) >= 3
              && "Running".equals(r.getStatus().getPhase())
              && res.getMeasurements().get(res.getMeasurements().size() - 1).getFinishedAt()
                  != null;
        });
    runs.terminate("forever");
    AnalysisRun done = runs.awaitPhase("forever", "Successful", TIMEOUT);

    assertEquals("Run Terminated", done.getStatus().getMessage());
    assertEquals("Successful", result(done, "watch").getPhase());
    assertTrue(n(result(done, "watch").getCount()) >= 3);
  }

  @Test
  void ttlStrategyDeletesTheCompletedRun() {
    runs.create(
        run(
            "ttl",
            "ttlStrategy: {secondsAfterSuccess: 2, secondsAfterCompletion: 3600}",
            jobMetric("quick", "", COMPLETES)));
    runs.create(
        run("kept", "ttlStrategy: {secondsAfterFailure: 2}", jobMetric("quick", "", COMPLETES)));

    runs.awaitPhase("ttl", "Successful", TIMEOUT);
    Awaitility.await("run deleted after secondsAfterSuccess")
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(250))
        .until(() -> runs.get("ttl") == null);
    runs.awaitPhase("kept", "Successful", TIMEOUT);
    runs.holdsFor(
        "kept",
        "a Successful run with only secondsAfterFailure is kept",
        Duration.ofSeconds(4),
        r -> r != null);
  }

  @Test
  void secretArgumentsAreReadAtMeasurementTimeAndMaskedInMessages() {
    String secret = "s3cr3t-t0ken-value";
    cluster
        .client()
        .secrets()
        .inNamespace(ns)
        .resource(
            new SecretBuilder()
                .withNewMetadata()
                .withName("creds")
                .endMetadata()
                .withStringData(Map.of("token", secret))
                .build())
        .create();
    String tokenArg =
        "args:\n- {name: token, valueFrom: {secretKeyRef: {name: creds, key: token}}}\n";
    String pod =
        "      spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: busybox}]}}}\n";
    runs.create(
        run(
            "secret-used",
            tokenArg,
            "- name: uses\n  provider:\n    job:\n      metadata: {annotations: {token: '{{args.token}}'}}\n"
                + pod));
    // An invalid label value makes the API server refuse the Job with a message that quotes the
    // value.
    runs.create(
        run(
            "secret-leak",
            tokenArg,
            "- name: leaks\n  consecutiveErrorLimit: 0\n  provider:\n    job:\n"
                + "      metadata: {labels: {token: 'bad value {{args.token}}'}}\n"
                + pod));
    runs.create(
        run(
            "secret-missing",
            "args:\n- {name: token, valueFrom: {secretKeyRef: {name: creds, key: nope}}}\n",
            "- name: uses\n  consecutiveErrorLimit: 0\n  provider:\n    job:\n"
                + "      metadata: {annotations: {token: '{{args.token}}'}}\n"
                + pod));

    AnalysisRun used = runs.awaitPhase("secret-used", "Successful", TIMEOUT);
    AnalysisRun leak = runs.awaitPhase("secret-leak", "Error", TIMEOUT);
    AnalysisRun missing = runs.awaitPhase("secret-missing", "Error", TIMEOUT);

    assertEquals(
        secret,
        runs.jobs(used, "uses").get(0).getMetadata().getAnnotations().get("token"),
        "the Secret value is substituted into the Job");
    String leaked = result(leak, "leaks").getMeasurements().get(0).getMessage();
    assertTrue(leaked.contains("bad value *****"), leaked);
    assertFalse(runs.statusJson(leak).contains(secret), runs.statusJson(leak));
    assertTrue(leak.getStatus().getMessage().contains("*****"), leak.getStatus().getMessage());
    assertEquals(
        "key 'nope' does not exist in secret 'creds'",
        result(missing, "uses").getMeasurements().get(0).getMessage());
    assertEquals(List.of(), runs.jobs(missing, "uses"));
  }

  @Test
  void anInvalidSpecEndsTheRunInError() {
    runs.create(run("dup", "", jobMetric("same", "", COMPLETES), jobMetric("same", "", COMPLETES)));
    runs.create(
        run("unresolved", "", jobMetric("m", "count: '{{args.count}}'\ninterval: 1s", COMPLETES)));
    runs.create(
        run("norule", "dryRun: [{metricName: '^nothing$'}]", jobMetric("m", "", COMPLETES)));

    assertEquals(
        "Analysis spec invalid: metrics[1]: duplicate name 'same'",
        runs.awaitPhase("dup", "Error", TIMEOUT).getStatus().getMessage());
    assertEquals(
        "Unable to resolve metric arguments: failed to resolve {{args.count}}",
        runs.awaitPhase("unresolved", "Error", TIMEOUT).getStatus().getMessage());
    assertEquals(
        "Analysis spec invalid: dryRun[0]: Rule didn't match any metric name(s)",
        runs.awaitPhase("norule", "Error", TIMEOUT).getStatus().getMessage());
    AnalysisRun dup = runs.get("dup");
    assertNotNull(dup.getStatus().getCompletedAt());
    awaitEvents("dup", List.of("Warning AnalysisRunError: Analysis Completed. Result: Error"));
  }

  private static void awaitEvents(String run, List<String> expected) {
    Awaitility.await("events " + expected)
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(250))
        .until(() -> runs.eventTexts(run).containsAll(expected));
  }

  static final class FailureTracker implements TestWatcher {
    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
      failed = true;
    }
  }
}
