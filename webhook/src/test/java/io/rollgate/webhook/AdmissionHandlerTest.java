package io.rollgate.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rollgate.api.AnalysisTemplateSpec;
import io.rollgate.api.ModelJson;
import io.rollgate.api.policy.RolloutPolicy;
import io.rollgate.plugin.PluginRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AdmissionHandlerTest {

  /** A view with a fixed registry, policies and namespace labels. */
  static final class FixedView implements ClusterView {
    PluginRegistry registry;
    String state = "present";
    final List<RolloutPolicy> policies = new ArrayList<>();
    final Map<String, Map<String, String>> namespaces = Map.of("shop", Map.of("env", "prod"));

    @Override
    public Plugins plugins() {
      return new Plugins(registry, "argo-rollouts/argo-rollouts-config", state);
    }

    @Override
    public List<RolloutPolicy> policies() {
      return policies;
    }

    boolean known = true;
    boolean absent;
    boolean templatesKnown;
    final Map<String, AnalysisTemplateSpec> templates = new java.util.HashMap<>();

    @Override
    public boolean templatesKnown() {
      return templatesKnown;
    }

    @Override
    public AnalysisTemplateSpec analysisTemplate(String namespace, String name) {
      return templates.get(namespace + "/" + name);
    }

    @Override
    public AnalysisTemplateSpec clusterAnalysisTemplate(String name) {
      return templates.get("/" + name);
    }

    @Override
    public boolean policiesKnown() {
      return known;
    }

    @Override
    public boolean policiesAbsent() {
      return absent;
    }

    @Override
    public Optional<Map<String, String>> namespaceLabels(String namespace) {
      return Optional.ofNullable(namespaces.get(namespace));
    }
  }

  static RolloutPolicy policy(String action) throws Exception {
    return ModelJson.mapper()
        .readValue(
            "{\"metadata\":{\"name\":\"prod\"},\"spec\":{\"enforcementAction\":\""
                + action
                + "\","
                + "\"namespaceSelector\":{\"matchLabels\":{\"env\":\"prod\"}},\"rules\":{\"maxReplicas\":2}}}",
            RolloutPolicy.class);
  }

  static ObjectNode rolloutWith(String stepsJson, int replicas) throws Exception {
    ObjectNode r = Reviews.validRollout();
    ObjectNode spec = (ObjectNode) r.get("spec");
    spec.put("replicas", replicas);
    ((ObjectNode) spec.get("strategy").get("canary"))
        .set("steps", AdmissionReviews.mapper().readTree(stepsJson));
    return r;
  }

  static JsonNode response(AdmissionDecision d) {
    return d.review().get("response");
  }

  @Test
  void policyActionsDecideDenyWarnOrAudit() throws Exception {
    FixedView view = new FixedView();
    view.registry = PluginRegistry.EMPTY;
    AdmissionHandler handler = new AdmissionHandler(view);
    AdmissionRequest big =
        Reviews.parse(Reviews.review("CREATE", rolloutWith("[{\"setWeight\":10}]", 5)));
    view.policies.add(policy("deny"));
    AdmissionDecision denied = handler.validate(big);
    assertEquals("denied", denied.verdict());
    assertTrue(
        response(denied)
            .get("status")
            .get("message")
            .asText()
            .contains(
                "spec.replicas: Invalid value: 5: exceeds maxReplicas 2 (RolloutPolicy \"prod\")"),
        denied.review().toString());
    // An update keeping a violation the stored object already had is admitted with a warning; a new
    // one is refused.
    ObjectNode update = Reviews.review("UPDATE", rolloutWith("[{\"setWeight\":10}]", 5));
    ((ObjectNode) update.get("request")).set("oldObject", rolloutWith("[{\"setWeight\":10}]", 5));
    AdmissionDecision kept = handler.validate(Reviews.parse(update));
    assertEquals("warned", kept.verdict(), kept.review().toString());
    assertTrue(response(kept).get("warnings").get(0).asText().endsWith("already breaks this rule"));
    ((ObjectNode) update.get("request")).set("oldObject", rolloutWith("[{\"setWeight\":10}]", 2));
    assertEquals("denied", handler.validate(Reviews.parse(update)).verdict());
    view.policies.set(0, policy("warn"));
    AdmissionDecision warned = handler.validate(big);
    assertEquals("warned", warned.verdict());
    assertEquals(
        "spec.replicas: Invalid value: 5: exceeds maxReplicas 2 (RolloutPolicy \"prod\")",
        response(warned).get("warnings").get(0).asText());
    view.policies.set(0, policy("audit"));
    assertEquals("allowed", handler.validate(big).verdict());
  }

  @Test
  void warnsThatPoliciesWereNotChecked_onlyWhileTheyCannotBeReadAndNotWhenTheirCrdIsAbsent()
      throws Exception {
    FixedView view = new FixedView();
    view.registry = PluginRegistry.EMPTY;
    AdmissionHandler handler = new AdmissionHandler(view);
    AdmissionRequest r =
        Reviews.parse(Reviews.review("CREATE", rolloutWith("[{\"setWeight\":10}]", 1)));
    view.known = false;
    AdmissionDecision loading = handler.validate(r);
    assertEquals("warned", loading.verdict());
    assertEquals(
        "RolloutPolicies are not loaded yet: this Rollout was not checked against them",
        response(loading).get("warnings").get(0).asText());
    view.absent = true;
    assertEquals("allowed", handler.validate(r).verdict());
  }

  @Test
  void pluginStepsNeedARegisteredPlugin_andAnAbsentRegistryOnlyWarns() throws Exception {
    FixedView view = new FixedView();
    view.registry =
        PluginRegistry.fromConfigMapData(
            Map.of("stepPlugins", "- {name: acme/step, location: 'file://s'}"));
    AdmissionHandler handler = new AdmissionHandler(view);
    AdmissionRequest unknown =
        Reviews.parse(
            Reviews.review("CREATE", rolloutWith("[{\"plugin\":{\"name\":\"acme/other\"}}]", 1)));
    assertEquals("denied", handler.validate(unknown).verdict());
    AdmissionRequest known =
        Reviews.parse(
            Reviews.review("CREATE", rolloutWith("[{\"plugin\":{\"name\":\"acme/step\"}}]", 1)));
    assertEquals("allowed", handler.validate(known).verdict());
    view.registry = null;
    view.state = "absent";
    AdmissionDecision d = handler.validate(unknown);
    assertEquals("warned", d.verdict());
    assertTrue(
        response(d)
            .get("warnings")
            .get(0)
            .asText()
            .contains("argo-rollouts/argo-rollouts-config (does not exist)"),
        d.review().toString());
  }

  @Test
  void onlyThePluginRegistryConfigMapIsChecked() throws Exception {
    AdmissionHandler handler = new AdmissionHandler(ClusterView.NONE);
    ObjectNode cm = AdmissionReviews.mapper().createObjectNode();
    cm.putObject("metadata").put("name", "argo-rollouts-config");
    cm.putObject("data").put("stepPlugins", "- name: bad\n  location: ftp://x\n");
    ObjectNode review = Reviews.review("UPDATE", cm);
    ObjectNode kind = (ObjectNode) review.get("request").get("kind");
    kind.put("group", "");
    kind.put("version", "v1");
    kind.put("kind", "ConfigMap");
    ((ObjectNode) review.get("request")).put("name", "argo-rollouts-config");
    AdmissionDecision d = handler.validate(Reviews.parse(review));
    assertEquals("denied", d.verdict());
    assertEquals(2, d.causes());
    ((ObjectNode) review.get("request")).put("name", "something-else");
    ((ObjectNode) cm.get("metadata")).put("name", "something-else");
    assertEquals("ignored", handler.validate(Reviews.parse(review)).verdict());
  }

  @Test
  void analysisTemplateValuesOfTheWrongTypeAreDeniedWithTheirFieldPath() throws Exception {
    ObjectNode template =
        (ObjectNode)
            AdmissionReviews.mapper()
                .readTree(
                    "{\"metadata\":{\"name\":\"t\"},\"spec\":{\"metrics\":[{\"name\":\"m\",\"count\":\"x\","
                        + "\"provider\":{\"prometheus\":{\"query\":\"up\"}}}]}}");
    ObjectNode review = Reviews.review("CREATE", template);
    ObjectNode kind = (ObjectNode) review.get("request").get("kind");
    kind.put("kind", "AnalysisTemplate");
    AdmissionDecision d = new AdmissionHandler(ClusterView.NONE).validate(Reviews.parse(review));
    JsonNode status = response(d).get("status");
    assertEquals(422, status.get("code").asInt(), status.toString());
    assertEquals(
        "spec.metrics[0].count", status.at("/details/causes/0/field").asText(), status.toString());
    assertTrue(
        status
            .get("message")
            .asText()
            .contains("spec.metrics[0].count: Invalid value: \"x\": must be"),
        status.toString());
  }

  @Test
  void warmUpDecidesWithoutTheCluster() {
    new AdmissionHandler(ClusterView.NONE).warmUp();
  }

  @Test
  void pluginConfigsAreCheckedAgainstTheRegisteredSchema_deniedWhenReadable_warnedWhenNot()
      throws Exception {
    FixedView view = new FixedView();
    view.registry =
        PluginRegistry.fromConfigMapData(
            Map.of(
                "stepPlugins",
                "- name: acme/ci\n  location: file://ci\n  configSchema:\n    type: object\n    required: [url]\n"
                    + "    properties: {url: {type: string}, retries: {type: integer, maximum: 5}}\n"));
    AdmissionHandler handler = new AdmissionHandler(view);
    AdmissionRequest bad =
        Reviews.parse(
            Reviews.review(
                "CREATE",
                rolloutWith(
                    "[{\"setWeight\":10},{\"plugin\":{\"name\":\"acme/ci\",\"config\":{\"retries\":9}}}]",
                    1)));
    AdmissionDecision denied = handler.validate(bad);
    assertEquals("denied", denied.verdict(), denied.review().toString());
    String message = response(denied).get("status").get("message").asText();
    assertTrue(
        message.contains(
            "spec.strategy.canary.steps[1].plugin.config.retries: Invalid value: 9: must have a maximum"
                + " value of 5"),
        message);
    assertTrue(
        message.contains(
            "spec.strategy.canary.steps[1].plugin.config.url: Required value: required property 'url' not found"),
        message);
    JsonNode causes = response(denied).get("status").get("details").get("causes");
    assertEquals(
        "spec.strategy.canary.steps[1].plugin.config.retries", causes.get(0).get("field").asText());
    AdmissionRequest good =
        Reviews.parse(
            Reviews.review(
                "CREATE",
                rolloutWith(
                    "[{\"plugin\":{\"name\":\"acme/ci\",\"config\":{\"url\":\"https://ci\"}}}]",
                    1)));
    assertEquals(
        "allowed", handler.validate(good).verdict(), handler.validate(good).review().toString());
    view.registry = null;
    view.state = "unreadable";
    AdmissionDecision warned = handler.validate(bad);
    assertEquals("warned", warned.verdict(), warned.review().toString());
    assertTrue(
        response(warned)
            .get("warnings")
            .get(0)
            .asText()
            .startsWith(
                "spec.strategy.canary.steps[1].plugin.name: plugin \"acme/ci\" not checked"),
        warned.review().toString());
  }

  @Test
  void podTemplateQuantitiesAndOldObjectsAreReadFromTheStreamedReview() throws Exception {
    AdmissionHandler handler = new AdmissionHandler(ClusterView.NONE);
    ObjectNode rollout = rolloutWith("[{\"setWeight\":10}]", 1);
    ObjectNode container = (ObjectNode) rollout.at("/spec/template/spec/containers/0");
    container.set(
        "resources",
        AdmissionReviews.mapper()
            .readTree(
                "{\"limits\":{\"cpu\":\"500m\",\"memory\":\"1Gi\"},\"requests\":{\"cpu\":\"250m\"}}"));
    ObjectNode review = Reviews.review("UPDATE", rollout);
    ((ObjectNode) review.get("request")).set("oldObject", rollout.deepCopy());
    byte[] body = review.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    AdmissionDecision allowed = handler.validate(AdmissionReviews.parse(body));
    assertEquals("allowed", allowed.verdict(), allowed.review().toString());
    container.set(
        "resources", AdmissionReviews.mapper().readTree("{\"limits\":{\"cpu\":\"1.5.5\"}}"));
    AdmissionDecision denied =
        handler.validate(
            AdmissionReviews.parse(
                Reviews.review("CREATE", rollout)
                    .toString()
                    .getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    assertEquals("denied", denied.verdict(), denied.review().toString());
    assertEquals(
        422, response(denied).get("status").get("code").asInt(), denied.review().toString());
    assertTrue(
        response(denied)
            .get("status")
            .get("message")
            .asText()
            .contains(
                "spec.template.spec.containers[0].resources.limits.cpu: Invalid value: \"1.5.5\""),
        denied.review().toString());
  }

  static AnalysisTemplateSpec templateSpec(String metricJson) throws Exception {
    return ModelJson.mapper()
        .readValue("{\"metrics\":[" + metricJson + "]}", AnalysisTemplateSpec.class);
  }

  @Test
  void stepAnalysisWhoseMetricWouldRunForeverIsDeniedNamingTheStep() throws Exception {
    FixedView view = new FixedView();
    view.templatesKnown = true;
    view.templates.put(
        "shop/forever",
        templateSpec("{\"name\":\"rate\",\"interval\":\"1m\",\"provider\":{\"job\":{}}}"));
    view.templates.put(
        "shop/bounded",
        templateSpec(
            "{\"name\":\"rate\",\"interval\":\"1m\",\"count\":3,\"provider\":{\"job\":{}}}"));
    AdmissionHandler handler = new AdmissionHandler(view);
    String step = "[{\"setWeight\":20},{\"analysis\":{\"templates\":[{\"templateName\":\"%s\"}]}}]";

    AdmissionDecision denied =
        handler.validate(
            Reviews.parse(Reviews.review("CREATE", rolloutWith(step.formatted("forever"), 2))));
    assertEquals("denied", denied.verdict());
    String message = response(denied).at("/status/message").asText();
    assertTrue(
        message.contains(
            "spec.strategy.canary.steps[1].analysis.templates: Invalid value: \"templateNames: [forever]\": "
                + "AnalysisTemplate forever has metric rate which runs indefinitely. Invalid value for count: <nil>"),
        message);

    assertEquals(
        "allowed",
        handler
            .validate(
                Reviews.parse(Reviews.review("CREATE", rolloutWith(step.formatted("bounded"), 2))))
            .verdict());

    // The same template as background analysis may run forever (Argo's rule).
    ObjectNode background = rolloutWith("[{\"setWeight\":20}]", 2);
    ((ObjectNode) background.at("/spec/strategy/canary"))
        .set(
            "analysis",
            AdmissionReviews.mapper().readTree("{\"templates\":[{\"templateName\":\"forever\"}]}"));
    assertEquals(
        "allowed", handler.validate(Reviews.parse(Reviews.review("CREATE", background))).verdict());
  }

  @Test
  void
      stepAnalysisOfATemplateNotAppliedYetIsAWarning_andNothingIsCheckedBeforeTheTemplatesAreKnown()
          throws Exception {
    FixedView view = new FixedView();
    view.templatesKnown = true;
    AdmissionHandler handler = new AdmissionHandler(view);
    ObjectNode rollout =
        rolloutWith(
            "[{\"analysis\":{\"templates\":[{\"templateName\":\"later\",\"clusterScope\":true}]}}]",
            2);
    AdmissionDecision warned = handler.validate(Reviews.parse(Reviews.review("CREATE", rollout)));
    assertEquals("warned", warned.verdict());
    assertTrue(
        response(warned)
            .get("warnings")
            .toString()
            .contains(
                "ClusterAnalysisTemplate 'later' not found: the Rollout is InvalidSpec until it exists"),
        response(warned).toString());
    view.templatesKnown = false;
    assertEquals(
        "allowed", handler.validate(Reviews.parse(Reviews.review("CREATE", rollout))).verdict());
  }
}
