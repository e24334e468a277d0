package io.rollgate.controller.analysis.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rollgate.api.AnalysisPhase;
import io.rollgate.api.AnalysisRun;
import io.rollgate.api.AnalysisRunSpec;
import io.rollgate.api.AnalysisRunStatus;
import io.rollgate.api.TTLStrategy;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TtlTest {

  private static final Instant DONE = Instant.parse("2026-11-30T10:00:00Z");

  @Test
  void picksTheMostSpecificTtl() {
    TTLStrategy ttl = new TTLStrategy();
    ttl.setSecondsAfterCompletion(100);
    ttl.setSecondsAfterSuccess(10);
    ttl.setSecondsAfterFailure(20);

    assertEquals(Optional.of(DONE.plusSeconds(10)), Ttl.expiry(run(AnalysisPhase.SUCCESSFUL, ttl)));
    assertEquals(Optional.of(DONE.plusSeconds(20)), Ttl.expiry(run(AnalysisPhase.FAILED, ttl)));
    assertEquals(Optional.of(DONE.plusSeconds(100)), Ttl.expiry(run(AnalysisPhase.ERROR, ttl)));
    assertEquals(
        Optional.of(DONE.plusSeconds(100)), Ttl.expiry(run(AnalysisPhase.INCONCLUSIVE, ttl)));
    ttl.setSecondsAfterSuccess(null);
    assertEquals(
        Optional.of(DONE.plusSeconds(100)), Ttl.expiry(run(AnalysisPhase.SUCCESSFUL, ttl)));
  }

  @Test
  void keepsRunsWithoutTtlOrNotCompleted() {
    TTLStrategy ttl = new TTLStrategy();
    ttl.setSecondsAfterFailure(20);

    assertEquals(Optional.empty(), Ttl.expiry(run(AnalysisPhase.SUCCESSFUL, ttl)));
    assertEquals(Optional.empty(), Ttl.expiry(run(AnalysisPhase.RUNNING, ttl)));
    assertEquals(Optional.empty(), Ttl.expiry(run(AnalysisPhase.FAILED, null)));
  }

  private static AnalysisRun run(String phase, TTLStrategy ttl) {
    AnalysisRun run = new AnalysisRun();
    AnalysisRunSpec spec = new AnalysisRunSpec();
    spec.setTtlStrategy(ttl);
    run.setSpec(spec);
    AnalysisRunStatus status = new AnalysisRunStatus();
    status.setPhase(phase);
    status.setCompletedAt(Times.format(DONE));
    run.setStatus(status);
    return run;
  }
}
