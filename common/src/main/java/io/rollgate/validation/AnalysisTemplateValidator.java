package io.rollgate.validation;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.rollgate.api.AnalysisTemplateSpec;
import io.rollgate.api.Argument;
import io.rollgate.api.Metric;
import io.rollgate.api.MetricProviderConfig;
import io.rollgate.api.ModelJson;
import io.rollgate.defaults.GoDurations;
import io.rollgate.expr.Expression;
import io.rollgate.expr.ExpressionSyntaxException;
import io.rollgate.plugin.PluginRegistry;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Static validation of an AnalysisTemplate or ClusterAnalysisTemplate spec (docs/compatibility.md
 * §9.2, §9.3): every metric has a unique name and exactly one provider; its {@code
 * successCondition} and {@code failureCondition} parse in the condition language (the message gives
 * the line:column); {@code count}, {@code interval} and the limits are consistent (Argo's {@code
 * ValidateMetric} rules: limits not negative, {@code failureLimit} -1 disables it, a {@code count}
 * above 1 needs an {@code interval}, {@code count} at least the limits it must leave room for);
 * durations are Go durations; arguments have unique names; every {@code {{args.NAME}}} placeholder
 * anywhere in the metrics names a declared argument; and the built-in providers Rollgate keeps as
 * plain JSON (Datadog, New Relic, Wavefront, Kayenta, SkyWalking, Graphite, InfluxDB, CloudWatch)
 * have their required fields ({@link MetricProviderValidator}).
 *
 * <p>Fields holding a placeholder ({@code count: "{{args.count}}"}) are checked only after
 * substitution, at run time.
 */
public final class AnalysisTemplateValidator {

  private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{\\s*args\\.([^}\\s]*)\\s*}}");

  /** Argo's default {@code consecutiveErrorLimit}. */
  private static final int DEFAULT_CONSECUTIVE_ERROR_LIMIT = 4;

  private static final Pattern ANY_PLACEHOLDER = Pattern.compile("\\{\\{[^}]*}}");

  private AnalysisTemplateValidator() {}

  /**
   * Validates the spec of an AnalysisTemplate or ClusterAnalysisTemplate.
   *
   * @param spec the spec, or null
   * @return every problem found, each with its field path; empty when valid
   */
  public static List<FieldError> validate(AnalysisTemplateSpec spec) {
    if (spec == null) {
      return List.of(FieldError.required("spec", "missing field '.spec'"));
    }
    return validate(
        spec.getMetrics(),
        spec.getArgs(),
        spec.getTemplates() != null && !spec.getTemplates().isEmpty());
  }

  /**
   * Validates a template's spec.
   *
   * @param metrics {@code spec.metrics}
   * @param args {@code spec.args}
   * @param hasTemplates whether {@code spec.templates} references other templates (then metrics may
   *     be empty)
   * @return every problem found, each with its field path; empty when valid
   */
  public static List<FieldError> validate(
      List<Metric> metrics, List<Argument> args, boolean hasTemplates) {
    List<FieldError> errors = new ArrayList<>();
    Set<String> declared = new HashSet<>();
    if (args != null) {
      for (int i = 0; i < args.size(); i++) {
        Argument a = args.get(i);
        String p = "spec.args[" + i + "]";
        if (a == null || a.getName() == null || a.getName().isEmpty()) {
          errors.add(FieldError.required(p + ".name", "argument name is required"));
        } else if (!declared.add(a.getName())) {
          errors.add(FieldError.invalid(p + ".name", a.getName(), "Duplicate value"));
        }
      }
    }
    if (metrics == null || metrics.isEmpty()) {
      if (!hasTemplates) {
        errors.add(FieldError.required("spec.metrics", "at least one metric is required"));
      }
      return errors;
    }
    Map<String, Integer> names = new HashMap<>();
    for (int i = 0; i < metrics.size(); i++) {
      Metric m = metrics.get(i);
      String p = "spec.metrics[" + i + "]";
      if (m == null) {
        errors.add(FieldError.required(p, "metric must not be null"));
        continue;
      }
      if (m.getName() == null || m.getName().isEmpty()) {
        errors.add(FieldError.required(p + ".name", "metric name is required"));
      } else {
        Integer first = names.putIfAbsent(m.getName(), i);
        if (first != null) {
          errors.add(
              FieldError.invalid(
                  p + ".name",
                  m.getName(),
                  "Duplicate value: also the name of spec.metrics[" + first + "]"));
        }
      }
      providers(p + ".provider", m.getProvider(), m.getInterval(), errors);
      condition(p + ".successCondition", m.getSuccessCondition(), errors);
      condition(p + ".failureCondition", m.getFailureCondition(), errors);
      limits(p, m, errors);
      placeholders(p, ModelJson.mapper().valueToTree(m), declared, errors);
    }
    return errors;
  }

  private static void providers(
      String path, MetricProviderConfig provider, String interval, List<FieldError> errors) {
    List<String> types = new ArrayList<>();
    if (provider != null) {
      if (provider.getPrometheus() != null) {
        types.add("prometheus");
      }
      if (provider.getWeb() != null) {
        types.add("web");
      }
      if (provider.getJob() != null) {
        types.add("job");
      }
      provider
          .getAdditionalProperties()
          .forEach(
              (k, v) -> {
                if (v != null) {
                  types.add(k);
                }
              });
    }
    if (types.isEmpty()) {
      errors.add(
          FieldError.required(
              path,
              "exactly one provider is required (prometheus, web, job, datadog, ..., plugin)"));
      return;
    }
    if (types.size() > 1) {
      errors.add(
          FieldError.invalid(path, String.join(", ", types), "exactly one provider may be set"));
      return;
    }
    String type = types.get(0);
    errors.addAll(
        MetricProviderValidator.validate(
            type, provider.getAdditionalProperties().get(type), path + "." + type, interval));
    if (type.equals("plugin")) {
      Object plugin = provider.getAdditionalProperties().get("plugin");
      if (!(plugin instanceof Map<?, ?> map) || map.size() != 1) {
        errors.add(
            FieldError.invalid(
                path + ".plugin",
                String.valueOf(plugin),
                "must name exactly one plugin: {<org>/<name>: <config>}"));
      } else {
        String name = String.valueOf(map.keySet().iterator().next());
        if (!PluginRegistry.NAME.matcher(name).matches()) {
          errors.add(
              FieldError.invalid(
                  path + ".plugin",
                  name,
                  "plugin name must be in the format of <namespace>/<name>"));
        }
      }
    }
  }

  private static void condition(String path, String source, List<FieldError> errors) {
    if (source == null || source.isBlank()) {
      return;
    }
    try {
      Expression.parse(neutralize(source));
    } catch (ExpressionSyntaxException e) {
      errors.add(FieldError.invalid(path, source, "does not parse: " + e.getMessage()));
    }
  }

  /**
   * Replaces each {@code {{...}}} placeholder by a number literal padded to the same length, so
   * that a condition can be parsed before substitution and the positions in a syntax error still
   * point into the text as written.
   */
  static String neutralize(String source) {
    Matcher m = ANY_PLACEHOLDER.matcher(source);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      m.appendReplacement(out, Matcher.quoteReplacement("0" + " ".repeat(m.group().length() - 1)));
    }
    m.appendTail(out);
    return out.toString();
  }

  private static void limits(String p, Metric m, List<FieldError> errors) {
    Integer count = number(p + ".count", m.getCount(), 0, 0, errors);
    Integer failure = number(p + ".failureLimit", m.getFailureLimit(), -1, 0, errors);
    Integer inconclusive = number(p + ".inconclusiveLimit", m.getInconclusiveLimit(), 0, 0, errors);
    number(
        p + ".consecutiveErrorLimit",
        m.getConsecutiveErrorLimit(),
        0,
        DEFAULT_CONSECUTIVE_ERROR_LIMIT,
        errors);
    Integer consecutiveSuccess =
        number(p + ".consecutiveSuccessLimit", m.getConsecutiveSuccessLimit(), 0, 0, errors);
    boolean intervalSet = m.getInterval() != null && !m.getInterval().isEmpty();
    duration(p + ".interval", m.getInterval(), errors);
    duration(p + ".initialDelay", m.getInitialDelay(), errors);
    int f = failure == null ? 0 : failure;
    int s = consecutiveSuccess == null ? 0 : consecutiveSuccess;
    if (failure != null
        && consecutiveSuccess != null
        && f == -1
        && s == 0
        && m.getFailureLimit() != null) {
      errors.add(
          FieldError.invalid(
              p + ".failureLimit",
              -1,
              "failureLimit and consecutiveSuccessLimit cannot both be disabled"));
    }
    if (count == null || count <= 0) {
      return;
    }
    if (failure != null && consecutiveSuccess != null && f >= 0 && count < f + s) {
      errors.add(
          FieldError.invalid(
              p + ".count",
              count,
              "must be >= failureLimit + consecutiveSuccessLimit (" + f + " + " + s + ")"));
    } else if (failure != null && consecutiveSuccess != null && f < 0 && count < s) {
      errors.add(
          FieldError.invalid(
              p + ".count", count, "must be >= consecutiveSuccessLimit (" + s + ")"));
    }
    if (inconclusive != null && count < inconclusive) {
      errors.add(
          FieldError.invalid(
              p + ".count", count, "must be >= inconclusiveLimit (" + inconclusive + ")"));
    }
    if (count > 1 && !intervalSet) {
      errors.add(FieldError.required(p + ".interval", "interval must be specified when count > 1"));
    }
  }

  /**
   * The value ({@code absent} when the field is absent), or null when it is a placeholder (checked
   * after substitution, at run time) or invalid (reported).
   */
  private static Integer number(
      String path, IntOrString v, int min, int absent, List<FieldError> errors) {
    if (v == null || (v.getIntVal() == null && v.getStrVal() == null)) {
      return absent;
    }
    int value;
    if (v.getIntVal() != null) {
      value = v.getIntVal();
    } else {
      String s = v.getStrVal().strip();
      if (ANY_PLACEHOLDER.matcher(s).find()) {
        return null;
      }
      try {
        value = Integer.parseInt(s);
      } catch (NumberFormatException e) {
        errors.add(
            FieldError.invalid(
                path, v.getStrVal(), "must be an integer or an {{args.NAME}} placeholder"));
        return null;
      }
    }
    if (value < min) {
      errors.add(
          FieldError.invalid(
              path,
              value,
              min == -1
                  ? "must be >= 0, or -1 to be disabled"
                  : "must be greater than or equal to " + min));
      return null;
    }
    return value;
  }

  private static void duration(String path, String text, List<FieldError> errors) {
    if (text == null || text.isEmpty() || ANY_PLACEHOLDER.matcher(text).find()) {
      return;
    }
    if (GoDurations.parse(text).map(d -> d.isNegative()).orElse(true)) {
      errors.add(FieldError.invalid(path, text, "must be a duration such as 30s, 5m or 1h"));
    }
  }

  private static void placeholders(
      String path, JsonNode node, Set<String> declared, List<FieldError> errors) {
    if (node == null) {
      return;
    }
    if (node.isTextual()) {
      Matcher m = PLACEHOLDER.matcher(node.asText());
      while (m.find()) {
        if (!declared.contains(m.group(1))) {
          errors.add(
              FieldError.invalid(
                  path, m.group(), "argument \"" + m.group(1) + "\" is not declared in spec.args"));
        }
      }
    } else if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        placeholders(path + "[" + i + "]", node.get(i), declared, errors);
      }
    } else if (node.isObject()) {
      for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        placeholders(path + "." + e.getKey(), e.getValue(), declared, errors);
      }
    }
  }
}
