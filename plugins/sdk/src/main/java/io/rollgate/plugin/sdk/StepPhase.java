package io.rollgate.plugin.sdk;

/**
 * The phase a step plugin reports for an operation (Argo Rollouts' {@code StepPluginPhase},
 * docs/compatibility.md §10.2).
 */
public enum StepPhase {
  /** Still working: the controller calls again after {@code requeueAfterSeconds}. */
  Running,
  /** Done; the step is complete. */
  Successful,
  /** Done and failed; the Rollout aborts. */
  Failed,
  /** Could not tell; the call is retried after a backoff. */
  Error
}
