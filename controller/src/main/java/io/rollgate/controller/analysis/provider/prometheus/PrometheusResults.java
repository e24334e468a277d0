package io.rollgate.controller.analysis.provider.prometheus;

import com.fasterxml.jackson.databind.JsonNode;
import io.rollgate.controller.analysis.provider.common.GoFormat;
import io.rollgate.controller.analysis.provider.common.MetricProviderException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Turns the {@code data} of a Prometheus HTTP API answer into the measurement value Argo Rollouts
 * computes: a {@code scalar} becomes a float64 ({@link Double}), a {@code vector} or {@code matrix}
 * a list of every sample value (matrix series after series, samples in time order), and the
 * measurement's {@code value} text is {@code strconv.FormatFloat(v, 'f', -1, 64)} of the scalar or
 * {@code [v1,v2,...]} ({@code []} for an empty result). Any other result type ({@code string}) is
 * an error.
 */
public final class PrometheusResults {

  /** The converted value and its text. */
  public record Converted(Object value, String text) {}

  /** Argo's message for a result type it does not evaluate. */
  static final String UNSUPPORTED = "Prometheus metric type not supported";

  private PrometheusResults() {}

  /**
   * Converts {@code data.resultType} and {@code data.result}.
   *
   * @param resultType {@code scalar}, {@code vector}, {@code matrix} or {@code string}
   * @param result the {@code data.result} node
   * @return the value (Double or unmodifiable List of Double) and its text
   * @throws MetricProviderException for an unsupported type or a sample that is not a number
   */
  public static Converted convert(String resultType, JsonNode result) {
    switch (resultType == null ? "" : resultType) {
      case "scalar":
        {
          double v = sampleValue(result);
          return new Converted(v, GoFormat.formatFloat(v));
        }
      case "vector":
        {
          List<Double> values = new ArrayList<>();
          for (JsonNode series : result) {
            values.add(sampleValue(series.path("value")));
          }
          return list(values);
        }
      case "matrix":
        {
          List<Double> values = new ArrayList<>();
          for (JsonNode series : result) {
            for (JsonNode sample : series.path("values")) {
              values.add(sampleValue(sample));
            }
          }
          return list(values);
        }
      default:
        throw new MetricProviderException(UNSUPPORTED);
    }
  }

  private static Converted list(List<Double> values) {
    String text =
        values.stream().map(GoFormat::formatFloat).collect(Collectors.joining(",", "[", "]"));
    return new Converted(Collections.unmodifiableList(values), text);
  }

  /**
   * Reads a {@code [<unix seconds>, "<value>"]} sample's value, accepting Prometheus' {@code NaN},
   * {@code +Inf} and {@code -Inf}.
   */
  private static double sampleValue(JsonNode sample) {
    JsonNode v = sample.path(1);
    if (!v.isTextual()) {
      throw new MetricProviderException("bad_response: sample value is not a string: " + sample);
    }
    String text = v.textValue();
    switch (text) {
      case "NaN":
        return Double.NaN;
      case "+Inf":
      case "Inf":
        return Double.POSITIVE_INFINITY;
      case "-Inf":
        return Double.NEGATIVE_INFINITY;
      default:
        try {
          return Double.parseDouble(text);
        } catch (NumberFormatException e) {
          throw new MetricProviderException("bad_response: cannot parse sample value " + text);
        }
    }
  }
}
