package io.rollgate.plugins.cijob;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The configuration of a {@code ci-job} step: {@code steps[].plugin.config} of the Rollout.
 *
 * <pre>
 * - plugin:
 *     name: example/ci-job
 *     config:
 *       url: https://ci.example.com       # base URL of the CI server's job API
 *       job: smoke-tests                  # the job to start
 *       parameters: {env: staging}        # job parameters (strings), optional
 *       tokenSecret: {name: ci, key: token}  # bearer token from a Secret in the Rollout's namespace, optional
 *       pollIntervalSeconds: 15           # seconds between two polls (over 10; default 15)
 *       timeoutSeconds: 10                # timeout of one request to the CI server (default 10)
 * </pre>
 *
 * @param url the CI server's base URL ({@code http} or {@code https})
 * @param job the job name
 * @param parameters the job parameters, in order (never null)
 * @param tokenSecretName the Secret holding the bearer token, or null for no token
 * @param tokenSecretKey the key in that Secret's data
 * @param pollIntervalSeconds seconds between two polls of a running job
 * @param timeoutSeconds timeout of one HTTP request, seconds
 */
public record CiJobConfig(
    String url,
    String job,
    Map<String, String> parameters,
    String tokenSecretName,
    String tokenSecretKey,
    long pollIntervalSeconds,
    long timeoutSeconds) {

  /** Default seconds between two polls. */
  public static final long DEFAULT_POLL_SECONDS = 15;

  /** Default timeout of one request, seconds. */
  public static final long DEFAULT_TIMEOUT_SECONDS = 10;

  /**
   * The JSON Schema of the configuration, as the plugin declares it ({@code info.configSchema}).
   */
  public static final String SCHEMA =
      """
      {"type": "object",
       "required": ["url", "job"],
       "properties": {
         "url": {"type": "string", "pattern": "^https?://"},
         "job": {"type": "string", "minLength": 1},
         "parameters": {"type": "object", "additionalProperties": {"type": "string"}},
         "tokenSecret": {"type": "object", "required": ["name"],
                         "properties": {"name": {"type": "string"}, "key": {"type": "string"}}},
         "pollIntervalSeconds": {"type": "integer", "minimum": 11},
         "timeoutSeconds": {"type": "integer", "minimum": 1}}}
      """;

  /**
   * Reads the configuration.
   *
   * @param config the step's {@code plugin.config}
   * @return the configuration
   * @throws IllegalArgumentException naming the field and the reason when the configuration is not
   *     usable
   */
  public static CiJobConfig parse(JsonNode config) {
    if (config == null || !config.isObject()) {
      throw new IllegalArgumentException("config: must be an object with url and job");
    }
    String url = text(config, "config.", "url", true);
    try {
      URI u = new URI(url);
      if (!"http".equals(u.getScheme()) && !"https".equals(u.getScheme()) || u.getHost() == null) {
        throw new IllegalArgumentException(
            "config.url: must be an http(s) URL with a host, got " + url);
      }
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("config.url: not a URL: " + e.getMessage(), e);
    }
    String job = text(config, "config.", "job", true);
    if (job.isBlank()) {
      throw new IllegalArgumentException("config.job: must not be empty");
    }
    Map<String, String> parameters = new LinkedHashMap<>();
    JsonNode p = config.get("parameters");
    if (p != null && !p.isNull()) {
      if (!p.isObject()) {
        throw new IllegalArgumentException("config.parameters: must be an object of strings");
      }
      p.fields()
          .forEachRemaining(
              e -> {
                if (!e.getValue().isValueNode()) {
                  throw new IllegalArgumentException(
                      "config.parameters." + e.getKey() + ": must be a string");
                }
                parameters.put(e.getKey(), e.getValue().asText());
              });
    }
    String secretName = null;
    String secretKey = null;
    JsonNode s = config.get("tokenSecret");
    if (s != null && !s.isNull()) {
      if (!s.isObject()) {
        throw new IllegalArgumentException(
            "config.tokenSecret: must be an object with name and key");
      }
      secretName = text(s, "config.tokenSecret.", "name", true);
      String key = text(s, "config.tokenSecret.", "key", false);
      secretKey = key == null ? "token" : key;
    }
    long poll = seconds(config, "pollIntervalSeconds", DEFAULT_POLL_SECONDS, 11);
    long timeout = seconds(config, "timeoutSeconds", DEFAULT_TIMEOUT_SECONDS, 1);
    return new CiJobConfig(
        url.endsWith("/") ? url.substring(0, url.length() - 1) : url,
        job,
        Map.copyOf(parameters),
        secretName,
        secretKey,
        poll,
        timeout);
  }

  private static String text(JsonNode node, String prefix, String field, boolean required) {
    JsonNode v = node.get(field);
    if (v == null || v.isNull()) {
      if (required) {
        throw new IllegalArgumentException(prefix + field + ": required");
      }
      return null;
    }
    if (!v.isTextual()) {
      throw new IllegalArgumentException(prefix + field + ": must be a string");
    }
    return v.asText();
  }

  private static long seconds(JsonNode node, String field, long fallback, long min) {
    JsonNode v = node.get(field);
    if (v == null || v.isNull()) {
      return fallback;
    }
    if (!v.canConvertToLong() || !v.isIntegralNumber()) {
      throw new IllegalArgumentException("config." + field + ": must be a whole number of seconds");
    }
    if (v.asLong() < min) {
      throw new IllegalArgumentException("config." + field + ": must be at least " + min);
    }
    return v.asLong();
  }
}
