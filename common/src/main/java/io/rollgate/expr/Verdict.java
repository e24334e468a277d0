package io.rollgate.expr;

/**
 * The outcome of judging one measurement value against a metric's conditions (docs/compatibility.md
 * §9.6).
 */
public enum Verdict {
  /** The measurement passed: Argo's {@code Successful} phase. */
  SUCCESSFUL("Successful"),
  /** The measurement failed: Argo's {@code Failed} phase. */
  FAILED("Failed"),
  /** Neither condition decided (both given, both false): Argo's {@code Inconclusive} phase. */
  INCONCLUSIVE("Inconclusive");

  private final String phase;

  Verdict(String phase) {
    this.phase = phase;
  }

  /**
   * Returns the Argo {@code AnalysisPhase} string for this verdict, as written in {@code
   * measurements[].phase}.
   *
   * @return {@code Successful}, {@code Failed} or {@code Inconclusive}
   */
  public String phase() {
    return phase;
  }
}
