package io.rollgate.plugin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaException;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import com.networknt.schema.path.NodePath;
import io.rollgate.api.CanaryStep;
import io.rollgate.api.CanaryStrategy;
import io.rollgate.api.Rollout;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Checks plugin configurations against the JSON Schema a plugin declares ({@code configSchema} of
 * its registration, docs/plugins.md "Configuration schema"), and checks such schemas themselves.
 * Used by the admission webhook on {@code kubectl apply} and by the controller before a plugin's
 * first call, so both report the same messages.
 *
 * <p>Schemas follow JSON Schema draft 2020-12 unless they name another draft in {@code $schema}
 * (drafts 4, 6, 7 and 2019-09 are understood). {@code $ref} to remote documents is never fetched: a
 * schema must be self-contained. Every problem names the full field path of the offending value,
 * {@code <base>.<property>[<index>]...}, where the base is for example {@code
 * spec.strategy.canary.steps[2].plugin.config}; a missing required property is reported at the
 * property's own path ({@code ...config.url: required property 'url' not found}). Problems come
 * sorted by path.
 *
 * <p>Thread-safe. Each instance keeps its own cache of compiled schemas, keyed by the schema's
 * content and bounded (at most {@value #DEFAULT_CACHE_LIMIT} by default; the cache is emptied when
 * full), since schemas come from the plugin registry a user writes. Hold one instance per program
 * part that checks configurations (the admission handler, the Rollout reconciler), so that its
 * cache lives and dies with it.
 */
public final class PluginConfigSchemas {

  /** The dialect assumed when a schema has no {@code $schema}. */
  public static final SpecificationVersion DEFAULT_DIALECT = SpecificationVersion.DRAFT_2020_12;

  /** The number of compiled schemas an instance keeps by default. */
  public static final int DEFAULT_CACHE_LIMIT = 256;

  private static final int VALUE_TEXT_LIMIT = 60;
  private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_$][A-Za-z0-9_$-]*");

  /**
   * Loads the meta-schemas and compiles schemas; remote {@code $ref}s are never fetched. Built on
   * first use ({@code registry()}): most processes never meet a plugin with a schema, and the
   * validator library loads about two hundred classes.
   */
  private volatile SchemaRegistry registry;

  private final Map<JsonNode, Compiled> cache = new ConcurrentHashMap<>();
  private final int cacheLimit;

  /** A compiled schema, or the reason it does not compile. */
  private record Compiled(Schema schema, String problem) {}

  /**
   * One configuration problem.
   *
   * @param path the full field path of the offending value, for example {@code
   *     spec.strategy.canary.steps[2].plugin.config.url}
   * @param keyword the JSON Schema keyword that failed ({@code required}, {@code type}, ...)
   * @param message the reason, for example {@code required property 'url' not found}
   * @param value the offending value, or null when the value is absent (a missing required
   *     property)
   */
  public record Violation(String path, String keyword, String message, JsonNode value) {

    /**
     * The offending value as short text: strings quoted, anything longer than 60 characters
     * abbreviated.
     *
     * @return the text, or null when the value is absent
     */
    public String valueText() {
      if (value == null || value.isMissingNode()) {
        return null;
      }
      String s = value.toString();
      return s.length() > VALUE_TEXT_LIMIT ? s.substring(0, VALUE_TEXT_LIMIT - 3) + "..." : s;
    }

    /**
     * Renders the problem as {@code <path>: <message>}.
     *
     * @return the text
     */
    @Override
    public String toString() {
      return path + ": " + message;
    }
  }

  /** Creates a checker whose cache keeps at most {@value #DEFAULT_CACHE_LIMIT} compiled schemas. */
  public PluginConfigSchemas() {
    this(DEFAULT_CACHE_LIMIT);
  }

  /**
   * Creates a checker with a cache of a given size.
   *
   * @param cacheLimit the number of compiled schemas kept, at least 1
   */
  PluginConfigSchemas(int cacheLimit) {
    if (cacheLimit < 1) {
      throw new IllegalArgumentException("cacheLimit must be at least 1, got " + cacheLimit);
    }
    this.cacheLimit = cacheLimit;
  }

  /**
   * Checks that a registration's {@code configSchema} is a usable JSON Schema: it must be a JSON
   * object, match the meta-schema of its dialect, name a known dialect in {@code $schema} when it
   * names one, and compile (its {@code $ref}s resolve inside the document, its {@code pattern}s are
   * regular expressions).
   *
   * @param schema the schema
   * @param path the field path of the schema, for example {@code data.stepPlugins[0].configSchema}
   * @return every problem found, each naming the path inside the schema; empty when usable
   */
  public List<Violation> checkSchema(JsonNode schema, String path) {
    List<Violation> problems = new ArrayList<>();
    if (schema == null || !schema.isObject()) {
      problems.add(
          new Violation(
              path, "type", "must be a JSON Schema object", schema == null ? null : schema));
      return problems;
    }
    SpecificationVersion dialect = DEFAULT_DIALECT;
    JsonNode declared = schema.get("$schema");
    if (declared != null) {
      Optional<SpecificationVersion> known =
          declared.isTextual()
              ? SpecificationVersion.fromDialectId(declared.asText())
              : Optional.empty();
      if (known.isEmpty()) {
        problems.add(
            new Violation(
                path + ".$schema",
                "$schema",
                "unknown JSON Schema dialect (known: draft-04, draft-06, draft-07, 2019-09, 2020-12)",
                declared));
        return problems;
      }
      dialect = known.get();
    }
    Schema meta = registry().getSchema(SchemaLocation.of(dialect.getDialectId()));
    Set<String> seen = new LinkedHashSet<>();
    for (Error e : meta.validate(schema)) {
      Violation v = violation(path, e);
      if (seen.add(v.toString())) {
        problems.add(v);
      }
    }
    problems.sort(Comparator.comparing(Violation::path));
    if (problems.isEmpty()) {
      Compiled compiled = compile(schema);
      if (compiled.problem() != null) {
        problems.add(new Violation(path, "$ref", compiled.problem(), schema));
      }
    }
    return problems;
  }

  /**
   * Validates one plugin configuration against a schema.
   *
   * @param schema the plugin's {@code configSchema} (a JSON object)
   * @param config the configuration; null (absent) is checked as an empty object, so that {@code
   *     required} properties are reported
   * @param path the field path of the configuration, for example {@code
   *     spec.strategy.canary.steps[2].plugin.config}
   * @return every problem, each with the full field path; empty when the configuration matches
   * @throws IllegalArgumentException when the schema itself cannot be used (see {@link
   *     #checkSchema}); the message says why
   */
  public List<Violation> validate(JsonNode schema, JsonNode config, String path) {
    Compiled compiled = compile(schema);
    if (compiled.problem() != null) {
      throw new IllegalArgumentException("not a usable JSON Schema: " + compiled.problem());
    }
    JsonNode instance =
        config == null || config.isMissingNode() ? JsonNodeFactory.instance.objectNode() : config;
    List<Violation> problems = new ArrayList<>();
    Set<String> seen = new LinkedHashSet<>();
    for (Error e : compiled.schema().validate(instance)) {
      Violation v = violation(path, e);
      if (seen.add(v.toString())) {
        problems.add(v);
      }
    }
    problems.sort(Comparator.comparing(Violation::path));
    return problems;
  }

  /**
   * The outcome of checking a Rollout's plugin configurations.
   *
   * @param violations configurations that do not match their plugin's schema
   * @param unchecked why some configurations could not be checked (a registered schema that is not
   *     usable), each starting with the field path
   */
  public record RolloutResult(List<Violation> violations, List<String> unchecked) {}

  /**
   * Validates every plugin configuration of a Rollout against its registered plugin's {@code
   * configSchema}: canary {@code steps[i].plugin.config} against the step plugin's, and {@code
   * trafficRouting.plugins[<name>]} against the traffic-router plugin's. Plugins that are not
   * registered, or registered without a schema, are skipped (the reference check reports unknown
   * names).
   *
   * @param rollout the Rollout
   * @param registry the plugin registry
   * @return the violations and the configurations left unchecked
   */
  public RolloutResult validate(Rollout rollout, PluginRegistry registry) {
    List<Violation> violations = new ArrayList<>();
    List<String> unchecked = new ArrayList<>();
    CanaryStrategy canary =
        rollout.getSpec() == null || rollout.getSpec().getStrategy() == null
            ? null
            : rollout.getSpec().getStrategy().getCanary();
    if (canary == null) {
      return new RolloutResult(violations, unchecked);
    }
    if (canary.getSteps() != null) {
      for (int i = 0; i < canary.getSteps().size(); i++) {
        CanaryStep step = canary.getSteps().get(i);
        if (step != null && step.getPlugin() != null && step.getPlugin().getName() != null) {
          check(
              registry.find(PluginKind.STEP, step.getPlugin().getName()),
              step.getPlugin().getConfig(),
              "spec.strategy.canary.steps[" + i + "].plugin.config",
              violations,
              unchecked);
        }
      }
    }
    if (canary.getTrafficRouting() != null && canary.getTrafficRouting().getPlugins() != null) {
      for (Map.Entry<String, JsonNode> e : canary.getTrafficRouting().getPlugins().entrySet()) {
        check(
            registry.find(PluginKind.TRAFFIC_ROUTER, e.getKey()),
            e.getValue(),
            "spec.strategy.canary.trafficRouting.plugins[" + e.getKey() + "]",
            violations,
            unchecked);
      }
    }
    return new RolloutResult(violations, unchecked);
  }

  private void check(
      Optional<PluginEntry> entry,
      JsonNode config,
      String path,
      List<Violation> violations,
      List<String> unchecked) {
    if (entry.isEmpty() || entry.get().configSchema() == null) {
      return;
    }
    try {
      violations.addAll(validate(entry.get().configSchema(), config, path));
    } catch (IllegalArgumentException e) {
      unchecked.add(
          path
              + ": not checked: the configSchema registered for "
              + entry.get().name()
              + " is "
              + e.getMessage());
    }
  }

  private SchemaRegistry registry() {
    SchemaRegistry r = registry;
    if (r == null) {
      synchronized (this) {
        r = registry;
        if (r == null) {
          r =
              SchemaRegistry.withDefaultDialect(
                  DEFAULT_DIALECT, b -> b.schemaLoader(l -> l.fetchRemoteResources(false)));
          registry = r;
        }
      }
    }
    return r;
  }

  private Compiled compile(JsonNode schema) {
    Compiled cached = cache.get(schema);
    if (cached != null) {
      return cached;
    }
    Compiled compiled;
    try {
      Schema s = registry().getSchema(schema);
      // Resolve every $ref now rather than on first use, so that a dangling one is reported here.
      s.initializeValidators();
      compiled = new Compiled(s, null);
    } catch (SchemaException | IllegalArgumentException | IllegalStateException e) {
      compiled = new Compiled(null, reason(e));
    }
    if (cache.size() >= cacheLimit) {
      cache.clear();
    }
    cache.put(schema.deepCopy(), compiled);
    return compiled;
  }

  /** The number of compiled schemas held now (for tests). */
  int cachedSchemas() {
    return cache.size();
  }

  private static String reason(RuntimeException e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    String m = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    if (t instanceof java.io.FileNotFoundException) {
      m =
          "$ref "
              + m
              + " cannot be resolved (remote references are not fetched; keep the schema self-contained)";
    }
    int nl = m.indexOf('\n');
    return nl < 0 ? m : m.substring(0, nl);
  }

  private static Violation violation(String base, Error e) {
    StringBuilder path = new StringBuilder(base);
    append(path, e.getInstanceLocation());
    String keyword = e.getKeyword() == null ? "" : e.getKeyword();
    JsonNode value = e.getInstanceNode();
    if (e.getProperty() != null
        && ("required".equals(keyword)
            || "additionalProperties".equals(keyword)
            || "unevaluatedProperties".equals(keyword)
            || "dependentRequired".equals(keyword))) {
      appendName(path, e.getProperty());
      boolean absent =
          "required".equals(keyword) || "dependentRequired".equals(keyword) || value == null;
      value = absent ? null : value.get(e.getProperty());
    }
    return new Violation(path.toString(), keyword, e.getMessage(), value);
  }

  private static void append(StringBuilder path, NodePath location) {
    if (location == null) {
      return;
    }
    for (int i = 0; i < location.getNameCount(); i++) {
      Object element = location.getElement(i);
      if (element instanceof Integer index) {
        path.append('[').append(index).append(']');
      } else {
        appendName(path, String.valueOf(element));
      }
    }
  }

  private static void appendName(StringBuilder path, String name) {
    if (IDENTIFIER.matcher(name).matches()) {
      path.append('.').append(name);
    } else {
      path.append('[').append(name).append(']');
    }
  }
}
