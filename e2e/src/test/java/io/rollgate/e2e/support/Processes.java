package io.rollgate.e2e.support;

import java.util.concurrent.TimeUnit;

/** Stopping the processes the tests start (controller, webhook, Prometheus). */
public final class Processes {

  private static final long GRACE_SECONDS = 20;
  private static final long AFTER_KILL_SECONDS = 10;

  private Processes() {}

  /**
   * Stops a process as an orchestrator would: SIGTERM, up to 20 s to exit, then SIGKILL and up to
   * 10 s more. Does nothing for a null or exited process. An interrupt while waiting kills the
   * process at once and keeps the interrupt.
   *
   * @param process the process, or null
   */
  public static void stop(Process process) {
    if (process == null || !process.isAlive()) {
      return;
    }
    process.destroy();
    try {
      if (!process.waitFor(GRACE_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        process.waitFor(AFTER_KILL_SECONDS, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Kills a process with SIGKILL (a crash, as far as the process can tell) and waits up to 30 s for
   * it to be gone.
   *
   * @param process the process, or null
   */
  public static void kill(Process process) {
    if (process == null || !process.isAlive()) {
      return;
    }
    process.destroyForcibly();
    try {
      process.waitFor(GRACE_SECONDS + AFTER_KILL_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
