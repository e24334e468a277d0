package io.rollgate.controller.traffic;

/**
 * The answer of {@link TrafficRouter#verifyWeight}, as Argo Rollouts' {@code RpcVerified}: stored
 * in {@code status.canary.weights.verified} as true, false, or absent.
 */
public enum WeightVerification {
  /** The data plane applies the weight ({@code verified: true}). */
  VERIFIED,
  /**
   * The data plane does not apply it yet ({@code verified: false}; the step waits and the Rollout
   * is re-queued).
   */
  NOT_VERIFIED,
  /** The router cannot tell ({@code verified} absent). */
  NOT_IMPLEMENTED;

  /**
   * Returns the value for {@code status.canary.weights.verified}.
   *
   * @return true, false, or null for {@link #NOT_IMPLEMENTED}
   */
  public Boolean asStatus() {
    return this == NOT_IMPLEMENTED ? null : this == VERIFIED;
  }
}
