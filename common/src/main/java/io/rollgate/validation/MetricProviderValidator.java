package io.rollgate.validation;

import io.rollgate.defaults.GoDurations;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.regex.Pattern;

/**
 * Checks the fields of the built-in metric providers that Rollgate reads from a metric's {@code
 * provider} member as plain JSON ({@code datadog}, {@code newRelic}, {@code wavefront}, {@code
 * kayenta}, {@code skywalking}, {@code graphite}, {@code influxdb}, {@code cloudWatch};
 * docs/compatibility.md §9.7): the fields each provider cannot measure without, the enumerations
 * and defaults of Argo's CRD (Datadog {@code apiVersion} {@code v1|v2}, {@code aggregator}), the
 * combinations Argo refuses when it builds the provider (Datadog {@code query} versus {@code
 * queries} and {@code formula}), and the Go durations and integers the providers parse.
 *
 * <p>Used twice: by {@link AnalysisTemplateValidator} when a template is applied (paths such as
 * {@code spec.metrics[0].provider.datadog.query}), and by the controller before each measurement,
 * after argument substitution (paths starting with the provider name). A string holding an {@code
 * {{args.NAME}}} placeholder satisfies a required field and skips the format checks, which the
 * controller repeats after substitution.
 *
 * <p>Pure: no I/O; providers not listed here give no errors.
 */
public final class MetricProviderValidator {

  /** The provider names this class checks, as they appear under {@code metrics[].provider}. */
  public static final Set<String> TYPES =
      Set.of(
          "datadog",
          "newRelic",
          "wavefront",
          "kayenta",
          "skywalking",
          "graphite",
          "influxdb",
          "cloudWatch");

  /** Argo's CRD enumeration of Datadog v2 {@code aggregator} values. */
  public static final Set<String> DATADOG_AGGREGATORS =
      Set.of("avg", "min", "max", "sum", "last", "percentile", "mean", "l2norm", "area");

  private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{[^}]*}}");

  /** CloudWatch's rule for a query id: a lowercase letter, then letters, digits and underscores. */
  private static final Pattern CLOUDWATCH_ID = Pattern.compile("[a-z][a-zA-Z0-9_]*");

  private static final Map<String, BiConsumer<Fields, String>> RULES =
      Map.of(
          "datadog", (f, interval) -> datadog(f),
          "newRelic", (f, interval) -> newRelic(f),
          "wavefront", (f, interval) -> wavefront(f),
          "kayenta", MetricProviderValidator::kayenta,
          "skywalking", (f, interval) -> skywalking(f),
          "graphite", (f, interval) -> graphite(f),
          "influxdb", (f, interval) -> influxdb(f),
          "cloudWatch", (f, interval) -> cloudWatch(f));

  private MetricProviderValidator() {}

  /**
   * Validates one provider's configuration.
   *
   * @param type the provider's name under {@code provider}, for example {@code datadog}; other
   *     names give no errors
   * @param config the provider member as decoded JSON (a {@code Map} when well formed)
   * @param path the field path of the member, for example {@code spec.metrics[0].provider.datadog}
   * @param metricInterval the metric's {@code interval} (Kayenta scopes without start times need
   *     it), or null
   * @return every problem found, each naming its field; empty when valid
   */
  public static List<FieldError> validate(
      String type, Object config, String path, String metricInterval) {
    BiConsumer<Fields, String> rule = RULES.get(type);
    if (rule == null) {
      return List.of();
    }
    List<FieldError> errors = new ArrayList<>();
    if (!(config instanceof Map<?, ?> map)) {
      errors.add(FieldError.invalid(path, config, "must be an object"));
      return errors;
    }
    rule.accept(new Fields(map, path, errors), metricInterval);
    return errors;
  }

  // ----------------------------------------------------------------------------------------------
  // providers

  private static void datadog(Fields f) {
    String version = f.string("apiVersion");
    boolean placeholderVersion = placeholder(version);
    if (version != null && !placeholderVersion && !version.equals("v1") && !version.equals("v2")) {
      f.invalid("apiVersion", version, "must be v1 or v2");
    }
    boolean v1 = version == null || version.isEmpty() || version.equals("v1");
    String query = f.string("query");
    Map<?, ?> queries = f.object("queries");
    boolean hasQuery = query != null && !query.isEmpty();
    boolean hasQueries = queries != null && !queries.isEmpty();
    if (queries != null) {
      Fields q = f.child("queries", queries);
      queries.keySet().forEach(k -> q.requiredString(String.valueOf(k)));
    }
    if (!hasQuery && !hasQueries) {
      f.required("query", "one of query or queries is required");
    } else if (hasQuery && hasQueries) {
      f.forbidden("queries", "query and queries cannot both be set");
    } else if (hasQueries && v1 && !placeholderVersion) {
      f.forbidden(
          "queries", "apiVersion v1 supports only query; set apiVersion: v2 to use queries");
    }
    String formula = f.string("formula");
    boolean hasFormula = formula != null && !formula.isEmpty();
    if (hasFormula && !hasQueries) {
      f.forbidden("formula", "formula is only valid with queries");
    }
    if (!hasFormula && queries != null && queries.size() > 1) {
      f.required("formula", "a formula is required when more than one query is given");
    }
    String aggregator = f.string("aggregator");
    if (aggregator != null && !aggregator.isEmpty() && !placeholder(aggregator)) {
      if (v1 && !placeholderVersion) {
        f.forbidden("aggregator", "aggregator is not supported by apiVersion v1");
      } else if (!DATADOG_AGGREGATORS.contains(aggregator)) {
        f.invalid(
            "aggregator",
            aggregator,
            "must be one of " + String.join(", ", sorted(DATADOG_AGGREGATORS)));
      }
    }
    f.positiveDuration("interval", false);
    f.positiveDuration("requestTimeout", false);
    Map<?, ?> secretRef = f.object("secretRef");
    if (secretRef != null) {
      Fields s = f.child("secretRef", secretRef);
      String name = s.string("name");
      if (s.bool("namespaced") && (name == null || name.isEmpty())) {
        s.required("name", "a secret name is required when namespaced is true");
      }
    }
  }

  private static void newRelic(Fields f) {
    f.requiredString("query");
    f.string("profile");
    f.integer("timeout", 0, null);
  }

  private static void wavefront(Fields f) {
    f.requiredString("address");
    f.requiredString("query");
  }

  private static void kayenta(Fields f, String metricInterval) {
    f.url("address", true);
    for (String name :
        List.of(
            "application",
            "canaryConfigName",
            "metricsAccountName",
            "configurationAccountName",
            "storageAccountName")) {
      f.requiredString(name);
    }
    Map<?, ?> threshold = f.object("threshold");
    if (threshold == null) {
      f.required("threshold", "threshold {pass, marginal} is required");
    } else {
      Fields t = f.child("threshold", threshold);
      Long pass = t.requiredInteger("pass", 0, 100L);
      Long marginal = t.requiredInteger("marginal", 0, 100L);
      if (pass != null && marginal != null && marginal > pass) {
        t.invalid("marginal", marginal, "must not be greater than pass (" + pass + ")");
      }
    }
    List<?> scopes = f.list("scopes");
    if (scopes == null || scopes.isEmpty()) {
      f.required("scopes", "at least one scope {name, controlScope, experimentScope} is required");
      return;
    }
    boolean lookback = f.bool("lookback");
    for (int i = 0; i < scopes.size(); i++) {
      Fields s = f.element("scopes", i, scopes.get(i));
      if (s == null) {
        continue;
      }
      s.requiredString("name");
      Map<?, ?> control = s.object("controlScope");
      Map<?, ?> experiment = s.object("experimentScope");
      for (String side : List.of("controlScope", "experimentScope")) {
        Map<?, ?> m = side.equals("controlScope") ? control : experiment;
        if (m == null) {
          s.required(side, side + " {scope, region, step} is required");
          continue;
        }
        Fields d = s.child(side, m);
        d.requiredString("scope");
        d.string("region");
        d.integer("step", 0, null);
        d.string("start");
        d.string("end");
      }
      if (control == null || experiment == null) {
        continue;
      }
      for (String bound : List.of("start", "end")) {
        if (empty(control.get(bound)) != empty(experiment.get(bound))) {
          s.invalid(
              "experimentScope." + bound,
              experiment.get(bound),
              "controlScope."
                  + bound
                  + " and experimentScope."
                  + bound
                  + " must both be set or both be empty");
        }
      }
      if (empty(control.get("start"))
          && !lookback
          && (metricInterval == null || metricInterval.isEmpty())) {
        s.required(
            "controlScope.start",
            "start times are required when the metric has no interval and lookback is false"
                + " (the scope starts one interval before each measurement)");
      }
    }
  }

  private static void skywalking(Fields f) {
    f.url("address", true);
    f.requiredString("query");
    f.positiveDuration("interval", true);
  }

  private static void graphite(Fields f) {
    f.url("address", true);
    f.requiredString("query");
  }

  private static void influxdb(Fields f) {
    f.string("profile");
    f.requiredString("query");
  }

  private static void cloudWatch(Fields f) {
    f.positiveDuration("interval", false);
    List<?> queries = f.list("metricDataQueries");
    if (queries == null || queries.isEmpty()) {
      f.required(
          "metricDataQueries", "at least one query {id, expression | metricStat} is required");
      return;
    }
    for (int i = 0; i < queries.size(); i++) {
      Fields q = f.element("metricDataQueries", i, queries.get(i));
      if (q == null) {
        continue;
      }
      String id = q.requiredString("id");
      if (id != null && !placeholder(id) && !CLOUDWATCH_ID.matcher(id).matches()) {
        q.invalid(
            "id",
            id,
            "must start with a lowercase letter and hold only letters, digits and underscores");
      }
      String expression = q.string("expression");
      Map<?, ?> stat = q.object("metricStat");
      boolean hasExpression = expression != null && !expression.isEmpty();
      if (hasExpression == (stat != null)) {
        q.invalid("metricStat", stat, "exactly one of expression or metricStat must be set");
      }
      q.string("label");
      q.bool("returnData");
      q.integer("period", 1, null);
      if (stat != null) {
        Fields s = q.child("metricStat", stat);
        s.requiredString("stat");
        s.string("unit");
        if (s.map().get("period") == null) {
          s.required("period", "period in seconds is required");
        } else {
          s.integer("period", 1, null);
        }
        Map<?, ?> metric = s.object("metric");
        if (metric == null) {
          s.required("metric", "metric {namespace, metricName, dimensions} is required");
        } else {
          Fields m = s.child("metric", metric);
          m.requiredString("metricName");
          m.string("namespace");
          List<?> dims = m.list("dimensions");
          for (int d = 0; dims != null && d < dims.size(); d++) {
            Fields dim = m.element("dimensions", d, dims.get(d));
            if (dim != null) {
              dim.requiredString("name");
              dim.requiredString("value");
            }
          }
        }
      }
    }
  }

  // ----------------------------------------------------------------------------------------------
  // helpers

  private static boolean placeholder(String s) {
    return s != null && PLACEHOLDER.matcher(s).find();
  }

  private static boolean empty(Object v) {
    return v == null || (v instanceof String s && s.isEmpty());
  }

  private static List<String> sorted(Set<String> values) {
    return values.stream().sorted().toList();
  }

  /**
   * Typed reads of one JSON object's members, each reporting a wrong type under the member's path.
   */
  private record Fields(Map<?, ?> map, String path, List<FieldError> errors) {

    String at(String key) {
      return path + "." + key;
    }

    Fields child(String key, Map<?, ?> value) {
      return new Fields(value, at(key), errors);
    }

    /** The list element as an object, or null (reported) when it is not one. */
    Fields element(String key, int index, Object value) {
      String p = at(key) + "[" + index + "]";
      if (value instanceof Map<?, ?> m) {
        return new Fields(m, p, errors);
      }
      errors.add(FieldError.invalid(p, value, "must be an object"));
      return null;
    }

    void invalid(String key, Object value, String detail) {
      errors.add(FieldError.invalid(at(key), value, detail));
    }

    void required(String key, String detail) {
      errors.add(FieldError.required(at(key), detail));
    }

    void forbidden(String key, String detail) {
      errors.add(FieldError.forbidden(at(key), detail));
    }

    String string(String key) {
      Object v = map.get(key);
      if (v == null || v instanceof String) {
        return (String) v;
      }
      invalid(key, v, "must be a string");
      return null;
    }

    String requiredString(String key) {
      Object v = map.get(key);
      String s = string(key);
      if (v != null && s == null) {
        return null;
      }
      if (s == null || s.isBlank()) {
        required(key, key + " is required");
        return null;
      }
      return s;
    }

    Map<?, ?> object(String key) {
      Object v = map.get(key);
      if (v == null || v instanceof Map<?, ?>) {
        return (Map<?, ?>) v;
      }
      invalid(key, v, "must be an object");
      return null;
    }

    List<?> list(String key) {
      Object v = map.get(key);
      if (v == null || v instanceof List<?>) {
        return (List<?>) v;
      }
      invalid(key, v, "must be a list");
      return null;
    }

    boolean bool(String key) {
      Object v = map.get(key);
      if (v == null || v instanceof Boolean) {
        return Boolean.TRUE.equals(v);
      }
      if (!(v instanceof String s && placeholder(s))) {
        invalid(key, v, "must be true or false");
      }
      return false;
    }

    /** An integer member within bounds; null when absent, a placeholder or reported. */
    Long integer(String key, long min, Long max) {
      Object v = map.get(key);
      if (v == null || (v instanceof String s && placeholder(s))) {
        return null;
      }
      Long value = null;
      if (v instanceof Integer || v instanceof Long || v instanceof Short) {
        value = ((Number) v).longValue();
      } else if (v instanceof String s) {
        try {
          value = Long.parseLong(s.strip());
        } catch (NumberFormatException e) {
          value = null;
        }
      }
      if (value == null) {
        invalid(key, v, "must be an integer");
        return null;
      }
      if (value < min || (max != null && value > max)) {
        invalid(
            key,
            v,
            max == null ? "must be at least " + min : "must be between " + min + " and " + max);
        return null;
      }
      return value;
    }

    Long requiredInteger(String key, long min, Long max) {
      if (map.get(key) == null) {
        required(key, key + " is required");
        return null;
      }
      return integer(key, min, max);
    }

    void positiveDuration(String key, boolean required) {
      String s = string(key);
      if (s == null || s.isEmpty()) {
        if (required && !map.containsKey(key) || required && s != null) {
          required(key, key + " is required, a duration such as 5m");
        }
        return;
      }
      if (placeholder(s)) {
        return;
      }
      Optional<Duration> d = GoDurations.parse(s);
      if (d.isEmpty() || d.get().isNegative() || d.get().isZero()) {
        invalid(key, s, "must be a positive duration such as 30s, 5m or 1h");
      }
    }

    void url(String key, boolean required) {
      String s = required ? requiredString(key) : string(key);
      if (s == null || s.isEmpty() || placeholder(s)) {
        return;
      }
      try {
        URI uri = new URI(s);
        String scheme = uri.getScheme();
        if (scheme == null
            || !(scheme.equals("http") || scheme.equals("https"))
            || uri.getHost() == null
            || uri.getHost().isEmpty()) {
          invalid(key, s, "must be an absolute http or https URL");
        }
      } catch (URISyntaxException e) {
        invalid(key, s, "must be an absolute http or https URL: " + e.getReason());
      }
    }
  }
}
