package io.rollgate.controller.plugin;

import java.time.Duration;

/**
 * The restart delay of a plugin process (docs/plugins.md, "Executable plugins"): 1 s after the
 * first failure, doubling after each further one, at most 5 minutes; back to 1 s once the process
 * had run for 10 minutes.
 *
 * <p>Not thread-safe: used on the plugin host's context.
 */
public final class RestartBackoff {

  /** The first delay. */
  public static final Duration INITIAL = Duration.ofSeconds(1);

  /** The longest delay. */
  public static final Duration MAX = Duration.ofMinutes(5);

  /** How long a process must have run for the delay to start again from {@link #INITIAL}. */
  public static final Duration HEALTHY = Duration.ofMinutes(10);

  private Duration next = INITIAL;

  /**
   * Returns the delay before the next start after a failure, and doubles the one after.
   *
   * @param ranFor how long the failed process had been running (zero when it never started)
   * @return the delay
   */
  public Duration failed(Duration ranFor) {
    if (ranFor.compareTo(HEALTHY) >= 0) {
      next = INITIAL;
    }
    Duration delay = next;
    Duration doubled = next.multipliedBy(2);
    next = doubled.compareTo(MAX) > 0 ? MAX : doubled;
    return delay;
  }
}
