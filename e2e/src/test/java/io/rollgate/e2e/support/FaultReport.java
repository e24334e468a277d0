package io.rollgate.e2e.support;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The fault suite's own report: each fault test adds one row (fault, how it was injected, what was
 * asserted, the result with its figures) to {@code target/fault-report.tsv} of its module, and
 * {@code bin/test} prints them as the table docs/reliability.md shows.
 */
public final class FaultReport {

  private FaultReport() {}

  /**
   * Adds a row; called once an assertion block has passed, so a row means the fault was survived.
   *
   * @param fault the fault
   * @param injected how the test injected it
   * @param asserted what the test asserted
   * @param result the outcome, with figures (counts, seconds)
   */
  public static synchronized void record(
      String fault, String injected, String asserted, String result) {
    Path file = Path.of(System.getProperty("rollgate.fault.report", "target/fault-report.tsv"));
    String row =
        String.join("\t", clean(fault), clean(injected), clean(asserted), clean(result)) + "\n";
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      Files.writeString(
          file, row, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new IllegalStateException("cannot write " + file, e);
    }
  }

  private static String clean(String s) {
    return s.replace('\t', ' ').replace('\n', ' ').replace("|", "/");
  }
}
