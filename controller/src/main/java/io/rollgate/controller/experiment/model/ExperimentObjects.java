package io.rollgate.controller.experiment.model;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.ServicePortBuilder;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetBuilder;
import io.rollgate.analysis.AnalysisSpecException;
import io.rollgate.analysis.AnalysisTemplates;
import io.rollgate.analysis.RunArguments;
import io.rollgate.api.AnalysisRun;
import io.rollgate.api.AnalysisRunMetadata;
import io.rollgate.api.AnalysisRunSpec;
import io.rollgate.api.AnalysisTemplateRef;
import io.rollgate.api.Argument;
import io.rollgate.api.Experiment;
import io.rollgate.api.ExperimentAnalysisTemplateRef;
import io.rollgate.api.ExperimentTemplate;
import io.rollgate.api.Labels;
import io.rollgate.api.ModelJson;
import io.rollgate.controller.rollout.model.GoPodTemplateJson;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Builds the objects an Experiment owns (docs/compatibility.md §12.1): one ReplicaSet {@code
 * <experiment>-<template>} per template, an optional Service per template, and one AnalysisRun
 * {@code <experiment>-<analysis>} per analysis, whose spec is flattened from the referenced
 * templates exactly as a Rollout's runs are ({@link AnalysisTemplates}, {@link
 * RunArguments#merge}).
 */
public final class ExperimentObjects {

  /** Annotation on an Experiment's ReplicaSets: the Experiment name. */
  public static final String EXPERIMENT_NAME = "experiment.argoproj.io/name";

  /** Annotation on an Experiment's ReplicaSets: the template name. */
  public static final String TEMPLATE_NAME = "experiment.argoproj.io/template-name";

  private ExperimentObjects() {}

  /**
   * The ReplicaSet name of a template.
   *
   * @param experiment the Experiment name
   * @param template the template name
   * @return {@code <experiment>-<template>}
   */
  public static String replicaSetName(String experiment, String template) {
    return experiment + "-" + template;
  }

  /**
   * The AnalysisRun name of an analysis.
   *
   * @param experiment the Experiment name
   * @param analysis the analysis name
   * @return {@code <experiment>-<analysis>}
   */
  public static String runName(String experiment, String analysis) {
    return experiment + "-" + analysis;
  }

  /**
   * The pod-template hash of a template ({@code rollouts-pod-template-hash}), computed as for a
   * Rollout.
   *
   * @param template the template
   * @param collisionCount {@code templateStatuses[].collisionCount}, or null
   * @return the hash
   */
  public static String podHash(ExperimentTemplate template, Integer collisionCount) {
    return GoPodTemplateJson.podTemplateHash(
        ModelJson.toTree(template.getTemplate()),
        collisionCount,
        GoPodTemplateJson.DEFAULT_VERSION);
  }

  /**
   * The controller owner reference to the Experiment.
   *
   * @param ex the Experiment
   * @return {@code argoproj.io/v1alpha1 Experiment <name> <uid>}, controller and blockOwnerDeletion
   *     true
   */
  public static OwnerReference ownerReference(Experiment ex) {
    return new OwnerReferenceBuilder()
        .withApiVersion("argoproj.io/v1alpha1")
        .withKind("Experiment")
        .withName(ex.getMetadata().getName())
        .withUid(ex.getMetadata().getUid())
        .withController(true)
        .withBlockOwnerDeletion(true)
        .build();
  }

  /**
   * The ReplicaSet of a template, created at 0 replicas: pod labels and selector get {@code
   * rollouts-pod-template-hash}, annotations {@code experiment.argoproj.io/name} and {@code
   * /template-name}, and the Experiment is its controller.
   *
   * @param ex the Experiment
   * @param template the template
   * @param hash the pod-template hash
   * @return the ReplicaSet to create
   */
  public static ReplicaSet replicaSet(Experiment ex, ExperimentTemplate template, String hash) {
    PodTemplateSpec pod = ModelJson.deepCopy(template.getTemplate());
    if (pod.getMetadata() == null) {
      pod.setMetadata(new ObjectMetaBuilder().build());
    }
    Map<String, String> labels = new LinkedHashMap<>();
    if (pod.getMetadata().getLabels() != null) {
      labels.putAll(pod.getMetadata().getLabels());
    }
    labels.put(Labels.POD_TEMPLATE_HASH, hash);
    pod.getMetadata().setLabels(labels);
    Map<String, String> annotations = new LinkedHashMap<>();
    annotations.put(EXPERIMENT_NAME, ex.getMetadata().getName());
    annotations.put(TEMPLATE_NAME, template.getName());
    return new ReplicaSetBuilder()
        .withNewMetadata()
        .withName(replicaSetName(ex.getMetadata().getName(), template.getName()))
        .withNamespace(ex.getMetadata().getNamespace())
        .withLabels(labels)
        .withAnnotations(annotations)
        .withOwnerReferences(ownerReference(ex))
        .endMetadata()
        .withNewSpec()
        .withReplicas(0)
        .withMinReadySeconds(
            template.getMinReadySeconds() == null ? 0 : template.getMinReadySeconds())
        .withSelector(selector(template, hash))
        .withTemplate(pod)
        .endSpec()
        .build();
  }

  /**
   * The template's selector with {@code rollouts-pod-template-hash} added to {@code matchLabels}.
   *
   * @param template the template
   * @param hash the pod-template hash
   * @return the selector
   */
  public static LabelSelector selector(ExperimentTemplate template, String hash) {
    LabelSelector selector = ModelJson.deepCopy(template.getSelector());
    Map<String, String> matchLabels =
        selector.getMatchLabels() == null
            ? new LinkedHashMap<>()
            : new LinkedHashMap<>(selector.getMatchLabels());
    matchLabels.put(Labels.POD_TEMPLATE_HASH, hash);
    return new LabelSelectorBuilder(selector).withMatchLabels(matchLabels).build();
  }

  /**
   * The name of a template's Service: {@code service.name}, else the ReplicaSet name.
   *
   * @param ex the Experiment
   * @param template the template (with {@code service} set)
   * @return the Service name
   */
  public static String serviceName(Experiment ex, ExperimentTemplate template) {
    String name = template.getService() == null ? null : template.getService().getName();
    return name == null || name.isEmpty()
        ? replicaSetName(ex.getMetadata().getName(), template.getName())
        : name;
  }

  /**
   * The Service of a template: selects the template's pods ({@code matchLabels} and the hash), one
   * port per container port (same name, port and target port, protocol), controlled by the
   * Experiment. As Argo Rollouts does for {@code templates[].service}, a template whose containers
   * declare no port gets no Service at all: it is neither created nor an error (a Service without
   * ports would be refused by the API server).
   *
   * @param ex the Experiment
   * @param template the template
   * @param hash the pod-template hash
   * @return the Service to create, or empty when no container declares a port
   */
  public static Optional<Service> service(Experiment ex, ExperimentTemplate template, String hash) {
    List<ServicePort> ports = new ArrayList<>();
    List<Container> containers =
        template.getTemplate() == null
                || template.getTemplate().getSpec() == null
                || template.getTemplate().getSpec().getContainers() == null
            ? List.of()
            : template.getTemplate().getSpec().getContainers();
    for (Container c : containers) {
      if (c.getPorts() == null) {
        continue;
      }
      for (ContainerPort p : c.getPorts()) {
        ports.add(
            new ServicePortBuilder()
                .withName(p.getName())
                .withPort(p.getContainerPort())
                .withTargetPort(new IntOrString(p.getContainerPort()))
                .withProtocol(p.getProtocol() == null ? "TCP" : p.getProtocol())
                .build());
      }
    }
    if (ports.isEmpty()) {
      return Optional.empty();
    }
    ObjectMeta meta =
        new ObjectMetaBuilder()
            .withName(serviceName(ex, template))
            .withNamespace(ex.getMetadata().getNamespace())
            .withAnnotations(
                Map.of(
                    EXPERIMENT_NAME, ex.getMetadata().getName(), TEMPLATE_NAME, template.getName()))
            .withOwnerReferences(ownerReference(ex))
            .build();
    return Optional.of(
        new ServiceBuilder()
            .withMetadata(meta)
            .withNewSpec()
            .withSelector(selector(template, hash).getMatchLabels())
            .withPorts(ports)
            .endSpec()
            .build());
  }

  /**
   * The AnalysisRun of an analysis: the referenced template (recursively) flattened, the analysis's
   * {@code args} merged into the template arguments, the Experiment's {@code dryRun} and {@code
   * measurementRetention} rules first; labels from {@code analysisRunMetadata} plus the controller
   * instance id of the Experiment, annotations from {@code analysisRunMetadata}; the Experiment is
   * its controller.
   *
   * <p>The analysis's argument values first have the Experiment's placeholders substituted ({@link
   * ExperimentArgs}).
   *
   * @param ex the Experiment
   * @param analysis the analysis
   * @param lookup where templates are read
   * @param availableAt {@code status.availableAt} as this pass computed it, or null
   * @param replicaSets the template ReplicaSets, by ReplicaSet name ({@code
   *     {{templates.<name>.podTemplateHash}}})
   * @return the run to create
   * @throws AnalysisSpecException when the template is missing, does not flatten, an argument has
   *     no value, or an argument value has a placeholder that cannot be resolved
   */
  public static AnalysisRun analysisRun(
      Experiment ex,
      ExperimentAnalysisTemplateRef analysis,
      AnalysisTemplates.Lookup lookup,
      String availableAt,
      Map<String, ReplicaSet> replicaSets)
      throws AnalysisSpecException {
    List<Argument> incoming =
        ExperimentArgs.resolve(analysis.getArgs(), ex, availableAt, replicaSets);
    AnalysisTemplateRef ref = new AnalysisTemplateRef();
    ref.setTemplateName(analysis.getTemplateName());
    ref.setClusterScope(analysis.getClusterScope());
    AnalysisTemplates.Flattened flat =
        AnalysisTemplates.flatten(AnalysisTemplates.resolve(List.of(ref), lookup));
    AnalysisRunSpec spec = new AnalysisRunSpec();
    spec.setMetrics(flat.metrics());
    List<Argument> args = RunArguments.merge(incoming, flat.args());
    spec.setArgs(args.isEmpty() ? null : args);
    var dryRun = AnalysisTemplates.mergeDryRun(ex.getSpec().getDryRun(), flat.dryRun());
    spec.setDryRun(dryRun.isEmpty() ? null : dryRun);
    var retention =
        AnalysisTemplates.mergeMeasurementRetention(
            ex.getSpec().getMeasurementRetention(), flat.measurementRetention());
    spec.setMeasurementRetention(retention.isEmpty() ? null : retention);
    Map<String, String> labels = new LinkedHashMap<>();
    Map<String, String> annotations = new LinkedHashMap<>();
    AnalysisRunMetadata extra = ex.getSpec().getAnalysisRunMetadata();
    if (extra != null && extra.getLabels() != null) {
      labels.putAll(extra.getLabels());
    }
    if (extra != null && extra.getAnnotations() != null) {
      annotations.putAll(extra.getAnnotations());
    }
    Map<String, String> exLabels = ex.getMetadata().getLabels();
    String instanceId = exLabels == null ? null : exLabels.get(Labels.CONTROLLER_INSTANCE_ID);
    if (instanceId != null && !instanceId.isEmpty()) {
      labels.put(Labels.CONTROLLER_INSTANCE_ID, instanceId);
    }
    AnalysisRun run = new AnalysisRun();
    run.setMetadata(
        new ObjectMetaBuilder()
            .withName(runName(ex.getMetadata().getName(), analysis.getName()))
            .withNamespace(ex.getMetadata().getNamespace())
            .withLabels(labels.isEmpty() ? null : labels)
            .withAnnotations(annotations.isEmpty() ? null : annotations)
            .withOwnerReferences(ownerReference(ex))
            .build());
    run.setSpec(spec);
    return run;
  }
}
