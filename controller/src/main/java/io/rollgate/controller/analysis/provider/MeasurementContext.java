package io.rollgate.controller.analysis.provider;

import io.rollgate.api.AnalysisRun;
import io.rollgate.api.Metric;
import java.time.Instant;
import java.util.Set;

/**
 * What a {@link MetricProvider} needs for one call.
 *
 * @param run the AnalysisRun as last read (metadata for names, labels, UID and owner references);
 *     do not modify
 * @param metric the metric with every {@code {{args.<name>}}} already substituted
 *     (docs/compatibility.md §9.3)
 * @param now the current time from the reconciler's clock; use it instead of {@code Instant.now()}
 * @param secrets values of arguments taken from Secrets; they must never appear in messages or logs
 *     (see {@link #mask(String)})
 */
public record MeasurementContext(AnalysisRun run, Metric metric, Instant now, Set<String> secrets) {

  /** The text that replaces a secret value, as Argo writes it. */
  public static final String MASK = "*****";

  /**
   * Canonical constructor; copies {@code secrets}.
   *
   * @param run the AnalysisRun
   * @param metric the substituted metric
   * @param now the current time
   * @param secrets secret values to mask; {@code null} means none
   */
  public MeasurementContext {
    secrets = secrets == null ? Set.of() : Set.copyOf(secrets);
  }

  /**
   * Replaces every secret value in a text with {@code *****}.
   *
   * @param text any text, for example an error message that may contain a URL or header; may be
   *     {@code null}
   * @return the masked text, or {@code null} for {@code null}
   */
  public String mask(String text) {
    return Secrets.mask(text, secrets);
  }
}
