package io.rollgate.controller.analysis.provider.cloudwatch;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import io.rollgate.controller.analysis.provider.common.MetricProviderException;
import io.rollgate.defaults.GoDurations;
import io.rollgate.expr.GoValues;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.cloudwatch.model.Dimension;
import software.amazon.awssdk.services.cloudwatch.model.GetMetricDataRequest;
import software.amazon.awssdk.services.cloudwatch.model.GetMetricDataResponse;
import software.amazon.awssdk.services.cloudwatch.model.MessageData;
import software.amazon.awssdk.services.cloudwatch.model.Metric;
import software.amazon.awssdk.services.cloudwatch.model.MetricDataQuery;
import software.amazon.awssdk.services.cloudwatch.model.MetricDataResult;
import software.amazon.awssdk.services.cloudwatch.model.MetricStat;

/**
 * The {@code provider.cloudWatch} configuration as a {@code GetMetricData} request, and its answer
 * as the value the conditions see (docs/metric-providers.md, "CloudWatch"). Pure functions, no I/O.
 */
public final class CloudWatchQueries {

  /** The default {@code interval}: 5 minutes, Argo's. */
  public static final Duration DEFAULT_INTERVAL = Duration.ofMinutes(5);

  private static final ObjectMapper JSON =
      new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

  private CloudWatchQueries() {}

  @JsonIgnoreProperties(ignoreUnknown = true)
  record Config(String interval, List<Query> metricDataQueries) {}

  @JsonIgnoreProperties(ignoreUnknown = true)
  record Query(
      String id,
      String expression,
      String label,
      Stat metricStat,
      Object period,
      Boolean returnData) {}

  @JsonIgnoreProperties(ignoreUnknown = true)
  record Stat(StatMetric metric, Object period, String stat, String unit) {}

  @JsonIgnoreProperties(ignoreUnknown = true)
  record StatMetric(List<Dim> dimensions, String metricName, String namespace) {}

  @JsonIgnoreProperties(ignoreUnknown = true)
  record Dim(String name, String value) {}

  /**
   * Builds the request for one measurement: every {@code metricDataQueries[]} entry ({@code id},
   * {@code expression}, {@code label}, {@code metricStat {metric {namespace, metricName,
   * dimensions[] {name, value}}, period, stat, unit}}, {@code period}, {@code returnData}) over the
   * window {@code [now - interval, now]}.
   *
   * @param config the object under {@code provider.cloudWatch}
   * @param now the measurement time
   * @return the request
   * @throws MetricProviderException when {@code interval} is not a Go duration ({@code time:
   *     invalid duration "x"}) or a field has the wrong JSON type (the field named)
   */
  public static GetMetricDataRequest request(Map<String, Object> config, Instant now) {
    Config c;
    try {
      c = JSON.convertValue(config, Config.class);
    } catch (IllegalArgumentException e) {
      throw new MetricProviderException(describe(e), e);
    }
    Duration interval = DEFAULT_INTERVAL;
    if (c.interval() != null && !c.interval().isEmpty()) {
      Optional<Duration> parsed = GoDurations.parse(c.interval());
      if (parsed.isEmpty()) {
        throw new MetricProviderException("time: invalid duration \"" + c.interval() + "\"");
      }
      interval = parsed.get();
    }
    List<MetricDataQuery> queries = new ArrayList<>();
    for (Query q : c.metricDataQueries() == null ? List.<Query>of() : c.metricDataQueries()) {
      if (q == null) {
        continue;
      }
      MetricDataQuery.Builder b =
          MetricDataQuery.builder()
              .id(q.id() == null ? "" : q.id())
              .expression(q.expression())
              .label(q.label());
      if (q.metricStat() != null) {
        b.metricStat(metricStat(q.metricStat()));
      }
      if (q.period() != null) {
        b.period(intValue(q.period()));
      }
      b.returnData(q.returnData());
      queries.add(b.build());
    }
    return GetMetricDataRequest.builder()
        .startTime(now.minus(interval))
        .endTime(now)
        .metricDataQueries(queries)
        .build();
  }

  private static MetricStat metricStat(Stat s) {
    StatMetric m = s.metric() == null ? new StatMetric(null, null, null) : s.metric();
    Metric.Builder metric =
        Metric.builder().metricName(m.metricName() == null ? "" : m.metricName());
    metric.namespace(m.namespace());
    if (m.dimensions() != null) {
      List<Dimension> dims = new ArrayList<>();
      for (Dim d : m.dimensions()) {
        dims.add(
            Dimension.builder()
                .name(d == null ? "" : nz(d.name()))
                .value(d == null ? "" : nz(d.value()))
                .build());
      }
      metric.dimensions(dims);
    }
    MetricStat.Builder b =
        MetricStat.builder().metric(metric.build()).period(intValue(s.period())).stat(nz(s.stat()));
    if (s.unit() != null && !s.unit().isEmpty()) {
      b.unit(s.unit());
    }
    return b.build();
  }

  private static String nz(String s) {
    return s == null ? "" : s;
  }

  /** Kubernetes' {@code IntOrString.IntValue()}: the number, a numeric string's number, else 0. */
  static int intValue(Object v) {
    if (v instanceof Number n) {
      return n.intValue();
    }
    if (v instanceof String s) {
      try {
        return Integer.parseInt(s.trim());
      } catch (NumberFormatException e) {
        return 0;
      }
    }
    return 0;
  }

  /**
   * Names the field a conversion failed at and the JSON type it needs, e.g. {@code
   * ...metricDataQueries must be a list}.
   */
  private static String describe(IllegalArgumentException e) {
    if (!(e.getCause() instanceof JsonMappingException jm)) {
      return "provider.cloudWatch: " + e.getMessage();
    }
    StringBuilder path = new StringBuilder("provider.cloudWatch");
    for (JsonMappingException.Reference ref : jm.getPath()) {
      if (ref.getFieldName() != null) {
        path.append('.').append(ref.getFieldName());
      } else if (ref.getIndex() >= 0) {
        path.append('[').append(ref.getIndex()).append(']');
      }
    }
    Class<?> target = jm instanceof MismatchedInputException mi ? mi.getTargetType() : null;
    if (target == null) {
      return path + ": " + jm.getOriginalMessage();
    }
    String type;
    if (java.util.Collection.class.isAssignableFrom(target)) {
      type = "a list";
    } else if (target == String.class) {
      type = "a string";
    } else if (target == Boolean.class || target == boolean.class) {
      type = "a boolean";
    } else {
      type = "an object";
    }
    return path + " must be " + type;
  }

  /**
   * The value the conditions see as {@code result}: one map per {@code MetricDataResults} entry,
   * with the keys {@code Id}, {@code Label}, {@code StatusCode} (Strings), {@code Timestamps}
   * (Instants), {@code Values} (Doubles) and {@code Messages} ({@code {Code, Value}} maps), so that
   * {@code result[0].Values[0] < 0.01} reads as in Argo.
   *
   * @param response the answer
   * @return the list, in answer order
   */
  public static List<Map<String, Object>> value(GetMetricDataResponse response) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (MetricDataResult r : response.metricDataResults()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("Id", r.id());
      m.put("Label", r.label());
      m.put("StatusCode", r.statusCodeAsString());
      m.put("Timestamps", new ArrayList<Object>(r.timestamps()));
      m.put("Values", new ArrayList<Object>(r.values()));
      m.put("Messages", messages(r.messages()));
      out.add(m);
    }
    return out;
  }

  private static List<Object> messages(List<MessageData> messages) {
    List<Object> out = new ArrayList<>();
    for (MessageData d : messages) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("Code", d.code());
      m.put("Value", d.value());
      out.add(m);
    }
    return out;
  }

  /**
   * The measurement's {@code value}: the {@code Values} of every result, as Go prints a {@code
   * [][]float64}.
   *
   * @param response the answer
   * @return for example {@code [[0.5 0.7] [3]]}
   */
  public static String text(GetMetricDataResponse response) {
    List<Object> values = new ArrayList<>();
    for (MetricDataResult r : response.metricDataResults()) {
      values.add(new ArrayList<Object>(r.values()));
    }
    return GoValues.sprint(values);
  }

  /**
   * The measurement metadata: {@code messages} with the answer's top-level messages, when it has
   * any.
   *
   * @param response the answer
   * @return for example {@code {messages=[{Code:MaxQueryTimeRangeExceed Value:...}]}}, or an empty
   *     map
   */
  public static Map<String, String> metadata(GetMetricDataResponse response) {
    if (response.messages().isEmpty()) {
      return Map.of();
    }
    StringBuilder b = new StringBuilder("[");
    for (MessageData d : response.messages()) {
      if (b.length() > 1) {
        b.append(' ');
      }
      b.append("{Code:").append(nz(d.code())).append(" Value:").append(nz(d.value())).append('}');
    }
    return Map.of("messages", b.append(']').toString());
  }
}
