package io.rollgate.controller.runtime;

import java.time.Instant;

/**
 * Identity of one reconcile run, carried explicitly through every step so each log line names the
 * object it is about.
 *
 * <p>{@link #toString()} is the log prefix, in key=value form: {@code kind=Rollout ns=shop name=web
 * rid=42 trigger=watch}.
 *
 * @param kind the object kind, for example {@code Rollout}
 * @param namespace the object's namespace
 * @param name the object's name
 * @param rid a process-wide sequence number of this run
 * @param trigger what queued the run: {@code watch}, {@code timer}, {@code retry} or {@code resync}
 * @param startedAt when the run started
 */
public record ReconcileContext(
    String kind, String namespace, String name, long rid, String trigger, Instant startedAt) {

  /**
   * Returns the work-queue key of the object.
   *
   * @return {@code namespace/name}
   */
  public String key() {
    return namespace + "/" + name;
  }

  @Override
  public String toString() {
    return "kind="
        + kind
        + " ns="
        + namespace
        + " name="
        + name
        + " rid="
        + rid
        + " trigger="
        + trigger;
  }
}
