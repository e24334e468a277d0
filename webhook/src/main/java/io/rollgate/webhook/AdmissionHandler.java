package io.rollgate.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import io.rollgate.analysis.AnalysisReferences;
import io.rollgate.analysis.AnalysisTemplates;
import io.rollgate.api.AnalysisTemplateSpec;
import io.rollgate.api.Metric;
import io.rollgate.api.ModelJson;
import io.rollgate.api.Rollout;
import io.rollgate.api.policy.RolloutPolicy;
import io.rollgate.api.policy.RolloutPolicySpec;
import io.rollgate.plugin.PluginConfigSchemas;
import io.rollgate.plugin.PluginKind;
import io.rollgate.plugin.PluginRegistry;
import io.rollgate.policy.PolicyEvaluator;
import io.rollgate.policy.RolloutPolicyValidator;
import io.rollgate.validation.AnalysisTemplateValidator;
import io.rollgate.validation.FieldError;
import io.rollgate.validation.PluginConfigValidator;
import io.rollgate.validation.PluginReferenceValidator;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Decides {@code /validate} and {@code /mutate} requests for every kind the webhook checks, with
 * what the {@link ClusterView} knows of the cluster:
 *
 * <ul>
 *   <li>{@code argoproj.io} Rollout: {@link RolloutAdmission}'s rules, plus plugin references and
 *       plugin configurations ({@code configSchema}, {@link PluginConfigSchemas}) checked against
 *       the registry (unreadable or absent registry: warnings) and the RolloutPolicies that select
 *       it ({@code deny}: part of the denial, except a violation the stored object already had,
 *       which an UPDATE may keep with a warning; {@code warn}: admission warnings; {@code audit}:
 *       left to the audit), and the analyses it names checked against the AnalysisTemplates as the
 *       controller checks them ({@link AnalysisReferences}: a step analysis whose metric would run
 *       forever, arguments that do not resolve; a template that does not exist yet is a warning).
 *   <li>ConfigMap {@code argo-rollouts-config}: {@link PluginConfigValidator}; other ConfigMaps are
 *       allowed untouched.
 *   <li>{@code rollgate.io} RolloutPolicy: {@link RolloutPolicyValidator}.
 *   <li>{@code argoproj.io} AnalysisTemplate and ClusterAnalysisTemplate: {@link
 *       AnalysisTemplateValidator}, and a metric {@code plugin} provider must be a registered
 *       {@code metricProviderPlugins} entry (warning when the registry cannot be read).
 * </ul>
 *
 * <p>Pure apart from reading the view's caches: safe on the event loop.
 */
public final class AdmissionHandler {

  private final ClusterView cluster;

  /** Checks plugin configurations and schemas; owns the compiled-schema cache of this handler. */
  private final PluginConfigSchemas schemas = new PluginConfigSchemas();

  /**
   * Creates the handler.
   *
   * @param cluster what the decisions may look up
   */
  public AdmissionHandler(ClusterView cluster) {
    this.cluster = cluster;
  }

  /**
   * Answers a {@code /validate} request.
   *
   * @param request the parsed request
   * @return the decision
   */
  public AdmissionDecision validate(AdmissionRequest request) {
    if (!request.isMainResourceWrite()) {
      return ignored(request);
    }
    if (request.isRollout()) {
      return RolloutAdmission.validate(request, this::rolloutChecks);
    }
    if (isPluginConfig(request)) {
      return validatePluginConfig(request);
    }
    if (RolloutPolicy.GROUP.equals(request.group()) && "RolloutPolicy".equals(request.kind())) {
      return validatePolicy(request);
    }
    if ("argoproj.io".equals(request.group())
        && ("AnalysisTemplate".equals(request.kind())
            || "ClusterAnalysisTemplate".equals(request.kind()))) {
      return validateTemplate(request);
    }
    return ignored(request);
  }

  private AdmissionDecision validateTemplate(AdmissionRequest request) {
    if (request.object() == null || !request.object().isObject()) {
      return new AdmissionDecision(
          AdmissionReviews.badObject(request, "AdmissionReview request has no object to validate"),
          "denied",
          1);
    }
    AnalysisTemplateSpec spec;
    JsonNode node = request.object().get("spec");
    try {
      spec =
          node == null || node.isNull()
              ? null
              : ModelJson.mapper().treeToValue(node, AnalysisTemplateSpec.class);
    } catch (Exception e) {
      return BindingErrors.denial(request, e, "an " + request.kind(), node, "spec.");
    }
    List<FieldError> errors = new ArrayList<>(AnalysisTemplateValidator.validate(spec));
    List<String> warnings = new ArrayList<>();
    if (spec != null && spec.getMetrics() != null) {
      ClusterView.Plugins plugins = cluster.plugins();
      for (int i = 0; i < spec.getMetrics().size(); i++) {
        Metric m = spec.getMetrics().get(i);
        Object plugin =
            m == null || m.getProvider() == null
                ? null
                : m.getProvider().getAdditionalProperties().get("plugin");
        if (!(plugin instanceof Map<?, ?> map) || map.size() != 1) {
          continue;
        }
        String name = String.valueOf(map.keySet().iterator().next());
        String path = "spec.metrics[" + i + "].provider.plugin";
        if (plugins.registry() == null) {
          warnings.add(
              path
                  + ": plugin \""
                  + name
                  + "\" not checked: the plugin registry "
                  + plugins.where()
                  + ("absent".equals(plugins.state()) ? " does not exist" : " cannot be read"));
        } else if (plugins.registry().find(PluginKind.METRIC_PROVIDER, name).isEmpty()) {
          errors.add(
              FieldError.invalid(
                  path,
                  name,
                  "not a registered metricProviderPlugins entry in " + plugins.where()));
        }
      }
    }
    if (!errors.isEmpty()) {
      return new AdmissionDecision(
          AdmissionReviews.invalid(request, errors, warnings), "denied", errors.size());
    }
    return new AdmissionDecision(
        AdmissionReviews.allowed(request.uid(), warnings),
        warnings.isEmpty() ? "allowed" : "warned",
        0);
  }

  /**
   * Answers a {@code /mutate} request (Rollout defaults only).
   *
   * @param request the parsed request
   * @return the decision
   */
  public AdmissionDecision mutate(AdmissionRequest request) {
    return RolloutAdmission.mutate(request);
  }

  /**
   * Decides one sample request of each checked kind, so that class loading and Jackson's
   * introspection happen before the first real request rather than on an event loop while the API
   * server waits. Blocking: call it on a worker.
   */
  @SuppressWarnings(
      "ReturnValueIgnored") // the reviews are rendered only to load the code that writes them
  public void warmUp() {
    String rollout =
        "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{\"uid\":\"warm-up\","
            + "\"kind\":{\"group\":\"argoproj.io\",\"version\":\"v1alpha1\",\"kind\":\"Rollout\"},"
            + "\"operation\":\"CREATE\",\"namespace\":\"default\",\"name\":\"warm-up\",\"object\":"
            + "{\"apiVersion\":\"argoproj.io/v1alpha1\",\"kind\":\"Rollout\",\"metadata\":{\"name\":\"warm-up\"},"
            + "\"spec\":{\"selector\":{\"matchLabels\":{\"app\":\"w\"}},\"template\":{\"metadata\":{\"labels\":"
            + "{\"app\":\"w\"}},\"spec\":{\"containers\":[{\"name\":\"w\",\"image\":\"w\",\"resources\":"
            + "{\"limits\":{\"cpu\":\"1\"}},\"ports\":[{\"name\":\"http\",\"containerPort\":80}]}]}},"
            + "\"strategy\":{\"canary\":{\"steps\":[{\"setWeight\":10},{\"pause\":{}}]}}}}}}";
    String policy =
        "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{\"uid\":\"warm-up\","
            + "\"kind\":{\"group\":\"rollgate.io\",\"version\":\"v1alpha1\",\"kind\":\"RolloutPolicy\"},"
            + "\"operation\":\"CREATE\",\"name\":\"warm-up\",\"object\":{\"metadata\":{\"name\":\"warm-up\"},"
            + "\"spec\":{\"rules\":{\"maxReplicas\":1}}}}}";
    String template =
        "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{\"uid\":\"warm-up\","
            + "\"kind\":{\"group\":\"argoproj.io\",\"version\":\"v1alpha1\",\"kind\":\"AnalysisTemplate\"},"
            + "\"operation\":\"CREATE\",\"name\":\"warm-up\",\"object\":{\"metadata\":{\"name\":\"warm-up\"},"
            + "\"spec\":{\"metrics\":[{\"name\":\"m\",\"successCondition\":\"result[0] > 1\","
            + "\"provider\":{\"prometheus\":{\"query\":\"up\"}}}]}}}}";
    // JSON Schema support (plugin configurations) loads its meta-schemas and classes on first use.
    JsonNode schema = AdmissionReviews.mapper().createObjectNode().put("type", "object");
    schemas.checkSchema(schema, "warm-up");
    schemas.validate(schema, null, "warm-up");
    for (String body : new String[] {rollout, policy, template}) {
      try {
        AdmissionRequest request =
            AdmissionReviews.parse(body.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        validate(request).review().toString();
        mutate(request).review().toString();
      } catch (BadReviewException e) {
        throw new IllegalStateException("warm-up request unreadable", e);
      }
    }
  }

  private RolloutAdmission.Extra rolloutChecks(AdmissionRequest request, Rollout rollout) {
    List<FieldError> errors = new ArrayList<>();
    List<String> warnings = new ArrayList<>();
    ClusterView.Plugins plugins = cluster.plugins();
    PluginReferenceValidator.Result refs =
        PluginReferenceValidator.validate(
            rollout,
            plugins.registry(),
            plugins.where() + ("absent".equals(plugins.state()) ? " (does not exist)" : ""),
            schemas);
    errors.addAll(refs.errors());
    warnings.addAll(refs.warnings());
    analysisChecks(request, rollout, errors, warnings);
    policyChecks(request, rollout, errors, warnings);
    return new RolloutAdmission.Extra(errors, warnings);
  }

  /**
   * The analyses the Rollout names, checked against the templates as the controller checks them
   * before it creates a run (docs/compatibility.md §2.3 items 2-5): a problem it would report as
   * InvalidSpec is denied here, except a template that does not exist yet (it may be applied after
   * the Rollout), which is a warning.
   */
  private void analysisChecks(
      AdmissionRequest request, Rollout rollout, List<FieldError> errors, List<String> warnings) {
    if (!cluster.templatesKnown()) {
      return;
    }
    String namespace =
        !request.namespace().isEmpty() || rollout.getMetadata() == null
            ? request.namespace()
            : rollout.getMetadata().getNamespace();
    for (AnalysisReferences.Named named : AnalysisReferences.analyses(rollout)) {
      boolean[] missing = new boolean[1];
      AnalysisTemplates.Lookup lookup =
          new AnalysisTemplates.Lookup() {
            @Override
            public AnalysisTemplateSpec namespaced(String name) {
              AnalysisTemplateSpec spec =
                  namespace == null ? null : cluster.analysisTemplate(namespace, name);
              missing[0] |= spec == null;
              return spec;
            }

            @Override
            public AnalysisTemplateSpec cluster(String name) {
              AnalysisTemplateSpec spec = cluster.clusterAnalysisTemplate(name);
              missing[0] |= spec == null;
              return spec;
            }
          };
      FieldError e = AnalysisReferences.check(rollout, named, lookup);
      if (e == null) {
        continue;
      }
      if (missing[0]) {
        warnings.add(e + ": the Rollout is InvalidSpec until it exists");
      } else {
        errors.add(e);
      }
    }
  }

  private void policyChecks(
      AdmissionRequest request, Rollout rollout, List<FieldError> errors, List<String> warnings) {
    List<RolloutPolicy> policies = cluster.policies();
    if (!cluster.policiesKnown()) {
      if (!cluster.policiesAbsent()) {
        warnings.add(
            "RolloutPolicies are not loaded yet: this Rollout was not checked against them");
      }
      return;
    }
    if (policies.isEmpty()) {
      return;
    }
    String ns =
        request.namespace().isEmpty() ? rollout.getMetadata().getNamespace() : request.namespace();
    Optional<Map<String, String>> nsLabels = cluster.namespaceLabels(ns == null ? "" : ns);
    if (nsLabels.isEmpty()) {
      warnings.add(
          "namespace "
              + ns
              + " is not known yet: this Rollout was not checked against RolloutPolicies");
      return;
    }
    List<RolloutPolicy> sorted = new ArrayList<>(policies);
    sorted.sort(Comparator.comparing(p -> p.getMetadata().getName()));
    for (RolloutPolicy policy : sorted) {
      if (!PolicyEvaluator.selects(policy, nsLabels.get(), rollout.getMetadata().getLabels())) {
        continue;
      }
      List<FieldError> violations = PolicyEvaluator.violations(policy, rollout);
      switch (policy.getSpec().effectiveEnforcementAction()) {
        case RolloutPolicySpec.DENY -> {
          // An update that keeps a violation the stored object already had is not refused (the
          // controller and other tools must still be able to write a Rollout admitted before the
          // policy existed); it gets a warning.
          List<String> before =
              violations.isEmpty() ? List.of() : previousViolations(request, policy);
          for (FieldError v : violations) {
            if (before.contains(v.toString())) {
              warnings.add(v + "; not refused: the stored Rollout already breaks this rule");
            } else {
              errors.add(v);
            }
          }
        }
        case RolloutPolicySpec.WARN -> violations.forEach(v -> warnings.add(v.toString()));
        default -> {
          // audit: admitted; the audit records the violation in the policy's status.
        }
      }
    }
  }

  private static List<String> previousViolations(AdmissionRequest request, RolloutPolicy policy) {
    if (request.oldObject() == null || !"UPDATE".equals(request.operation())) {
      return List.of();
    }
    try {
      Rollout old = request.readOldObject(ModelJson.mapper(), Rollout.class);
      return PolicyEvaluator.violations(policy, old).stream().map(FieldError::toString).toList();
    } catch (Exception e) {
      return List.of();
    }
  }

  private static boolean isPluginConfig(AdmissionRequest request) {
    if (!request.group().isEmpty() || !"ConfigMap".equals(request.kind())) {
      return false;
    }
    String name = request.name();
    if (name.isEmpty() && request.object() != null) {
      name = request.object().path("metadata").path("name").asText("");
    }
    return PluginRegistry.CONFIG_MAP_NAME.equals(name);
  }

  private AdmissionDecision validatePluginConfig(AdmissionRequest request) {
    JsonNode data = request.object() == null ? null : request.object().get("data");
    Map<String, String> map = new LinkedHashMap<>();
    if (data != null && data.isObject()) {
      for (Iterator<Map.Entry<String, JsonNode>> it = data.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        map.put(
            e.getKey(), e.getValue().isTextual() ? e.getValue().asText() : e.getValue().toString());
      }
    }
    List<FieldError> errors = PluginConfigValidator.validate(map, schemas);
    if (!errors.isEmpty()) {
      return new AdmissionDecision(
          AdmissionReviews.invalid(request, errors, List.of()), "denied", errors.size());
    }
    return new AdmissionDecision(AdmissionReviews.allowed(request.uid(), List.of()), "allowed", 0);
  }

  private static AdmissionDecision validatePolicy(AdmissionRequest request) {
    if (!request.hasJsonObject()) {
      return new AdmissionDecision(
          AdmissionReviews.badObject(request, "AdmissionReview request has no object to validate"),
          "denied",
          1);
    }
    RolloutPolicy policy;
    try {
      policy = request.readObject(ModelJson.mapper(), RolloutPolicy.class);
    } catch (Exception e) {
      return BindingErrors.denial(request, e, "a RolloutPolicy", request.object(), "");
    }
    List<FieldError> errors = RolloutPolicyValidator.validate(policy);
    if (!errors.isEmpty()) {
      return new AdmissionDecision(
          AdmissionReviews.invalid(request, errors, List.of()), "denied", errors.size());
    }
    return new AdmissionDecision(AdmissionReviews.allowed(request.uid(), List.of()), "allowed", 0);
  }

  private static AdmissionDecision ignored(AdmissionRequest request) {
    return new AdmissionDecision(AdmissionReviews.allowed(request.uid(), List.of()), "ignored", 0);
  }
}
