package io.rollgate.controller.analysis.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.rollgate.api.AnalysisRun;
import io.rollgate.api.AnalysisRunStatus;
import io.rollgate.api.Measurement;
import io.rollgate.api.MetricResult;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class JobMetricProviderTest {

  private static final String UID = "0b5c9a8e-4f3e-4c1a-9d2b-5a6f7e8d9c0b";

  @Test
  void namesJobsByUidMetricAndMeasurementNumber() {
    AnalysisRun run = run();
    assertEquals(UID + ".smoke.1", JobMetricProvider.jobName(run, "smoke"));

    MetricResult r = new MetricResult();
    r.setName("smoke");
    r.setCount(2);
    r.setError(1);
    run.getStatus().setMetricResults(List.of(r));
    assertEquals(UID + ".smoke.4", JobMetricProvider.jobName(run, "smoke"));
  }

  @Test
  void truncatesTheMetricNameToFitSixtyThreeCharacters() {
    String name = JobMetricProvider.jobName(run(), "a-very-long-metric-name-that-does-not-fit");

    assertEquals(63, name.length());
    assertTrue(name.startsWith(UID + ".a-very-long-metric-na"), name);
    assertTrue(name.endsWith(".1"), name);
  }

  @Test
  void backsOffWithTheSquareRootOfTwiceTheElapsedTime() {
    Instant start = Instant.parse("2026-11-30T10:00:00Z");
    Measurement m = new Measurement();
    m.setStartedAt("2026-11-30T10:00:00Z");

    assertEquals(
        start.plusSeconds(50).plusMillis(10_000),
        JobMetricProvider.nextCheck(start.plusSeconds(50), m));
    assertEquals(start, JobMetricProvider.nextCheck(start, m));
  }

  private static AnalysisRun run() {
    AnalysisRun run = new AnalysisRun();
    ObjectMeta meta = new ObjectMeta();
    meta.setUid(UID);
    meta.setName("r");
    meta.setNamespace("ns");
    run.setMetadata(meta);
    run.setStatus(new AnalysisRunStatus());
    return run;
  }
}
