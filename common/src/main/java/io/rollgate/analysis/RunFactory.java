package io.rollgate.analysis;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.rollgate.api.AnalysisPhase;
import io.rollgate.api.AnalysisRun;
import io.rollgate.api.AnalysisRunMetadata;
import io.rollgate.api.AnalysisRunSpec;
import io.rollgate.api.Annotations;
import io.rollgate.api.Argument;
import io.rollgate.api.Labels;
import io.rollgate.api.Rollout;
import io.rollgate.api.RolloutAnalysis;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Builds the AnalysisRun a Rollout analysis asks for (docs/compatibility.md §9.8): its name {@code
 * <rollout>-<newRS hash>-<revision>[-<infix>]}, labels, annotations, controller owner reference and
 * the spec flattened from the referenced templates with the Rollout's arguments and rules.
 */
public final class RunFactory {

  private RunFactory() {}

  /**
   * The run name before any collision suffix.
   *
   * @param rollout the Rollout name
   * @param podHash the new ReplicaSet's pod-template hash
   * @param revision the Rollout revision
   * @param infix the infix ({@link RunType#infix}), or null
   * @return {@code <rollout>-<hash>-<revision>[-<infix>]}
   */
  public static String name(String rollout, String podHash, String revision, String infix) {
    String base = rollout + "-" + podHash + "-" + revision;
    return infix == null || infix.isEmpty() ? base : base + "-" + infix;
  }

  /**
   * The name tried after {@code attempt} AlreadyExists answers: {@code <name>.<attempt>}.
   *
   * @param name the base name
   * @param attempt the attempt, 0 for the base name
   * @return the name
   */
  public static String collisionName(String name, int attempt) {
    return attempt == 0 ? name : name + "." + attempt;
  }

  /**
   * Builds the run.
   *
   * @param rollout the Rollout (name, namespace, uid, selector, instance-id label; fieldRef source)
   * @param analysis the Rollout analysis (templates, args, dryRun, measurementRetention,
   *     analysisRunMetadata)
   * @param type the kind of run
   * @param stepIndex the step index (step runs), else null
   * @param podHash the new ReplicaSet's pod-template hash
   * @param stableHash the stable ReplicaSet's hash, or null
   * @param revision the Rollout revision ({@code rollout.argoproj.io/revision})
   * @param lookup where templates are read
   * @return the run to create (no namespace-level defaults applied)
   * @throws AnalysisSpecException when templates are missing or do not flatten, or arguments do not
   *     resolve
   */
  public static AnalysisRun build(
      Rollout rollout,
      RolloutAnalysis analysis,
      RunType type,
      Integer stepIndex,
      String podHash,
      String stableHash,
      String revision,
      AnalysisTemplates.Lookup lookup)
      throws AnalysisSpecException {
    AnalysisRunSpec spec = spec(rollout, analysis, podHash, stableHash, lookup);
    AnalysisRun run = new AnalysisRun();
    ObjectMeta meta = new ObjectMeta();
    meta.setName(name(rollout.getMetadata().getName(), podHash, revision, type.infix(stepIndex)));
    meta.setNamespace(rollout.getMetadata().getNamespace());
    meta.setLabels(labels(rollout, analysis, type, stepIndex, podHash));
    Map<String, String> annotations = new LinkedHashMap<>();
    AnalysisRunMetadata extra = analysis.getAnalysisRunMetadata();
    if (extra != null && extra.getAnnotations() != null) {
      annotations.putAll(extra.getAnnotations());
    }
    annotations.put(Annotations.REVISION, revision);
    meta.setAnnotations(annotations);
    meta.setOwnerReferences(List.of(ownerReference(rollout)));
    run.setMetadata(meta);
    run.setSpec(spec);
    return run;
  }

  /**
   * The run spec: flattened template metrics, merged arguments, dryRun and measurementRetention
   * (Rollout-level rules first, then the templates'; a metric name may have one rule).
   *
   * @param rollout the Rollout
   * @param analysis the Rollout analysis
   * @param podHash the new ReplicaSet's hash
   * @param stableHash the stable ReplicaSet's hash, or null
   * @param lookup where templates are read
   * @return the spec
   * @throws AnalysisSpecException when templates are missing or do not flatten, or arguments do not
   *     resolve
   */
  public static AnalysisRunSpec spec(
      Rollout rollout,
      RolloutAnalysis analysis,
      String podHash,
      String stableHash,
      AnalysisTemplates.Lookup lookup)
      throws AnalysisSpecException {
    AnalysisTemplates.Flattened flat =
        AnalysisTemplates.flatten(AnalysisTemplates.resolve(analysis.getTemplates(), lookup));
    List<Argument> incoming =
        RunArguments.resolveRolloutArgs(analysis.getArgs(), rollout, podHash, stableHash);
    AnalysisRunSpec spec = new AnalysisRunSpec();
    spec.setMetrics(flat.metrics());
    List<Argument> args = RunArguments.merge(incoming, flat.args());
    spec.setArgs(args.isEmpty() ? null : args);
    var dryRun = AnalysisTemplates.mergeDryRun(analysis.getDryRun(), flat.dryRun());
    spec.setDryRun(dryRun.isEmpty() ? null : dryRun);
    var retention =
        AnalysisTemplates.mergeMeasurementRetention(
            analysis.getMeasurementRetention(), flat.measurementRetention());
    spec.setMeasurementRetention(retention.isEmpty() ? null : retention);
    return spec;
  }

  /**
   * Checks that an analysis would build a run, without the ReplicaSets of a pass
   * (docs/compatibility.md §2.3 items 2-5, §2.2 item 26): templates exist and flatten, {@code
   * metadata...} fieldRefs are readable, every template argument gets a value, rules are not
   * duplicated. A fieldRef into the rest of the Rollout is only checked when the run is created
   * (its value may appear later, e.g. in the status).
   *
   * @param rollout the Rollout
   * @param analysis the Rollout analysis
   * @param lookup where templates are read
   * @throws AnalysisSpecException the first problem, in Argo's words
   */
  public static void validate(
      Rollout rollout, RolloutAnalysis analysis, AnalysisTemplates.Lookup lookup)
      throws AnalysisSpecException {
    validate(rollout, analysis, lookup, true);
  }

  /**
   * Checks an analysis as {@link #validate(Rollout, RolloutAnalysis, AnalysisTemplates.Lookup)}
   * does; for a step, pre- or post-promotion analysis ({@code background} false) a metric that
   * would run forever (an interval without a count, after the arguments are substituted) is
   * rejected too (docs/compatibility.md §2.3 item 4).
   *
   * @param rollout the Rollout
   * @param analysis the Rollout analysis
   * @param lookup where templates are read
   * @param background whether this is background analysis (which may run indefinitely)
   * @throws AnalysisSpecException the first problem, in Argo's words
   */
  public static void validate(
      Rollout rollout,
      RolloutAnalysis analysis,
      AnalysisTemplates.Lookup lookup,
      boolean background)
      throws AnalysisSpecException {
    List<AnalysisTemplates.Template> templates =
        AnalysisTemplates.resolve(analysis.getTemplates(), lookup);
    AnalysisTemplates.Flattened flat = AnalysisTemplates.flatten(templates);
    List<Argument> incoming = new java.util.ArrayList<>();
    if (analysis.getArgs() != null) {
      for (var a : analysis.getArgs()) {
        Argument arg = new Argument();
        arg.setName(a.getName());
        arg.setValue(a.getValue());
        if (a.getValueFrom() != null) {
          var fieldRef = a.getValueFrom().getFieldRef();
          String path = fieldRef == null ? null : fieldRef.getFieldPath();
          if (path != null && path.startsWith("metadata")) {
            try {
              RunArguments.metadataField(rollout, path);
            } catch (AnalysisSpecException e) {
              throw new AnalysisSpecException(RunArguments.INVALID_METADATA_FIELD_REF);
            }
          }
          arg.setValue(""); // resolved when the run is created
        }
        incoming.add(arg);
      }
    }
    List<Argument> merged = RunArguments.merge(incoming, flat.args());
    if (!background) {
      for (AnalysisTemplates.Template t : templates) {
        for (var m :
            t.spec().getMetrics() == null
                ? List.<io.rollgate.api.Metric>of()
                : t.spec().getMetrics()) {
          String count = countText(m.getCount(), merged);
          boolean hasInterval = m.getInterval() != null && !m.getInterval().isEmpty();
          if (hasInterval && (count == null || "0".equals(count))) {
            throw new AnalysisSpecException(
                "AnalysisTemplate "
                    + t.name()
                    + " has metric "
                    + m.getName()
                    + " which runs indefinitely. Invalid value for count: "
                    + (count == null ? "<nil>" : count));
          }
        }
      }
    }
    AnalysisTemplates.mergeDryRun(analysis.getDryRun(), flat.dryRun());
    AnalysisTemplates.mergeMeasurementRetention(
        analysis.getMeasurementRetention(), flat.measurementRetention());
  }

  /**
   * A metric count as text, with {@code {{args.x}}} placeholders replaced by the arguments' values;
   * null when unset.
   */
  private static String countText(
      io.fabric8.kubernetes.api.model.IntOrString count, List<Argument> args) {
    if (count == null || (count.getIntVal() == null && count.getStrVal() == null)) {
      return null;
    }
    if (count.getIntVal() != null) {
      return String.valueOf(count.getIntVal());
    }
    String text = count.getStrVal();
    for (Argument a : args) {
      if (a.getValue() != null) {
        text =
            text.replaceAll(
                "\\{\\{\\s*args\\." + java.util.regex.Pattern.quote(a.getName()) + "\\s*}}",
                java.util.regex.Matcher.quoteReplacement(a.getValue()));
      }
    }
    return text;
  }

  /**
   * The run labels: every {@code spec.selector.matchLabels} of the Rollout, {@code
   * analysisRunMetadata.labels}, {@code rollouts-pod-template-hash}, {@code rollout-type}, {@code
   * step-index} (step runs) and the controller instance id (when the Rollout carries one).
   *
   * @param rollout the Rollout
   * @param analysis the Rollout analysis
   * @param type the kind of run
   * @param stepIndex the step index (step runs), else null
   * @param podHash the new ReplicaSet's hash
   * @return the labels
   */
  public static Map<String, String> labels(
      Rollout rollout, RolloutAnalysis analysis, RunType type, Integer stepIndex, String podHash) {
    Map<String, String> labels = new LinkedHashMap<>();
    var selector = rollout.getSpec().getSelector();
    if (selector != null && selector.getMatchLabels() != null) {
      labels.putAll(selector.getMatchLabels());
    }
    AnalysisRunMetadata extra = analysis.getAnalysisRunMetadata();
    if (extra != null && extra.getLabels() != null) {
      labels.putAll(extra.getLabels());
    }
    labels.put(Labels.POD_TEMPLATE_HASH, podHash);
    labels.put(Labels.ROLLOUT_TYPE, type.label());
    if (type == RunType.STEP) {
      labels.put(Labels.STEP_INDEX, String.valueOf(stepIndex));
    }
    Map<String, String> rolloutLabels = rollout.getMetadata().getLabels();
    String instanceId =
        rolloutLabels == null ? null : rolloutLabels.get(Labels.CONTROLLER_INSTANCE_ID);
    if (instanceId != null && !instanceId.isEmpty()) {
      labels.put(Labels.CONTROLLER_INSTANCE_ID, instanceId);
    }
    return labels;
  }

  /**
   * The controller owner reference to the Rollout.
   *
   * @param rollout the Rollout
   * @return {@code argoproj.io/v1alpha1 Rollout <name> <uid>}, controller and blockOwnerDeletion
   *     true
   */
  public static OwnerReference ownerReference(Rollout rollout) {
    return new OwnerReferenceBuilder()
        .withApiVersion("argoproj.io/v1alpha1")
        .withKind("Rollout")
        .withName(rollout.getMetadata().getName())
        .withUid(rollout.getMetadata().getUid())
        .withController(true)
        .withBlockOwnerDeletion(true)
        .build();
  }

  /**
   * Whether an existing run (found under the wanted name) may be reused instead of creating
   * another: it is not completed, is controlled by the same Rollout and has the same metrics, args,
   * dryRun and measurementRetention.
   *
   * @param existing the existing run
   * @param wanted the run we would create
   * @param rolloutUid the Rollout's uid
   * @return whether to reuse it
   */
  public static boolean reusable(AnalysisRun existing, AnalysisRun wanted, String rolloutUid) {
    if (existing == null || existing.getSpec() == null) {
      return false;
    }
    String phase = existing.getStatus() == null ? null : existing.getStatus().getPhase();
    if (AnalysisPhase.isCompleted(phase)) {
      return false;
    }
    boolean owned = false;
    if (existing.getMetadata().getOwnerReferences() != null) {
      for (OwnerReference ref : existing.getMetadata().getOwnerReferences()) {
        if (Boolean.TRUE.equals(ref.getController()) && Objects.equals(ref.getUid(), rolloutUid)) {
          owned = true;
        }
      }
    }
    AnalysisRunSpec a = existing.getSpec();
    AnalysisRunSpec b = wanted.getSpec();
    return owned
        && Objects.equals(a.getMetrics(), b.getMetrics())
        && Objects.equals(a.getArgs(), b.getArgs())
        && Objects.equals(a.getDryRun(), b.getDryRun())
        && Objects.equals(a.getMeasurementRetention(), b.getMeasurementRetention());
  }
}
