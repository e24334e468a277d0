package io.rollgate.controller.plugin;

/**
 * A step plugin operation, as stored in {@code stepPluginStatuses[].operation}
 * (docs/compatibility.md §10.3).
 */
public enum StepOperation {
  /** Run or continue the step. */
  RUN("Run", "step/run"),
  /** Stop the running step after a full promotion. */
  TERMINATE("Terminate", "step/terminate"),
  /** Undo the step after an abort. */
  ABORT("Abort", "step/abort");

  private final String statusName;
  private final String path;

  StepOperation(String statusName, String path) {
    this.statusName = statusName;
    this.path = path;
  }

  /**
   * The value of {@code stepPluginStatuses[].operation}.
   *
   * @return {@code Run}, {@code Terminate} or {@code Abort}
   */
  public String statusName() {
    return statusName;
  }

  /**
   * The protocol path of the call, relative to {@code <base>/v1/} (docs/plugins.md).
   *
   * @return for example {@code step/run}
   */
  public String path() {
    return path;
  }
}
