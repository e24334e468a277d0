package io.rollgate.e2e.analysis;

import static io.rollgate.e2e.analysis.AnalysisRuns.JobOutcome.BLOCKED;
import static io.rollgate.e2e.analysis.AnalysisRuns.jobMetric;
import static io.rollgate.e2e.analysis.AnalysisRuns.n;
import static io.rollgate.e2e.analysis.AnalysisRuns.result;
import static io.rollgate.e2e.analysis.AnalysisRuns.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * The controller is killed with SIGKILL while Job measurements are in flight and started again: the
 * new process resumes the Running measurements from their stored {@code job-name}, so no
 * measurement is lost and no Job is created twice.
 */
@ExtendWith(AnalysisRestartE2E.FailureTracker.class)
class AnalysisRestartE2E {

  static final Duration TIMEOUT = Duration.ofSeconds(90);

  static TestCluster cluster;
  static String ns;
  static AnalysisRuns runs;
  static ControllerProcess controller;
  static boolean failed;

  @BeforeAll
  static void setUp() {
    cluster = TestCluster.get();
    ns = cluster.createNamespace("analysis-restart");
    runs = new AnalysisRuns(cluster.client(), ns);
    // A started controller writes its log afresh (a restart appends): its lines start at line 0.
    ControllerLog log = new ControllerLog(Path.of("target", "controller-analysis-restart.log"));
    int from = 0;
    controller = ControllerProcess.start(cluster, "analysis-restart", "--namespace", ns);
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
  void resumesRunningJobMeasurementsWithoutDuplicatingJobs() {
    AnalysisRun created =
        runs.create(run("resume", "", jobMetric("check", "count: 2\ninterval: 1s", BLOCKED)));
    String uid = created.getMetadata().getUid();
    String first = uid + ".check.1";
    awaitRunningMeasurement("resume", first);

    // Killed while measurement 1 is in flight; its Job completes while no controller runs.
    controller.kill();
    runs.succeedPod(first);
    restartAndAwaitSynced();

    String second = uid + ".check.2";
    AnalysisRun afterRestart = awaitRunningMeasurement("resume", second);
    MetricResult r = result(afterRestart, "check");
    assertEquals(
        1,
        n(r.getSuccessful()),
        "measurement 1 completed from the Job that ran while the controller was down");
    assertEquals(first, r.getMeasurements().get(0).getMetadata().get("job-name"));

    // Killed again, this time the Job finishes after the restart.
    controller.kill();
    restartAndAwaitSynced();
    runs.succeedPod(second);

    AnalysisRun done = runs.awaitPhase("resume", "Successful", TIMEOUT);
    MetricResult result = result(done, "check");
    assertEquals(2, n(result.getCount()));
    assertEquals(2, n(result.getSuccessful()));
    assertEquals(0, n(result.getError()));
    assertEquals(
        List.of(first, second),
        result.getMeasurements().stream().map(m -> m.getMetadata().get("job-name")).toList());
    List<Job> jobs = runs.jobs(done, "check");
    assertEquals(
        List.of(first, second),
        jobs.stream().map(j -> j.getMetadata().getName()).toList(),
        "exactly one Job per measurement");
    for (Job j : jobs) {
      assertEquals(
          1,
          cluster
              .client()
              .pods()
              .inNamespace(ns)
              .withLabel("job-name", j.getMetadata().getName())
              .list()
              .getItems()
              .size(),
          "one pod per Job: " + j.getMetadata().getName());
    }
    Measurement m1 = result.getMeasurements().get(0);
    assertFalse(m1.getStartedAt().compareTo(m1.getFinishedAt()) > 0);
  }

  private AnalysisRun awaitRunningMeasurement(String run, String jobName) {
    return runs.await(
        run,
        "measurement Running on Job " + jobName,
        TIMEOUT,
        r -> {
          MetricResult res = result(r, "check");
          if (res == null || res.getMeasurements() == null || res.getMeasurements().isEmpty()) {
            return false;
          }
          Measurement last = res.getMeasurements().get(res.getMeasurements().size() - 1);
          return "Running".equals(last.getPhase())
              && last.getMetadata() != null
              && jobName.equals(last.getMetadata().get("job-name"));
        });
  }

  private static void restartAndAwaitSynced() {
    ControllerLog log = ControllerLog.of(controller);
    int from = log.size();
    controller.restart();
    log.awaitLine(from, "informer synced analysisruns", Duration.ofSeconds(120));
  }

  static final class FailureTracker implements TestWatcher {
    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
      failed = true;
    }
  }
}
