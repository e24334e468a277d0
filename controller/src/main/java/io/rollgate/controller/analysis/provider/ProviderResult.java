package io.rollgate.controller.analysis.provider;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/** Outcome of one {@link MetricProvider} call. */
public sealed interface ProviderResult {

  /**
   * Metadata to store; see {@link MetricProvider} for the {@code metricResult.} prefix.
   *
   * @return never {@code null}
   */
  Map<String, String> metadata();

  /**
   * A value that the reconciler judges with the metric's successCondition and failureCondition
   * ({@code io.rollgate.expr.AnalysisConditions}).
   *
   * @param value the JSON-like Java value the conditions see as {@code result}: {@code Double} (Go
   *     float64), {@code String}, {@code Boolean}, {@code List<Object>}, {@code Map<String,
   *     Object>} or {@code null}
   * @param text {@code Measurement.value} as Argo writes it, for example {@code "0.95"} or {@code
   *     "[0.5,0.7]"}
   * @param metadata measurement metadata (for example Prometheus {@code warnings}); {@code null}
   *     means none
   */
  record Value(Object value, String text, Map<String, String> metadata) implements ProviderResult {
    /** Canonical constructor; copies the metadata. */
    public Value {
      metadata = copy(metadata);
    }
  }

  /**
   * A measurement outcome decided by the provider itself (Job: Successful or Failed; image pull
   * errors: Inconclusive).
   *
   * @param phase an {@link io.rollgate.api.AnalysisPhase} of a completed measurement
   * @param message the measurement message; {@code null} for none
   * @param metadata measurement metadata; {@code null} means none
   * @param value {@code Measurement.value} as the provider wrote it (a plugin decides the phase
   *     itself and reports the value it judged), or {@code null}
   */
  record Verdict(String phase, String message, Map<String, String> metadata, String value)
      implements ProviderResult {
    /** Canonical constructor; checks the phase and copies the metadata. */
    public Verdict {
      Objects.requireNonNull(phase, "phase");
      metadata = copy(metadata);
    }

    /**
     * A verdict without a value.
     *
     * @param phase an {@link io.rollgate.api.AnalysisPhase} of a completed measurement
     * @param message the measurement message; {@code null} for none
     * @param metadata measurement metadata; {@code null} means none
     */
    public Verdict(String phase, String message, Map<String, String> metadata) {
      this(phase, message, metadata, null);
    }
  }

  /**
   * Still measuring: the reconciler stores the measurement as Running and calls {@link
   * MetricProvider#resume} at or after {@code resumeAt}.
   *
   * @param resumeAt when to check again
   * @param metadata kept on the measurement (for example {@code job-name}, {@code job-namespace});
   *     {@code null} means none
   */
  record Running(Instant resumeAt, Map<String, String> metadata) implements ProviderResult {
    /** Canonical constructor; checks the time and copies the metadata. */
    public Running {
      Objects.requireNonNull(resumeAt, "resumeAt");
      metadata = copy(metadata);
    }
  }

  private static Map<String, String> copy(Map<String, String> metadata) {
    return metadata == null ? Map.of() : Map.copyOf(metadata);
  }
}
