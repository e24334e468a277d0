package io.rollgate.webhook;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MatchConditionBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfigurationBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.RuleWithOperations;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.RuleWithOperationsBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfigurationBuilder;
import io.rollgate.webhook.kube.WebhookApi;
import io.vertx.core.Future;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates or updates the webhook's {@code ValidatingWebhookConfiguration} and {@code
 * MutatingWebhookConfiguration} pointing at a URL ({@code clientConfig.url}), for local runs and
 * tests; in a cluster the chart owns them.
 *
 * <p>Choices, one webhook entry per kind so each gets its own failure policy:
 *
 * <ul>
 *   <li>{@code argoproj.io/v1alpha1 rollouts} CREATE/UPDATE (so {@code rollouts/status} never
 *       reaches the webhook): {@code failurePolicy: Fail} (a Rollout is never admitted unchecked,
 *       so while the webhook is down Rollout creates and updates fail, and nothing else does),
 *       {@code timeoutSeconds: 10};
 *   <li>{@code rollgate.io/v1alpha1 rolloutpolicies} (cluster-scoped): {@code Fail}, 10 s;
 *   <li>{@code argoproj.io/v1alpha1 analysistemplates} and {@code clusteranalysistemplates}: {@code
 *       Fail}, 10 s;
 *   <li>ConfigMaps, narrowed by a {@code matchConditions} CEL expression to the one named {@code
 *       argo-rollouts-config} (other ConfigMaps are never sent): {@code failurePolicy: Ignore} (a
 *       core kind must not depend on us; the controller checks the registry again when it loads
 *       it), {@code timeoutSeconds: 5}.
 * </ul>
 *
 * <p>All: {@code sideEffects: None}; namespaces {@code kube-system} and those labelled {@code
 * rollgate.io/webhook=disabled} excluded (namespaced kinds), plus an optional required label.
 */
public final class WebhookRegistrar implements CaBundlePublisher {

  /**
   * Namespace label that opts a namespace out of the webhook ({@code
   * rollgate.io/webhook=disabled}).
   */
  public static final String OPT_OUT_LABEL = "rollgate.io/webhook";

  private static final Logger LOG = LoggerFactory.getLogger(WebhookRegistrar.class);
  private static final String PLUGIN_CONFIG_MAP = "argo-rollouts-config";

  /**
   * What to register.
   *
   * @param validatingName the ValidatingWebhookConfiguration's name
   * @param mutatingName the MutatingWebhookConfiguration's name
   * @param baseUrl the webhook's https base URL; {@code /validate} and {@code /mutate} are appended
   * @param requiredNamespaceLabels labels a namespace must carry to be covered (empty: every
   *     namespace not excluded)
   * @param mutate whether to register the mutating configuration
   */
  public record Settings(
      String validatingName,
      String mutatingName,
      String baseUrl,
      Map<String, String> requiredNamespaceLabels,
      boolean mutate) {}

  private final WebhookApi api;
  private final Settings settings;

  /**
   * Creates the registrar.
   *
   * @param api the webhook's API facade
   * @param settings what to register
   */
  public WebhookRegistrar(WebhookApi api, Settings settings) {
    this.api = api;
    this.settings = settings;
  }

  /**
   * Applies both configurations (server-side apply under the field manager {@value
   * WebhookApi#FIELD_MANAGER}, forcing ownership: the webhook wholly owns them).
   *
   * @param caBundlePem the PEM CA certificate(s) the API server must trust; several during a CA
   *     rollover
   * @return a Future completed when both are applied; failed with the {@code KubeApiException} when
   *     the API server refuses
   */
  public Future<Void> register(String caBundlePem) {
    String caBundle =
        Base64.getEncoder().encodeToString(caBundlePem.getBytes(StandardCharsets.UTF_8));
    return api.applyConfiguration(validating(caBundle))
        .compose(
            v ->
                settings.mutate()
                    ? api.applyConfiguration(mutating(caBundle)).<Void>mapEmpty()
                    : Future.<Void>succeededFuture())
        .onSuccess(
            v ->
                LOG.info(
                    "registered webhook configurations {}{} at {}",
                    settings.validatingName(),
                    settings.mutate() ? " and " + settings.mutatingName() : "",
                    settings.baseUrl()));
  }

  /**
   * Same as {@link #register}: applies both configurations with this CA bundle.
   *
   * @param caBundlePem the PEM CA certificate(s)
   * @return as {@link #register}
   */
  @Override
  public Future<Void> publish(String caBundlePem) {
    return register(caBundlePem);
  }

  /**
   * The ValidatingWebhookConfiguration to apply.
   *
   * @param caBundle the base64 of the PEM CA bundle
   * @return the configuration
   */
  ValidatingWebhookConfiguration validating(String caBundle) {
    return new ValidatingWebhookConfigurationBuilder()
        .withNewMetadata()
        .withName(settings.validatingName())
        .addToLabels("app.kubernetes.io/managed-by", "rollgate-webhook")
        .endMetadata()
        .addNewWebhook()
        .withName("validate.rollouts.rollgate.io")
        .withNewClientConfig()
        .withUrl(url("/validate"))
        .withCaBundle(caBundle)
        .endClientConfig()
        .withRules(rule())
        .withNamespaceSelector(namespaceSelector())
        .withSideEffects("None")
        .withAdmissionReviewVersions("v1")
        .withFailurePolicy("Fail")
        .withTimeoutSeconds(10)
        .withMatchPolicy("Equivalent")
        .endWebhook()
        .addNewWebhook()
        .withName("validate.rolloutpolicies.rollgate.io")
        .withNewClientConfig()
        .withUrl(url("/validate"))
        .withCaBundle(caBundle)
        .endClientConfig()
        .withRules(
            new RuleWithOperationsBuilder()
                .withApiGroups("rollgate.io")
                .withApiVersions("v1alpha1")
                .withResources("rolloutpolicies")
                .withOperations("CREATE", "UPDATE")
                .withScope("Cluster")
                .build())
        .withSideEffects("None")
        .withAdmissionReviewVersions("v1")
        .withFailurePolicy("Fail")
        .withTimeoutSeconds(10)
        .withMatchPolicy("Equivalent")
        .endWebhook()
        .addNewWebhook()
        .withName("validate.analysistemplates.rollgate.io")
        .withNewClientConfig()
        .withUrl(url("/validate"))
        .withCaBundle(caBundle)
        .endClientConfig()
        .withRules(
            new RuleWithOperationsBuilder()
                .withApiGroups("argoproj.io")
                .withApiVersions("v1alpha1")
                .withResources("analysistemplates")
                .withOperations("CREATE", "UPDATE")
                .withScope("Namespaced")
                .build(),
            new RuleWithOperationsBuilder()
                .withApiGroups("argoproj.io")
                .withApiVersions("v1alpha1")
                .withResources("clusteranalysistemplates")
                .withOperations("CREATE", "UPDATE")
                .withScope("Cluster")
                .build())
        .withNamespaceSelector(namespaceSelector())
        .withSideEffects("None")
        .withAdmissionReviewVersions("v1")
        .withFailurePolicy("Fail")
        .withTimeoutSeconds(10)
        .withMatchPolicy("Equivalent")
        .endWebhook()
        .addNewWebhook()
        .withName("validate.plugin-config.rollgate.io")
        .withNewClientConfig()
        .withUrl(url("/validate"))
        .withCaBundle(caBundle)
        .endClientConfig()
        .withRules(
            new RuleWithOperationsBuilder()
                .withApiGroups("")
                .withApiVersions("v1")
                .withResources("configmaps")
                .withOperations("CREATE", "UPDATE")
                .withScope("Namespaced")
                .build())
        // Only the plugin registry is sent: the API server evaluates this before calling, so every
        // other ConfigMap is admitted without a call, and the webhook being down never affects
        // them.
        .withMatchConditions(
            new MatchConditionBuilder()
                .withName("plugin-registry-only")
                .withExpression("object.metadata.name == '" + PLUGIN_CONFIG_MAP + "'")
                .build())
        .withNamespaceSelector(namespaceSelector())
        .withSideEffects("None")
        .withAdmissionReviewVersions("v1")
        .withFailurePolicy("Ignore")
        .withTimeoutSeconds(5)
        .withMatchPolicy("Equivalent")
        .endWebhook()
        .build();
  }

  /**
   * The MutatingWebhookConfiguration to apply.
   *
   * @param caBundle the base64 of the PEM CA bundle
   * @return the configuration
   */
  MutatingWebhookConfiguration mutating(String caBundle) {
    return new MutatingWebhookConfigurationBuilder()
        .withNewMetadata()
        .withName(settings.mutatingName())
        .addToLabels("app.kubernetes.io/managed-by", "rollgate-webhook")
        .endMetadata()
        .addNewWebhook()
        .withName("mutate.rollouts.rollgate.io")
        .withNewClientConfig()
        .withUrl(url("/mutate"))
        .withCaBundle(caBundle)
        .endClientConfig()
        .withRules(rule())
        .withNamespaceSelector(namespaceSelector())
        .withSideEffects("None")
        .withAdmissionReviewVersions("v1")
        .withFailurePolicy("Fail")
        .withTimeoutSeconds(10)
        .withMatchPolicy("Equivalent")
        .withReinvocationPolicy("Never")
        .endWebhook()
        .build();
  }

  private String url(String path) {
    String base = settings.baseUrl();
    return (base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + path;
  }

  private static RuleWithOperations rule() {
    return new RuleWithOperationsBuilder()
        .withApiGroups("argoproj.io")
        .withApiVersions("v1alpha1")
        .withResources("rollouts")
        .withOperations("CREATE", "UPDATE")
        .withScope("Namespaced")
        .build();
  }

  private LabelSelector namespaceSelector() {
    LabelSelectorBuilder b =
        new LabelSelectorBuilder()
            .addNewMatchExpression()
            .withKey("kubernetes.io/metadata.name")
            .withOperator("NotIn")
            .withValues("kube-system")
            .endMatchExpression()
            .addNewMatchExpression()
            .withKey(OPT_OUT_LABEL)
            .withOperator("NotIn")
            .withValues("disabled")
            .endMatchExpression();
    settings
        .requiredNamespaceLabels()
        .forEach(
            (k, v) ->
                b.addNewMatchExpression()
                    .withKey(k)
                    .withOperator("In")
                    .withValues(v)
                    .endMatchExpression());
    return b.build();
  }
}
