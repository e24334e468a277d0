package io.rollgate.api;

/**
 * Values of {@code status.phase} of a Rollout (docs/compatibility.md §3.3). The status field stays
 * a {@code String} so that a value written by another controller version round-trips unchanged.
 */
public final class RolloutPhase {

  /** Not yet healthy but still making progress towards the desired state. */
  public static final String PROGRESSING = "Progressing";

  /**
   * Not yet healthy and will not progress until resumed (pause step, manual pause, inconclusive
   * analysis).
   */
  public static final String PAUSED = "Paused";

  /** Fully promoted and available. */
  public static final String HEALTHY = "Healthy";

  /** Aborted, invalid, timed out or lacking availability. */
  public static final String DEGRADED = "Degraded";

  private RolloutPhase() {}
}
