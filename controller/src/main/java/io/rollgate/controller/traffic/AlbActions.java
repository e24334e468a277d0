package io.rollgate.controller.traffic;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rollgate.api.ModelJson;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The JSON values of the AWS Load Balancer Controller annotations an ALB-routed Rollout writes on
 * its Ingresses (docs/traffic-routers.md, "AWS ALB"): the forward action ({@code
 * <prefix>/actions.<service>}), the header conditions ({@code <prefix>/conditions.<route>}) and the
 * bookkeeping annotation {@code rollouts.argoproj.io/managed-alb-annotations}.
 *
 * <p>Tools that read these annotations (the load balancer controller, Argo Rollouts itself,
 * dashboards) compare them as text, so the values are written byte for byte as Argo Rollouts writes
 * them: the same key order and names, no whitespace, {@code <}, {@code >} and {@code &} written as
 * six-character unicode escapes (as Go does), and the keys of the bookkeeping map sorted. Pure
 * functions; no I/O.
 */
public final class AlbActions {

  /**
   * The bookkeeping annotation: Rollout name to the annotation keys it manages on this Ingress (a
   * JSON object).
   */
  public static final String MANAGED_ANNOTATIONS = "rollouts.argoproj.io/managed-alb-annotations";

  /**
   * The earlier bookkeeping annotation ({@code rollout:action,...}), removed whenever a Rollout is
   * released.
   */
  public static final String MANAGED_ACTIONS_LEGACY = "rollouts.argoproj.io/managed-alb-actions";

  /** {@code trafficRouting.alb.annotationPrefix} default. */
  public static final String DEFAULT_PREFIX = "alb.ingress.kubernetes.io";

  /** The key infix of an action annotation. */
  public static final String ACTION_INFIX = "/actions.";

  /** The key infix of a condition annotation. */
  public static final String CONDITION_INFIX = "/conditions.";

  /** Longest target group stickiness the AWS API accepts, in seconds (7 days). */
  public static final long MAX_STICKINESS_SECONDS = 604800;

  private static final ObjectMapper JSON = ModelJson.mapper();

  private AlbActions() {}

  /**
   * One weighted destination of a forward action.
   *
   * @param serviceName the Kubernetes Service (left out of the JSON when empty, as Argo does)
   * @param servicePort the Service port, as text
   * @param weight the weight, 0 to 999
   */
  public record TargetGroup(String serviceName, String servicePort, long weight) {}

  /**
   * Builds a forward action: {@code {"Type":"forward","ForwardConfig":{"TargetGroups":[...]}}},
   * with {@code "TargetGroupStickinessConfig":{"Enabled":true,"DurationSeconds":n}} when stickiness
   * is on.
   *
   * @param groups the target groups, in order (Argo: canary, additional destinations, stable)
   * @param stickinessSeconds the stickiness duration in seconds, or null when stickiness is off
   * @return the annotation value
   */
  public static String forwardAction(List<TargetGroup> groups, Long stickinessSeconds) {
    StringBuilder b =
        new StringBuilder("{\"Type\":\"forward\",\"ForwardConfig\":{\"TargetGroups\":[");
    for (int i = 0; i < groups.size(); i++) {
      TargetGroup g = groups.get(i);
      if (i > 0) {
        b.append(',');
      }
      b.append('{');
      boolean first = true;
      if (g.serviceName() != null && !g.serviceName().isEmpty()) {
        b.append("\"ServiceName\":");
        string(b, g.serviceName());
        first = false;
      }
      if (g.servicePort() != null && !g.servicePort().isEmpty()) {
        b.append(first ? "" : ",").append("\"ServicePort\":");
        string(b, g.servicePort());
        first = false;
      }
      b.append(first ? "" : ",").append("\"Weight\":").append(g.weight()).append('}');
    }
    b.append(']');
    if (stickinessSeconds != null) {
      b.append(",\"TargetGroupStickinessConfig\":{\"Enabled\":true,\"DurationSeconds\":")
          .append(stickinessSeconds)
          .append('}');
    }
    return b.append("}}").toString();
  }

  /**
   * One header condition: requests whose header {@code name} has one of {@code values}.
   *
   * @param name the header name
   * @param values the accepted values (ALB wildcards {@code *} and {@code ?} allowed)
   */
  public record HeaderCondition(String name, List<String> values) {}

  /**
   * Builds a conditions value: {@code
   * [{"field":"http-header","httpHeaderConfig":{"httpHeaderName":..,"values":[..]}}]}.
   *
   * @param conditions the conditions, in order; at least one
   * @return the annotation value
   */
  public static String conditions(List<HeaderCondition> conditions) {
    StringBuilder b = new StringBuilder("[");
    for (int i = 0; i < conditions.size(); i++) {
      HeaderCondition c = conditions.get(i);
      b.append(i > 0 ? "," : "")
          .append("{\"field\":\"http-header\",\"httpHeaderConfig\":{\"httpHeaderName\":");
      string(b, c.name());
      b.append(",\"values\":[");
      for (int j = 0; j < c.values().size(); j++) {
        if (j > 0) {
          b.append(',');
        }
        string(b, c.values().get(j));
      }
      b.append("]}}");
    }
    return b.append(']').toString();
  }

  /**
   * Reads the bookkeeping annotation.
   *
   * @param value the annotation value, or null
   * @return Rollout name to managed annotation keys, in the stored order (empty when absent)
   * @throws IllegalArgumentException when the value is not a JSON object of string arrays
   */
  public static Map<String, List<String>> parseManaged(String value) {
    Map<String, List<String>> out = new LinkedHashMap<>();
    if (value == null || value.isEmpty()) {
      return out;
    }
    JsonNode root;
    try {
      root = JSON.readTree(value);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(
          "annotation " + MANAGED_ANNOTATIONS + " is not valid JSON: " + e.getOriginalMessage());
    }
    if (!root.isObject()) {
      throw new IllegalArgumentException(
          "annotation " + MANAGED_ANNOTATIONS + " is not a JSON object");
    }
    var fields = root.fields();
    while (fields.hasNext()) {
      var e = fields.next();
      List<String> keys = new ArrayList<>();
      if (e.getValue().isArray()) {
        for (JsonNode k : e.getValue()) {
          if (!k.isTextual()) {
            throw new IllegalArgumentException(
                "annotation "
                    + MANAGED_ANNOTATIONS
                    + ": entry `"
                    + e.getKey()
                    + "` holds a value that is not a string");
          }
          keys.add(k.asText());
        }
      } else if (!e.getValue().isNull()) {
        throw new IllegalArgumentException(
            "annotation "
                + MANAGED_ANNOTATIONS
                + ": entry `"
                + e.getKey()
                + "` is not a list of annotation keys");
      }
      out.put(e.getKey(), keys);
    }
    return out;
  }

  /**
   * Writes the bookkeeping annotation: a JSON object with the Rollout names sorted, each a list of
   * keys in order.
   *
   * @param managed Rollout name to managed keys
   * @return the annotation value
   */
  public static String formatManaged(Map<String, List<String>> managed) {
    StringBuilder b = new StringBuilder("{");
    boolean first = true;
    for (Map.Entry<String, List<String>> e : new TreeMap<>(managed).entrySet()) {
      b.append(first ? "" : ",");
      first = false;
      string(b, e.getKey());
      b.append(":[");
      for (int i = 0; i < e.getValue().size(); i++) {
        if (i > 0) {
          b.append(',');
        }
        string(b, e.getValue().get(i));
      }
      b.append(']');
    }
    return b.append('}').toString();
  }

  /**
   * Reads the target groups of a forward action (to find a Service's port when an action is reset).
   *
   * @param value the annotation value
   * @return the target groups in order (weight 0 when absent)
   * @throws IllegalArgumentException when the value is not a forward action
   */
  public static List<TargetGroup> parseTargetGroups(String value) {
    JsonNode root;
    try {
      root = JSON.readTree(value == null ? "" : value);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("ALB action is not valid JSON: " + e.getOriginalMessage());
    }
    if (root == null || !root.path("ForwardConfig").path("TargetGroups").isArray()) {
      throw new IllegalArgumentException("ALB action has no ForwardConfig.TargetGroups");
    }
    List<TargetGroup> out = new ArrayList<>();
    for (JsonNode g : root.path("ForwardConfig").path("TargetGroups")) {
      out.add(
          new TargetGroup(
              g.path("ServiceName").asText(""),
              g.path("ServicePort").asText(""),
              g.path("Weight").asLong(0)));
    }
    return out;
  }

  /**
   * Reads the stickiness duration of a forward action.
   *
   * @param value the annotation value
   * @return the duration in seconds, or null when the action has no stickiness configuration
   */
  public static Long parseStickiness(String value) {
    try {
      JsonNode s =
          JSON.readTree(value == null ? "" : value)
              .path("ForwardConfig")
              .path("TargetGroupStickinessConfig");
      return s.isObject() ? s.path("DurationSeconds").asLong() : null;
    } catch (JsonProcessingException e) {
      return null;
    }
  }

  /**
   * Appends a JSON string the way Go's {@code encoding/json} writes it: short escapes for {@code \b
   * \f \n \r \t}, a six-character unicode escape (lower-case hex) for other control characters and
   * for {@code < > &} and U+2028/U+2029.
   */
  static void string(StringBuilder b, String s) {
    b.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\b' -> b.append("\\b");
        case '\f' -> b.append("\\f");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        case '<', '>', '&', '\u2028', '\u2029' -> b.append(String.format("\\u%04x", (int) c));
        default -> {
          if (c < 0x20) {
            b.append(String.format("\\u%04x", (int) c));
          } else {
            b.append(c);
          }
        }
      }
    }
    b.append('"');
  }
}
