package io.rollgate.analysis;

import io.rollgate.api.AnalysisTemplateRef;
import io.rollgate.api.AnalysisTemplateSpec;
import io.rollgate.api.Argument;
import io.rollgate.api.DryRun;
import io.rollgate.api.MeasurementRetention;
import io.rollgate.api.Metric;
import io.rollgate.api.ModelJson;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Resolves the templates a Rollout analysis references ({@code templates[] {templateName,
 * clusterScope}}) and flattens them into the spec of one AnalysisRun (docs/compatibility.md §9.1,
 * §9.8, §2.3 items 2-3).
 *
 * <p>Resolution follows {@code AnalysisTemplate.spec.templates} (and the ClusterAnalysisTemplate
 * equivalent) recursively; each template is used once, by name and scope. Flattening concatenates
 * the metrics of the namespaced templates, then those of the cluster templates, merges their
 * arguments (same-named arguments must agree) and their dryRun / measurementRetention rules (a
 * metric name may appear once).
 */
public final class AnalysisTemplates {

  private AnalysisTemplates() {}

  /** Reads templates by name; both methods return null when the template does not exist. */
  public interface Lookup {

    /**
     * Reads an AnalysisTemplate of the Rollout's namespace.
     *
     * @param name the template name
     * @return its spec, or null when it does not exist
     */
    AnalysisTemplateSpec namespaced(String name);

    /**
     * Reads a ClusterAnalysisTemplate.
     *
     * @param name the template name
     * @return its spec, or null when it does not exist
     */
    AnalysisTemplateSpec cluster(String name);
  }

  /**
   * One resolved template.
   *
   * @param name the template name
   * @param clusterScope whether it is a ClusterAnalysisTemplate
   * @param spec its spec
   */
  public record Template(String name, boolean clusterScope, AnalysisTemplateSpec spec) {}

  /**
   * The spec parts of an AnalysisRun built from templates.
   *
   * @param metrics the metrics, namespaced templates first
   * @param args the template arguments, merged by name
   * @param dryRun the templates' dryRun rules
   * @param measurementRetention the templates' measurementRetention rules
   */
  public record Flattened(
      List<Metric> metrics,
      List<Argument> args,
      List<DryRun> dryRun,
      List<MeasurementRetention> measurementRetention) {}

  /**
   * Resolves template references recursively (docs/compatibility.md §2.3 item 2).
   *
   * @param refs the references of a Rollout analysis
   * @param lookup where templates are read
   * @return every template reached, each once, namespaced ones first, in the order they were
   *     reached
   * @throws AnalysisSpecException {@code AnalysisTemplate '<n>' not found} or {@code
   *     ClusterAnalysisTemplate '<n>' not found}, or a reference without a name
   */
  public static List<Template> resolve(List<AnalysisTemplateRef> refs, Lookup lookup)
      throws AnalysisSpecException {
    Map<String, Template> namespaced = new LinkedHashMap<>();
    Map<String, Template> cluster = new LinkedHashMap<>();
    resolveInto(refs, lookup, namespaced, cluster);
    List<Template> all = new ArrayList<>(namespaced.values());
    all.addAll(cluster.values());
    return all;
  }

  private static void resolveInto(
      List<AnalysisTemplateRef> refs,
      Lookup lookup,
      Map<String, Template> namespaced,
      Map<String, Template> cluster)
      throws AnalysisSpecException {
    if (refs == null) {
      return;
    }
    for (AnalysisTemplateRef ref : refs) {
      String name = ref.getTemplateName();
      if (name == null || name.isEmpty()) {
        throw new AnalysisSpecException("templateName is required");
      }
      boolean clusterScope = Boolean.TRUE.equals(ref.getClusterScope());
      Map<String, Template> target = clusterScope ? cluster : namespaced;
      if (target.containsKey(name)) {
        continue; // de-duplicated by name; also ends reference cycles
      }
      AnalysisTemplateSpec spec = clusterScope ? lookup.cluster(name) : lookup.namespaced(name);
      if (spec == null) {
        throw new AnalysisSpecException(
            (clusterScope ? "ClusterAnalysisTemplate '" : "AnalysisTemplate '")
                + name
                + "' not found");
      }
      target.put(name, new Template(name, clusterScope, spec));
      resolveInto(spec.getTemplates(), lookup, namespaced, cluster);
    }
  }

  /**
   * Flattens resolved templates into one run spec (docs/compatibility.md §2.3 item 3, §9.8).
   *
   * @param templates the templates, as {@link #resolve} returned them
   * @return the flattened metrics, arguments and rules (deep copies)
   * @throws AnalysisSpecException {@code two metrics have the same name '<m>'}, {@code Argument
   *     `<a>` specified multiple times with different values: '<v1>', '<v2>'} (only when both
   *     templates give a value; one that only declares the argument takes the other's), or a
   *     duplicate dryRun / measurementRetention rule
   */
  public static Flattened flatten(List<Template> templates) throws AnalysisSpecException {
    List<Metric> metrics = new ArrayList<>();
    Set<String> metricNames = new LinkedHashSet<>();
    Map<String, Argument> args = new LinkedHashMap<>();
    List<DryRun> dryRun = new ArrayList<>();
    List<MeasurementRetention> retention = new ArrayList<>();
    for (Template t : templates) {
      AnalysisTemplateSpec spec = t.spec();
      if (spec.getMetrics() != null) {
        for (Metric m : spec.getMetrics()) {
          if (!metricNames.add(m.getName())) {
            throw new AnalysisSpecException("two metrics have the same name '" + m.getName() + "'");
          }
          metrics.add(ModelJson.deepCopy(m));
        }
      }
      if (spec.getArgs() != null) {
        for (Argument a : spec.getArgs()) {
          Argument existing = args.get(a.getName());
          if (existing == null || !hasValue(existing)) {
            // A template that only declares the argument takes the value another template gives it.
            args.put(a.getName(), ModelJson.deepCopy(a));
          } else if (!hasValue(a)) {
            continue;
          } else if (!Objects.equals(existing.getValue(), a.getValue())
              || !Objects.equals(existing.getValueFrom(), a.getValueFrom())) {
            throw new AnalysisSpecException(
                "Argument `"
                    + a.getName()
                    + "` specified multiple times with different values: '"
                    + text(existing)
                    + "', '"
                    + text(a)
                    + "'");
          }
        }
      }
      dryRun = mergeDryRun(dryRun, spec.getDryRun());
      retention = mergeMeasurementRetention(retention, spec.getMeasurementRetention());
    }
    return new Flattened(metrics, new ArrayList<>(args.values()), dryRun, retention);
  }

  private static boolean hasValue(Argument a) {
    return a.getValue() != null || a.getValueFrom() != null;
  }

  private static String text(Argument a) {
    if (a.getValue() != null) {
      return a.getValue();
    }
    return a.getValueFrom() == null ? "" : ModelJson.toJson(a.getValueFrom());
  }

  /**
   * Appends dryRun rules, rejecting a metric name that already has one (Rollout-level rules first,
   * then each template's).
   *
   * @param base the rules so far
   * @param more the rules to add, or null
   * @return a new list with both
   * @throws AnalysisSpecException {@code two Dry-Run metric rules have the same name '<m>'}
   */
  public static List<DryRun> mergeDryRun(List<DryRun> base, List<DryRun> more)
      throws AnalysisSpecException {
    List<DryRun> out = new ArrayList<>(base == null ? List.of() : base);
    if (more != null) {
      for (DryRun d : more) {
        for (DryRun e : out) {
          if (Objects.equals(e.getMetricName(), d.getMetricName())) {
            throw new AnalysisSpecException(
                "two Dry-Run metric rules have the same name '" + d.getMetricName() + "'");
          }
        }
        out.add(ModelJson.deepCopy(d));
      }
    }
    return out;
  }

  /**
   * Appends measurementRetention rules, rejecting a metric name that already has one.
   *
   * @param base the rules so far
   * @param more the rules to add, or null
   * @return a new list with both
   * @throws AnalysisSpecException {@code two Measurement Retention metric rules have the same name
   *     '<m>'}
   */
  public static List<MeasurementRetention> mergeMeasurementRetention(
      List<MeasurementRetention> base, List<MeasurementRetention> more)
      throws AnalysisSpecException {
    List<MeasurementRetention> out = new ArrayList<>(base == null ? List.of() : base);
    if (more != null) {
      for (MeasurementRetention d : more) {
        for (MeasurementRetention e : out) {
          if (Objects.equals(e.getMetricName(), d.getMetricName())) {
            throw new AnalysisSpecException(
                "two Measurement Retention metric rules have the same name '"
                    + d.getMetricName()
                    + "'");
          }
        }
        out.add(ModelJson.deepCopy(d));
      }
    }
    return out;
  }
}
