package io.rollgate.e2e.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * Reads what a controller process wrote to its log file ({@code target/controller-<name>.log}),
 * which a test uses to see which process reconciled a Rollout and when a (re)started process has
 * synced its caches.
 */
public final class ControllerLog {

  /** The line a controller logs once its informer caches are synced and it starts reconciling. */
  public static final String SYNCED = "informers synced";

  private final Path file;

  /**
   * Creates a reader of one log file.
   *
   * @param file the log file
   */
  public ControllerLog(Path file) {
    this.file = file;
  }

  /**
   * The reader of a controller process's log.
   *
   * @param process the process
   * @return the reader
   */
  public static ControllerLog of(ControllerProcess process) {
    return new ControllerLog(process.log());
  }

  /** All lines written so far (empty when the file does not exist yet). */
  public List<String> lines() {
    try {
      return Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      return List.of();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The number of lines written so far. */
  public int size() {
    return lines().size();
  }

  /**
   * The lines, from line {@code from} (0-based) on, that contain a text.
   *
   * @param from the first line to look at
   * @param text the text
   * @return the matching lines
   */
  public List<String> linesContaining(int from, String text) {
    List<String> all = lines();
    return all.subList(Math.min(from, all.size()), all.size()).stream()
        .filter(l -> l.contains(text))
        .collect(Collectors.toList());
  }

  /**
   * Lines that carry the reconcile context of one Rollout ({@code ns=<ns> name=<name> }), from line
   * {@code from} on.
   *
   * @param from the first line to look at
   * @param namespace the Rollout's namespace
   * @param name the Rollout's name
   * @return the matching lines
   */
  public List<String> reconcileLines(int from, String namespace, String name) {
    return linesContaining(from, "ns=" + namespace + " name=" + name + " ");
  }

  /**
   * Waits until a line containing a text appears at or after line {@code from}.
   *
   * @param from the first line to look at
   * @param text the text
   * @param timeout the bound
   */
  public void awaitLine(int from, String text, Duration timeout) {
    try {
      Awaitility.await("controller log line '" + text + "'")
          .atMost(timeout)
          .pollInterval(Duration.ofMillis(100))
          .until(() -> !linesContaining(from, text).isEmpty());
    } catch (ConditionTimeoutException e) {
      List<String> all = lines();
      throw new AssertionError(
          "no line '"
              + text
              + "' in "
              + file
              + " after line "
              + from
              + "; last lines:\n"
              + String.join("\n", all.subList(Math.max(0, all.size() - 20), all.size())),
          e);
    }
  }

  /** The log file. */
  public Path file() {
    return file;
  }
}
