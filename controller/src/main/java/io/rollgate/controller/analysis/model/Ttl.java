package io.rollgate.controller.analysis.model;

import io.rollgate.api.AnalysisPhase;
import io.rollgate.api.AnalysisRun;
import io.rollgate.api.TTLStrategy;
import java.time.Instant;
import java.util.Optional;

/**
 * Time to live of a completed AnalysisRun (docs/compatibility.md §9.4, {@code spec.ttlStrategy}):
 * Successful runs use {@code secondsAfterSuccess}, Failed runs {@code secondsAfterFailure}, and
 * otherwise (or when that field is absent) {@code secondsAfterCompletion}, counted from {@code
 * status.completedAt}.
 */
public final class Ttl {

  private Ttl() {}

  /**
   * Computes when a completed run is to be deleted.
   *
   * @param run the run
   * @return the deletion time, or empty when the run is not completed, has no {@code completedAt},
   *     or no TTL applies
   */
  public static Optional<Instant> expiry(AnalysisRun run) {
    if (run.getStatus() == null || !AnalysisPhase.isCompleted(run.getStatus().getPhase())) {
      return Optional.empty();
    }
    TTLStrategy ttl = run.getSpec() == null ? null : run.getSpec().getTtlStrategy();
    Instant completedAt = Times.parse(run.getStatus().getCompletedAt());
    if (ttl == null || completedAt == null) {
      return Optional.empty();
    }
    String phase = run.getStatus().getPhase();
    Integer seconds = null;
    if (AnalysisPhase.SUCCESSFUL.equals(phase) && ttl.getSecondsAfterSuccess() != null) {
      seconds = ttl.getSecondsAfterSuccess();
    } else if (AnalysisPhase.FAILED.equals(phase) && ttl.getSecondsAfterFailure() != null) {
      seconds = ttl.getSecondsAfterFailure();
    } else if (ttl.getSecondsAfterCompletion() != null) {
      seconds = ttl.getSecondsAfterCompletion();
    }
    return seconds == null ? Optional.empty() : Optional.of(completedAt.plusSeconds(seconds));
  }
}
