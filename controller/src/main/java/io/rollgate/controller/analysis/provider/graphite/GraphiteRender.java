package io.rollgate.controller.analysis.provider.graphite;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rollgate.controller.analysis.provider.common.MetricProviderException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Graphite's render API as the Graphite provider uses it (docs/metric-providers.md, "Graphite"):
 * builds the {@code /render} URL from {@code provider.graphite.address} and {@code
 * provider.graphite.query}, and reads the first target's datapoints from the JSON answer. Pure
 * functions, no I/O.
 */
public final class GraphiteRender {

  private static final ObjectMapper JSON = new ObjectMapper();

  private GraphiteRender() {}

  /**
   * Builds the render URL: all white space is removed from the query (so a multi-line template
   * reads as one target), the query is read as URL parameters ({@code target=...&from=-5min}),
   * {@code format=json} is set, and the parameters are written back sorted by name and escaped,
   * under {@code <address path>/render}.
   *
   * @param address {@code provider.graphite.address}, an absolute http(s) URL, optionally with a
   *     path prefix
   * @param query {@code provider.graphite.query}, for example {@code
   *     target=sum(app.errors.*)&from=-5min}
   * @return the URL to GET
   * @throws MetricProviderException when the address is not an absolute URL or the query has a
   *     malformed escape
   */
  public static String url(String address, String query) {
    URI base = address(address);
    Map<String, List<String>> params = new TreeMap<>();
    String sanitized = query == null ? "" : query.replaceAll("\\s+", "");
    for (String pair : sanitized.split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      String key = unescape(eq < 0 ? pair : pair.substring(0, eq));
      String value = eq < 0 ? "" : unescape(pair.substring(eq + 1));
      params.computeIfAbsent(key, k -> new ArrayList<>()).add(value);
    }
    params.put("format", List.of("json"));
    StringBuilder encoded = new StringBuilder();
    for (Map.Entry<String, List<String>> e : params.entrySet()) {
      for (String v : e.getValue()) {
        if (encoded.length() > 0) {
          encoded.append('&');
        }
        encoded.append(escape(e.getKey())).append('=').append(escape(v));
      }
    }
    String path = base.getRawPath() == null ? "" : base.getRawPath();
    path = path.endsWith("/") ? path + "render" : path + "/render";
    String authority = base.getRawAuthority();
    return base.getScheme() + "://" + authority + path + "?" + encoded;
  }

  private static URI address(String address) {
    String message = "Graphite address " + (address == null ? "" : address) + " is not a valid URL";
    if (address == null || address.isBlank()) {
      throw new MetricProviderException(message);
    }
    try {
      URI uri = new URI(address.trim());
      String scheme = uri.getScheme();
      if (scheme == null
          || !(scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https"))
          || uri.getRawAuthority() == null) {
        throw new MetricProviderException(message);
      }
      return uri;
    } catch (URISyntaxException e) {
      throw new MetricProviderException(message, e);
    }
  }

  /**
   * Reads a render answer.
   *
   * @param status the HTTP status code
   * @param body the response body
   * @return the non-null values of the first target's datapoints, in order (nulls are gaps in the
   *     series and are skipped); empty when every datapoint is null
   * @throws MetricProviderException {@code error response: <body>} for a status of 400 or more;
   *     {@code no values found} when there is no target or the first has no datapoints; a message
   *     naming the problem for a malformed answer
   */
  public static List<Double> values(int status, String body) {
    if (status >= 400) {
      throw new MetricProviderException("error response: " + body);
    }
    JsonNode root;
    try {
      root = JSON.readTree(body == null ? "" : body);
    } catch (JsonProcessingException e) {
      throw new MetricProviderException(
          "Graphite answer is not JSON: " + e.getOriginalMessage(), e);
    }
    if (root == null || root.isMissingNode() || !root.isArray()) {
      throw new MetricProviderException(
          "Graphite answer is not a JSON array of targets: " + abbreviate(body));
    }
    if (root.isEmpty()) {
      throw new MetricProviderException("no values found");
    }
    JsonNode datapoints = root.get(0).path("datapoints");
    if (!datapoints.isMissingNode() && !datapoints.isNull() && !datapoints.isArray()) {
      throw new MetricProviderException(
          "Graphite answer: datapoints of the first target is not an array");
    }
    if (datapoints.isEmpty()) {
      throw new MetricProviderException("no values found");
    }
    List<Double> values = new ArrayList<>();
    for (JsonNode point : datapoints) {
      if (!point.isArray() || point.size() != 2) {
        throw new MetricProviderException("error unmarshaling data point: " + point);
      }
      timestamp(point.get(1));
      JsonNode v = point.get(0);
      if (v.isNull()) {
        continue;
      }
      if (v.isNumber()) {
        values.add(v.asDouble());
      } else if (v.isTextual()) {
        try {
          values.add(Double.parseDouble(v.asText().trim()));
        } catch (NumberFormatException e) {
          throw new MetricProviderException("error unmarshaling value: " + v.asText(), e);
        }
      } else {
        throw new MetricProviderException("error unmarshaling value: " + v);
      }
    }
    return values;
  }

  private static void timestamp(JsonNode ts) {
    if (ts.isNull() || ts.isNumber()) {
      return;
    }
    if (ts.isTextual()) {
      try {
        Long.parseLong(ts.asText());
        return;
      } catch (NumberFormatException e) {
        throw new MetricProviderException("error unmarshaling timestamp: " + ts.asText(), e);
      }
    }
    throw new MetricProviderException("error unmarshaling timestamp: " + ts);
  }

  /**
   * Writes the values as the measurement's {@code value}: each with six decimals, comma-separated
   * in brackets.
   *
   * @param values the values
   * @return for example {@code [12.000000,13.500000]}, or {@code []}
   */
  public static String text(List<Double> values) {
    StringBuilder b = new StringBuilder("[");
    for (Double v : values) {
      if (b.length() > 1) {
        b.append(',');
      }
      b.append(sixDecimals(v));
    }
    return b.append(']').toString();
  }

  private static String sixDecimals(double v) {
    if (Double.isNaN(v)) {
      return "NaN";
    }
    if (Double.isInfinite(v)) {
      return v > 0 ? "+Inf" : "-Inf";
    }
    return new BigDecimal(v).setScale(6, RoundingMode.HALF_EVEN).toPlainString();
  }

  private static String abbreviate(String body) {
    String b = body == null ? "" : body.strip();
    return b.length() > 200 ? b.substring(0, 200) + "..." : b;
  }

  /**
   * URL query escaping: unreserved characters kept, space as {@code +}, everything else as {@code
   * %XX}.
   */
  static String escape(String s) {
    StringBuilder b = new StringBuilder();
    for (byte raw : s.getBytes(StandardCharsets.UTF_8)) {
      int c = raw & 0xff;
      if (c >= 'a' && c <= 'z'
          || c >= 'A' && c <= 'Z'
          || c >= '0' && c <= '9'
          || c == '-'
          || c == '_'
          || c == '.'
          || c == '~') {
        b.append((char) c);
      } else if (c == ' ') {
        b.append('+');
      } else {
        b.append('%')
            .append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
            .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
      }
    }
    return b.toString();
  }

  /**
   * The inverse of {@link #escape}: {@code +} is a space, {@code %XX} a byte; a malformed escape is
   * an error.
   */
  static String unescape(String s) {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '+') {
        out.write(' ');
      } else if (c == '%') {
        int hi = i + 2 < s.length() ? Character.digit(s.charAt(i + 1), 16) : -1;
        int lo = hi >= 0 ? Character.digit(s.charAt(i + 2), 16) : -1;
        if (lo < 0) {
          String bad = s.substring(i, Math.min(s.length(), i + 3));
          throw new MetricProviderException("graphite query: invalid URL escape \"" + bad + "\"");
        }
        out.write(hi * 16 + lo);
        i += 2;
      } else {
        int cp = s.codePointAt(i);
        byte[] bytes = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8);
        out.write(bytes, 0, bytes.length);
        i += Character.charCount(cp) - 1;
      }
    }
    return out.toString(StandardCharsets.UTF_8);
  }
}
