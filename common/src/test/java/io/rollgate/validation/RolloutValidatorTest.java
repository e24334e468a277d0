package io.rollgate.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.rollgate.api.ModelJson;
import io.rollgate.api.Rollout;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class RolloutValidatorTest {

  private static final YAMLMapper YAML = new YAMLMapper();

  /**
   * A valid basic canary; every test states only what it changes (merged with RFC 7386 semantics).
   */
  private static final String CANARY =
      """
      apiVersion: argoproj.io/v1alpha1
      kind: Rollout
      metadata:
        name: web
        namespace: shop
      spec:
        replicas: 3
        selector:
          matchLabels:
            app: web
        template:
          metadata:
            labels:
              app: web
          spec:
            containers:
              - name: web
                image: nginx:1.25
        strategy:
          canary:
            steps:
              - setWeight: 20
              - pause: {duration: 30s}
              - setWeight: 50
              - pause: {}
      """;

  private static final String ISTIO =
      """
      spec:
        strategy:
          canary:
            canaryService: web-canary
            stableService: web-stable
            trafficRouting:
              istio:
                virtualService: {name: web-vs}
      """;

  private static final String ALB =
      """
      spec:
        strategy:
          canary:
            canaryService: web-canary
            stableService: web-stable
            trafficRouting:
              alb: {ingress: web, servicePort: 80}
      """;

  private static final String NGINX =
      """
      spec:
        strategy:
          canary:
            canaryService: web-canary
            stableService: web-stable
            trafficRouting:
              nginx: {stableIngress: web}
      """;

  private static final String BLUE_GREEN =
      """
      spec:
        strategy:
          canary: null
          blueGreen:
            activeService: web-active
            previewService: web-preview
      """;

  // ---------------------------------------------------------------------------------------------------------------
  // valid Rollouts

  @Test
  void acceptsBasicCanary() {
    assertEquals(List.of(), RolloutValidator.validate(rollout()));
  }

  @Test
  void acceptsFullyConfiguredTrafficRoutedCanary() {
    Rollout r =
        rollout(
            ISTIO,
            """
            spec:
              minReadySeconds: 5
              progressDeadlineSeconds: 120
              revisionHistoryLimit: 3
              selector:
                matchLabels: {app: web}
                matchExpressions:
                  - {key: tier, operator: In, values: [front, edge]}
                  - {key: legacy, operator: DoesNotExist}
              template:
                metadata:
                  labels: {app: web, tier: front}
                spec:
                  restartPolicy: Always
                  containers:
                    - {name: web, image: "nginx:1.25"}
                    - {name: proxy, image: envoy}
              strategy:
                canary:
                  maxSurge: "0%"
                  maxUnavailable: 1
                  scaleDownDelaySeconds: 30
                  abortScaleDownDelaySeconds: 10
                  antiAffinity:
                    preferredDuringSchedulingIgnoredDuringExecution: {weight: 50}
                  trafficRouting:
                    managedRoutes: [{name: header}, {name: mirror}]
                    istio:
                      virtualService: {name: web-vs, routes: [primary]}
                  steps:
                    - setCanaryScale: {replicas: 1}
                    - setHeaderRoute:
                        name: header
                        match:
                          - headerName: x-canary
                            headerValue: {exact: "yes"}
                    - setMirrorRoute:
                        name: mirror
                        percentage: 50
                        match:
                          - method: {exact: GET}
                            path: {prefix: /api}
                    - setWeight: 0
                    - pause: {duration: 0}
                    - setWeight: 100
                    - pause: {duration: "1h30m"}
                    - pause: {duration: "15"}
                    - analysis:
                        templates: [{templateName: success-rate}]
                    - experiment:
                        duration: 5m
                        templates:
                          - {name: baseline, specRef: stable, weight: 10}
                    - setWeight: 40
                      setCanaryScale: {matchTrafficWeight: true}
                    - setHeaderRoute: {name: header}
                    - pause: {}
            """);
    assertEquals(List.of(), RolloutValidator.validate(r));
  }

  @Test
  void acceptsBlueGreen() {
    Rollout r =
        rollout(
            BLUE_GREEN,
            """
            spec:
              revisionHistoryLimit: 5
              strategy:
                blueGreen:
                  autoPromotionEnabled: false
                  autoPromotionSeconds: 30
                  previewReplicaCount: 1
                  scaleDownDelaySeconds: 30
                  scaleDownDelayRevisionLimit: 5
                  antiAffinity:
                    requiredDuringSchedulingIgnoredDuringExecution: {}
            """);
    assertEquals(List.of(), RolloutValidator.validate(r));
  }

  @Test
  void listsEveryError_inFieldOrder() {
    List<FieldError> errors =
        RolloutValidator.validate(
            rollout(
                """
                spec:
                  replicas: -2
                  strategy:
                    canary:
                      steps: [{setWeight: 120}]
                """));
    assertEquals(
        List.of(
            "spec.replicas: Invalid value: -2: must be greater than or equal to 0",
            "spec.strategy.canary.steps[0].setWeight: Invalid value: 120: SetWeight needs to be between 0 and 100"),
        errors.stream().map(FieldError::toString).toList());
  }

  // ---------------------------------------------------------------------------------------------------------------
  // spec, replicas, selector, template

  @Test
  void requiresSpec() {
    Rollout r =
        ModelJson.fromJson("{\"kind\":\"Rollout\",\"metadata\":{\"name\":\"web\"}}", Rollout.class);
    assertEquals("spec: Required value: Rollout has missing field '.spec'", firstError(r));
  }

  @Test
  void rejectsNegativeReplicas() {
    assertEquals(
        "spec.replicas: Invalid value: -1: must be greater than or equal to 0",
        firstError(rollout("spec: {replicas: -1}")));
  }

  @Test
  void acceptsZeroAndDefaultedReplicas() {
    assertEquals(List.of(), RolloutValidator.validate(rollout("spec: {replicas: 0}")));
    assertEquals(List.of(), RolloutValidator.validate(rollout("spec: {replicas: null}")));
  }

  @Test
  void requiresSelector_whenNoWorkloadRef() {
    assertEquals(
        "spec.selector: Required value: Rollout has missing field '.spec.selector'",
        firstError(rollout("spec: {selector: null}")));
  }

  @Test
  void rejectsEmptySelector() {
    assertEquals(
        "spec.selector: Invalid value: {}: empty selector is invalid for deployment",
        firstError(rollout("spec: {selector: {matchLabels: null}}")));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "{key: tier, operator: Exists, values: [a]} | Exists",
        "{key: tier, operator: In, values: []}      | In",
        "{key: tier, operator: NotIn}               | NotIn",
        "{key: tier, operator: Equals, values: [a]} | Equals",
      })
  void rejectsMalformedMatchExpression(String expression, String operator) {
    Rollout r =
        rollout("spec: {selector: {matchLabels: null, matchExpressions: [" + expression + "]}}");
    assertEquals(
        "spec.selector.matchExpressions[0]: Invalid value: \""
            + operator
            + "\": invalid label selector",
        firstError(r));
  }

  @Test
  void rejectsTemplateLabelsThatSelectorDoesNotMatch() {
    assertEquals(
        "spec.template.metadata.labels: Invalid value: {\"app\":\"other\"}: `selector` does not match template `labels`",
        firstError(rollout("spec: {template: {metadata: {labels: {app: other}}}}")));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{key: tier, operator: In, values: [back]}",
        "{key: tier, operator: NotIn, values: [front]}",
        "{key: zone, operator: Exists}",
        "{key: tier, operator: DoesNotExist}",
      })
  void rejectsTemplateLabelsThatMatchExpressionsExclude(String expression) {
    Rollout r =
        rollout(
            "spec: {selector: {matchExpressions: ["
                + expression
                + "]}, template: {metadata: {labels: {app: web, tier: front}}}}");
    assertEquals(
        "spec.template.metadata.labels: Invalid value: {\"app\":\"web\",\"tier\":\"front\"}: `selector` does not match template"
            + " `labels`",
        firstError(r));
  }

  @Test
  void rejectsTemplateWithoutContainers() {
    assertEquals(
        "spec.template.spec.containers: Required value: must have at least one container",
        firstError(rollout("spec: {template: {spec: {containers: []}}}")));
  }

  static Stream<Arguments> invalidContainers() {
    String p = "spec.template.spec.containers";
    return Stream.of(
        Arguments.of(
            "[{image: nginx}]", p + "[0].name: Required value: container name is required"),
        Arguments.of(
            "[{name: Web, image: nginx}]",
            p
                + "[0].name: Invalid value: \"Web\": must be a DNS-1123 label (lowercase alphanumerics and '-')"),
        Arguments.of(
            "[{name: web, image: a}, {name: web, image: b}]",
            p + "[1].name: Invalid value: \"web\": Duplicate value"),
        Arguments.of("[{name: web}]", p + "[0].image: Required value: container image is required"),
        Arguments.of(
            "[{name: web, image: ' '}]",
            p + "[0].image: Required value: container image is required"));
  }

  @ParameterizedTest
  @MethodSource("invalidContainers")
  void rejectsInvalidContainers(String containers, String expected) {
    assertEquals(
        expected,
        firstError(rollout("spec: {template: {spec: {containers: " + containers + "}}}")));
  }

  @ParameterizedTest
  @ValueSource(strings = {"Never", "OnFailure"})
  void rejectsRestartPolicyOtherThanAlways(String policy) {
    assertEquals(
        "spec.template.spec.restartPolicy: Invalid value: \""
            + policy
            + "\": Unsupported value: only \"Always\" is supported",
        firstError(rollout("spec: {template: {spec: {restartPolicy: " + policy + "}}}")));
  }

  @Test
  void rejectsTemplateLabels_whenWorkloadRefIsSet() {
    Rollout r =
        rollout(
            """
            spec:
              selector: null
              workloadRef: {apiVersion: apps/v1, kind: Deployment, name: web}
              template: {metadata: {labels: {app: web}}, spec: null}
            """);
    assertEquals(
        "spec.template: Internal error: template must be empty for workload reference rollout",
        firstError(r));
  }

  @Test
  void acceptsEmptyTemplateAndNoSelector_whenWorkloadRefIsSet() {
    Rollout r =
        rollout(
            """
            spec:
              selector: null
              template: null
              workloadRef: {apiVersion: apps/v1, kind: Deployment, name: web}
            """);
    assertEquals(List.of(), RolloutValidator.validate(r));
  }

  // ---------------------------------------------------------------------------------------------------------------
  // minReadySeconds, revisionHistoryLimit, progressDeadlineSeconds

  @Test
  void rejectsNegativeMinReadySeconds() {
    assertEquals(
        "spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0",
        firstError(rollout("spec: {minReadySeconds: -1}")));
  }

  @Test
  void rejectsNegativeRevisionHistoryLimit() {
    assertEquals(
        "spec.revisionHistoryLimit: Invalid value: -1: must be greater than or equal to 0",
        firstError(rollout("spec: {revisionHistoryLimit: -1}")));
  }

  @Test
  void rejectsNegativeProgressDeadlineSeconds() {
    assertEquals(
        "spec.progressDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0",
        firstError(rollout("spec: {progressDeadlineSeconds: -1}")));
  }

  @ParameterizedTest
  @CsvSource({"10, 10", "10, 20"})
  void rejectsProgressDeadline_whenNotGreaterThanMinReadySeconds(int deadline, int minReady) {
    assertEquals(
        "spec.progressDeadlineSeconds: Invalid value: "
            + deadline
            + ": must be greater than minReadySeconds",
        firstError(
            rollout(
                "spec: {progressDeadlineSeconds: "
                    + deadline
                    + ", minReadySeconds: "
                    + minReady
                    + "}")));
  }

  @Test
  void acceptsProgressDeadlineGreaterThanMinReadySeconds() {
    assertEquals(
        List.of(),
        RolloutValidator.validate(
            rollout("spec: {progressDeadlineSeconds: 11, minReadySeconds: 10}")));
  }

  @Test
  void rejectsMinReadySecondsNotBelowDefaultProgressDeadline() {
    assertEquals(
        "spec.progressDeadlineSeconds: Invalid value: 600: must be greater than minReadySeconds",
        firstError(rollout("spec: {minReadySeconds: 600}")));
  }

  // ---------------------------------------------------------------------------------------------------------------
  // strategy

  @Test
  void requiresAStrategy() {
    String expected =
        "spec.strategy: Required value: Rollout has missing field '.spec.strategy.canary or .spec.strategy.blueGreen'";
    assertEquals(expected, firstError(rollout("spec: {strategy: null}")));
    assertEquals(expected, firstError(rollout("spec: {strategy: {canary: null}}")));
  }

  @Test
  void rejectsBothStrategies() {
    assertEquals(
        "spec.strategy: Invalid value: \"canary, blueGreen\": Multiple Strategies can not be listed",
        firstError(
            rollout("spec: {strategy: {blueGreen: {activeService: a, previewService: b}}}")));
  }

  @Test
  void rejectsSameActiveAndPreviewService() {
    assertEquals(
        "spec.strategy.blueGreen.activeService: Invalid value: \"web\": This rollout uses the same service for the"
            + " active and preview services, but two different services are required.",
        firstError(
            rollout(
                BLUE_GREEN,
                "spec: {strategy: {blueGreen: {activeService: web, previewService: web}}}")));
  }

  @Test
  void rejectsScaleDownDelayRevisionLimitAboveRevisionHistoryLimit() {
    assertEquals(
        "spec.strategy.blueGreen.scaleDownDelayRevisionLimit: Invalid value: 11: This rollout's revision history limit"
            + " can not be smaller than the rollout's scale down limit",
        firstError(
            rollout(
                BLUE_GREEN, "spec: {strategy: {blueGreen: {scaleDownDelayRevisionLimit: 11}}}")));
  }

  @Test
  void rejectsAntiAffinityWithNoneOrBothStrategies() {
    String both =
        "{preferredDuringSchedulingIgnoredDuringExecution: {weight: 1},"
            + " requiredDuringSchedulingIgnoredDuringExecution: {}}";
    String detail =
        ": Invalid value: \"antiAffinity\": AntiAffinity must have exactly one strategy listed";
    assertEquals(
        "spec.strategy.canary.antiAffinity" + detail,
        firstError(rollout("spec: {strategy: {canary: {antiAffinity: {}}}}")));
    assertEquals(
        "spec.strategy.canary.antiAffinity" + detail,
        firstError(rollout("spec: {strategy: {canary: {antiAffinity: " + both.strip() + "}}}")));
    assertEquals(
        "spec.strategy.blueGreen.antiAffinity" + detail,
        firstError(rollout(BLUE_GREEN, "spec: {strategy: {blueGreen: {antiAffinity: {}}}}")));
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 101, -1})
  void rejectsPreferredAntiAffinityWeightOutsideOneToHundred(int weight) {
    assertEquals(
        "spec.strategy.canary.antiAffinity.preferredDuringSchedulingIgnoredDuringExecution.weight: Invalid value: "
            + weight
            + ": AntiAffinity weight must be between 1-100",
        firstError(
            rollout(
                "spec: {strategy: {canary: {antiAffinity: {preferredDuringSchedulingIgnoredDuringExecution: {weight: "
                    + weight
                    + "}}}}}")));
  }

  // ---------------------------------------------------------------------------------------------------------------
  // canary

  @ParameterizedTest(name = "maxSurge={0} maxUnavailable={1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "0      | 0      | 0",
        "'\"0%\"' | 0      | 0",
        "0      | '\"0%\"' | \"0%\"",
        "'\"0\"'  | '\"0%\"' | \"0%\"",
        "'\"0%\"' | '\"0\"'  | \"0\"",
      })
  void rejectsMaxSurgeAndMaxUnavailableBothZero(String surge, String unavailable, String rendered) {
    assertEquals(
        "spec.strategy.canary.maxUnavailable: Invalid value: "
            + rendered
            + ": MaxSurge and MaxUnavailable both can not be zero",
        firstError(
            rollout(
                "spec: {strategy: {canary: {maxSurge: "
                    + surge
                    + ", maxUnavailable: "
                    + unavailable
                    + "}}}")));
  }

  @ParameterizedTest(name = "maxSurge={0} maxUnavailable={1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "0        | null",
        "null     | 0",
        "'\"0%\"'   | 1",
        "'\"1%\"'   | '\"0%\"'",
        "'\"10\"'   | 0",
      })
  void acceptsMaxSurgeAndMaxUnavailable_whenOneIsNonZeroOrDefaulted(
      String surge, String unavailable) {
    assertEquals(
        List.of(),
        RolloutValidator.validate(
            rollout(
                "spec: {strategy: {canary: {maxSurge: "
                    + surge
                    + ", maxUnavailable: "
                    + unavailable
                    + "}}}")));
  }

  @ParameterizedTest
  @ValueSource(strings = {"2147483648", "99999999999%", "99999999999999999999999"})
  void rejectsMaxSurgeBeyondAnInt(String surge) {
    assertEquals(
        "spec.strategy.canary.maxSurge: Invalid value: \""
            + surge
            + "\": must be at most 2147483647",
        firstError(rollout("spec: {strategy: {canary: {maxSurge: \"" + surge + "\"}}}")));
  }

  @ParameterizedTest
  @CsvSource({
    "maxSurge, x",
    "maxSurge, ''",
    "maxSurge, %",
    "maxSurge, 1%%",
    "maxSurge, 2.5%",
    "maxSurge, -1%",
    "maxUnavailable, x",
    "maxUnavailable, %",
    "maxUnavailable, 2.5%",
    "maxUnavailable, -1%"
  })
  void rejectsMaxSurgeAndMaxUnavailableThatAreNeitherAnIntegerNorAPercentage(
      String field, String value) {
    assertEquals(
        "spec.strategy.canary."
            + field
            + ": Invalid value: \""
            + value
            + "\": must be an integer or a percentage"
            + " (e.g. '25%')",
        firstError(rollout("spec: {strategy: {canary: {" + field + ": \"" + value + "\"}}}")));
  }

  @ParameterizedTest
  @ValueSource(strings = {"maxSurge", "maxUnavailable"})
  void rejectsANegativeMaxSurgeOrMaxUnavailable(String field) {
    assertEquals(
        "spec.strategy.canary." + field + ": Invalid value: -1: must be greater than or equal to 0",
        firstError(rollout("spec: {strategy: {canary: {" + field + ": -1}}}")));
  }

  @ParameterizedTest
  @ValueSource(strings = {"0000000001", "000000000", "2147483647", "1234567890%"})
  void acceptsMaxSurgeWithLeadingZerosOrUpToTheLargestInt(String surge) {
    assertEquals(
        List.of(),
        RolloutValidator.validate(
            rollout("spec: {strategy: {canary: {maxSurge: \"" + surge + "\"}}}")));
  }

  @Test
  void acceptsTheLargestIntAsMaxSurge() {
    assertEquals(
        List.of(),
        RolloutValidator.validate(
            rollout("spec: {strategy: {canary: {maxSurge: \"2147483647%\"}}}")));
  }

  @Test
  void rejectsSameCanaryAndStableService() {
    assertEquals(
        "spec.strategy.canary.stableService: Invalid value: \"web\": This rollout uses the same service for the stable"
            + " and canary services, but two different services are required.",
        firstError(
            rollout("spec: {strategy: {canary: {canaryService: web, stableService: web}}}")));
  }

  @Test
  void rejectsPingPong_whenRouterIsNotAlbIstioOrPlugin() {
    Rollout r =
        rollout(
            NGINX,
            "spec: {strategy: {canary: {canaryService: null, stableService: null,"
                + " pingPong: {pingService: ping, pongService: pong}}}}");
    assertEquals(
        "spec.strategy.canary.pingPong: Invalid value: \"pingPong\": Ping-pong feature works with the ALB, Istio, and"
            + " plugin-based traffic routers only",
        firstError(r));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{pingService: ping}",
        "{pongService: pong}",
        "{pingService: '', pongService: pong}"
      })
  void requiresBothPingAndPongServices(String pingPong) {
    Rollout r =
        rollout(
            ALB,
            "spec: {strategy: {canary: {canaryService: null, stableService: null,"
                + " trafficRouting: {alb: {rootService: web-root}}, pingPong: "
                + pingPong
                + "}}}");
    assertEquals(
        "spec.strategy.canary.pingPong: Invalid value: \"pingPong\": Ping service and Pong service must to be set to"
            + " use Ping-Pong feature",
        firstError(r));
  }

  @Test
  void rejectsSamePingAndPongService() {
    Rollout r =
        rollout(
            ALB,
            "spec: {strategy: {canary: {canaryService: null, stableService: null,"
                + " trafficRouting: {alb: {rootService: web-root}},"
                + " pingPong: {pingService: ping, pongService: ping}}}}");
    assertEquals(
        "spec.strategy.canary.pingPong.pingService: Invalid value: \"ping\": This rollout uses the same service for the"
            + " ping and pong services, but two different services are required.",
        firstError(r));
  }

  @Test
  void acceptsPingPongWithoutCanaryAndStableServices_whenAlbHasRootService() {
    Rollout r =
        rollout(
            ALB,
            "spec: {strategy: {canary: {canaryService: null, stableService: null,"
                + " trafficRouting: {alb: {rootService: web-root}},"
                + " pingPong: {pingService: ping, pongService: pong}}}}");
    assertEquals(List.of(), RolloutValidator.validate(r));
  }

  @Test
  void requiresAlbRootService_whenPingPongIsUsed() {
    Rollout r =
        rollout(
            ALB,
            "spec: {strategy: {canary: {canaryService: null, stableService: null,"
                + " pingPong: {pingService: ping, pongService: pong}}}}");
    assertEquals(
        "spec.strategy.canary.trafficRouting.alb.rootService: Invalid value: \"\": Root service field is required for"
            + " the configuration with ALB and ping-pong feature enabled",
        firstError(r));
  }

  @ParameterizedTest
  @ValueSource(strings = {"canaryService: null", "stableService: null", "stableService: ''"})
  void requiresCanaryAndStableServices_whenRouterNeedsThem(String unset) {
    assertEquals(
        "spec.strategy.canary.trafficRouting: Invalid value: \"trafficRouting\": Canary service and Stable service must"
            + " to be set to use Traffic Routing",
        firstError(rollout(NGINX, "spec: {strategy: {canary: {" + unset + "}}}")));
  }

  @Test
  void acceptsIstioWithoutServices_whenDestinationRuleIsUsed() {
    Rollout r =
        rollout(
            ISTIO,
            """
            spec:
              strategy:
                canary:
                  canaryService: null
                  stableService: null
                  trafficRouting:
                    istio:
                      destinationRule: {name: web-dr, canarySubsetName: canary, stableSubsetName: stable}
            """);
    assertEquals(List.of(), RolloutValidator.validate(r));
  }

  @Test
  void rejectsScaleDownDelaySeconds_withoutTrafficRouting() {
    assertEquals(
        "spec.strategy.canary.scaleDownDelaySeconds: Invalid value: 30: Canary scaleDownDelaySeconds can only be used"
            + " with traffic routing",
        firstError(rollout("spec: {strategy: {canary: {scaleDownDelaySeconds: 30}}}")));
  }

  @Test
  void rejectsDynamicStableScale_withoutTrafficRouting() {
    assertEquals(
        "spec.strategy.canary.dynamicStableScale: Invalid value: true: Canary dynamicStableScale can only be used with"
            + " traffic routing",
        firstError(rollout("spec: {strategy: {canary: {dynamicStableScale: true}}}")));
  }

  @Test
  void rejectsDynamicStableScaleWithScaleDownDelaySeconds() {
    assertEquals(
        "spec.strategy.canary.dynamicStableScale: Invalid value: true: Canary dynamicStableScale cannot be used with"
            + " scaleDownDelaySeconds",
        firstError(
            rollout(
                ISTIO,
                "spec: {strategy: {canary: {dynamicStableScale: true, scaleDownDelaySeconds: 30}}}")));
  }

  @Test
  void acceptsDynamicStableScale_withTrafficRouting() {
    assertEquals(
        List.of(),
        RolloutValidator.validate(
            rollout(ISTIO, "spec: {strategy: {canary: {dynamicStableScale: true}}}")));
  }

  @Test
  void rejectsMaxTrafficWeight_whenRouterIsNotNginxOrPlugin() {
    assertEquals(
        "spec.strategy.canary.trafficRouting.maxTrafficWeight: Invalid value: 1000: Canary maxTrafficWeight in traffic"
            + " routing only supported in Nginx and Plugins",
        firstError(
            rollout(
                ISTIO, "spec: {strategy: {canary: {trafficRouting: {maxTrafficWeight: 1000}}}}")));
  }

  // ---------------------------------------------------------------------------------------------------------------
  // steps

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{}",
        "{setWeight: 10, pause: {}}",
        "{pause: {}, analysis: {templates: [{templateName: a}]}}",
        "{setWeight: 10, experiment: {templates: [{name: a, specRef: canary}]}}",
      })
  void rejectsStepWithNoneOrSeveralExclusiveTypes(String step) {
    assertEquals(
        "spec.strategy.canary.steps[1]: Invalid value: \"step\": Step must have one of the following set: experiment,"
            + " setWeight, setCanaryScale, plugin or pause",
        firstError(rollout("spec: {strategy: {canary: {steps: [{setWeight: 5}, " + step + "]}}}")));
  }

  @ParameterizedTest
  @ValueSource(ints = {-1, 101, 120})
  void rejectsSetWeightOutsideZeroToHundred(int weight) {
    assertEquals(
        "spec.strategy.canary.steps[0].setWeight: Invalid value: "
            + weight
            + ": SetWeight needs to be between 0 and 100",
        firstError(rollout("spec: {strategy: {canary: {steps: [{setWeight: " + weight + "}]}}}")));
  }

  @Test
  void boundsSetWeightByMaxTrafficWeight() {
    String nginx1000 =
        "spec: {strategy: {canary: {trafficRouting: {maxTrafficWeight: 1000}, steps: [{setWeight: %d}]}}}";
    assertEquals(List.of(), RolloutValidator.validate(rollout(NGINX, nginx1000.formatted(1000))));
    assertEquals(
        "spec.strategy.canary.steps[0].setWeight: Invalid value: 1001: SetWeight needs to be between 0 and 1000",
        firstError(rollout(NGINX, nginx1000.formatted(1001))));
    String nginx10 =
        "spec: {strategy: {canary: {trafficRouting: {maxTrafficWeight: 10}, steps: [{setWeight: 20}]}}}";
    assertEquals(
        "spec.strategy.canary.steps[0].setWeight: Invalid value: 20: SetWeight needs to be between 0 and 10",
        firstError(rollout(NGINX, nginx10)));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "abc   | \"abc\"",
        "'\"-1s\"' | \"-1s\"",
        "'\"10x\"' | \"10x\"",
        "-5    | -5",
        "'\"\"' | \"\"",
        "'\"99999999999999999999\"' | \"99999999999999999999\"",
        "'\"2562048h\"' | \"2562048h\"",
      })
  void rejectsPauseDurationThatIsNotANonNegativeDuration(String duration, String rendered) {
    assertEquals(
        "spec.strategy.canary.steps[0].pause.duration: Invalid value: "
            + rendered
            + ": Duration needs to be greater than 0",
        firstError(
            rollout(
                "spec: {strategy: {canary: {steps: [{pause: {duration: " + duration + "}}]}}}")));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "0",
        "'0'",
        "10",
        "'10'",
        "30s",
        "1h30m",
        "'1.5h'",
        "'45'",
        "'2562047h'",
        "'+5s'",
        "'0.5s'",
        "1ns"
      })
  void acceptsPauseDurationOfZeroOrMore(String duration) {
    assertEquals(
        List.of(),
        RolloutValidator.validate(
            rollout(
                "spec: {strategy: {canary: {steps: [{pause: {duration: " + duration + "}}]}}}")));
  }

  @Test
  void requiresTrafficRouting_forSetCanaryScale() {
    assertEquals(
        "spec.strategy.canary.trafficRouting: Required value: SetCanaryScale requires TrafficRouting to be set",
        firstError(
            rollout("spec: {strategy: {canary: {steps: [{setCanaryScale: {replicas: 1}}]}}}")));
  }

  @Test
  void rejectsSetHeaderRoute_whenRouterIsNotIstioAlbApisixOrPlugin() {
    String step = "spec: {strategy: {canary: {steps: [{setHeaderRoute: {name: hdr}}]}}}";
    String expected =
        "spec.strategy.canary.steps[0].setHeaderRoute: Invalid value: \"hdr\": SetHeaderRoute requires TrafficRouting,"
            + " supports Istio and ALB and Apisix";
    assertEquals(expected, firstError(rollout(step)));
    assertEquals(expected, firstError(rollout(NGINX, step)));
  }

  static Stream<Arguments> nonExactAlbHeaderValues() {
    String notExact =
        "\"headerValue\": SetHeaderRoute match value invalid. ALB supports 'exact' value only";
    return Stream.of(
        Arguments.of("{regex: a.*}", notExact),
        Arguments.of("{prefix: a}", notExact),
        Arguments.of("{exact: a, prefix: b}", notExact),
        Arguments.of(
            "null",
            "\"null\": StringMatch value missed, match value must have one of the following: exact, regex, prefix"));
  }

  @ParameterizedTest
  @MethodSource("nonExactAlbHeaderValues")
  void acceptsOnlyExactHeaderValues_withAlb(String headerValue, String expected) {
    Rollout r =
        rollout(
            ALB,
            "spec: {strategy: {canary: {trafficRouting: {managedRoutes: [{name: hdr}]}, steps: [{setHeaderRoute:"
                + " {name: hdr, match: [{headerName: x, headerValue: "
                + headerValue
                + "}]}}]}}}");
    assertEquals(
        "spec.strategy.canary.steps[0].setHeaderRoute.match[0].headerValue: Invalid value: "
            + expected,
        firstError(r));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "{exact: a, prefix: b}  | \"StringMatch\": StringMatch match value must have exactly one of the following:"
            + " exact, regex, prefix",
        "{exact: a, regex: b}   | \"StringMatch\": StringMatch match value must have exactly one of the following:"
            + " exact, regex, prefix",
        "{}                     | \"{}\": StringMatch value missed, match value must have one of the following: exact,"
            + " regex, prefix",
        "null                   | \"null\": StringMatch value missed, match value must have one of the following:"
            + " exact, regex, prefix",
      })
  void requiresExactlyOneHeaderValueMatcher_withIstio(String headerValue, String expected) {
    Rollout r =
        rollout(
            ISTIO,
            "spec: {strategy: {canary: {trafficRouting: {managedRoutes: [{name: hdr}]}, steps: [{setHeaderRoute:"
                + " {name: hdr, match: [{headerName: x, headerValue: "
                + headerValue
                + "}]}}]}}}");
    assertEquals(
        "spec.strategy.canary.steps[0].setHeaderRoute.match[0].headerValue: Invalid value: "
            + expected,
        firstError(r));
  }

  @Test
  void acceptsOneHeaderValueMatcher_withIstio() {
    for (String v : List.of("{exact: a}", "{prefix: a}", "{regex: a.*}")) {
      Rollout r =
          rollout(
              ISTIO,
              "spec: {strategy: {canary: {trafficRouting: {managedRoutes: [{name: hdr}]}, steps: [{setHeaderRoute:"
                  + " {name: hdr, match: [{headerName: x, headerValue: "
                  + v
                  + "}]}}]}}}");
      assertEquals(List.of(), RolloutValidator.validate(r), v);
    }
  }

  @Test
  void rejectsSetMirrorRoute_whenRouterIsNotIstioOrPlugin() {
    String step =
        "spec: {strategy: {canary: {trafficRouting: {managedRoutes: [{name: m}]},"
            + " steps: [{setMirrorRoute: {name: m}}]}}}";
    String expected =
        "spec.strategy.canary.steps[0].setMirrorRoute: Invalid value: \"m\": SetMirrorRoute requires TrafficRouting,"
            + " supports Istio and Plugins";
    assertEquals(expected, firstError(rollout(ALB, step)));
    assertEquals(
        expected,
        firstError(rollout("spec: {strategy: {canary: {steps: [{setMirrorRoute: {name: m}}]}}}")));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "{method: {exact: GET, regex: G.*}} | method: Invalid value: \"StringMatch\": StringMatch match value must have"
            + " exactly one of the following: exact, regex, prefix",
        "{path: {}}                         | path: Invalid value: \"{}\": StringMatch value missed, match value must"
            + " have one of the following: exact, regex, prefix",
        "{method: {exact: GET}, path: {prefix: /a, exact: /b}} | path: Invalid value: \"StringMatch\": StringMatch"
            + " match value must have exactly one of the following: exact, regex, prefix",
      })
  void requiresExactlyOneMatcherForMirrorMethodAndPath(String match, String expected) {
    Rollout r =
        rollout(
            ISTIO,
            "spec: {strategy: {canary: {trafficRouting: {managedRoutes: [{name: m}]}, steps: [{setMirrorRoute: {name:"
                + " m, match: ["
                + match
                + "]}}]}}}");
    assertEquals(
        "spec.strategy.canary.steps[0].setMirrorRoute.match[0]." + expected, firstError(r));
  }

  @Test
  void ignoresMirrorHeaderMatchers() {
    Rollout r =
        rollout(
            ISTIO,
            "spec: {strategy: {canary: {trafficRouting: {managedRoutes: [{name: m}]}, steps: [{setMirrorRoute: {name:"
                + " m, match: [{headers: {x-a: {exact: a, prefix: b}, x-b: {}}}]}}]}}}");
    assertEquals(List.of(), RolloutValidator.validate(r));
  }

  @ParameterizedTest
  @ValueSource(strings = {"{setHeaderRoute: {name: r}}", "{setMirrorRoute: {name: r}}"})
  void requiresManagedRoutes_forHeaderAndMirrorRouteSteps(String step) {
    assertEquals(
        "spec.strategy.canary.trafficRouting.managedRoutes: Required value: Rollout has missing field"
            + " 'spec.strategy.canary.trafficRouting.managedRoutes'",
        firstError(rollout(ISTIO, "spec: {strategy: {canary: {steps: [" + step + "]}}}")));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "{setHeaderRoute: {name: other}} | setHeaderRoute.name: Invalid value: \"other\"",
        "{setMirrorRoute: {name: other}} | setMirrorRoute.name: Invalid value: \"other\"",
      })
  void rejectsRouteNameMissingFromManagedRoutes(String step, String expected) {
    Rollout r =
        rollout(
            ISTIO,
            "spec: {strategy: {canary: {trafficRouting: {managedRoutes: [{name: r}]}, steps: ["
                + step
                + "]}}}");
    assertEquals(
        "spec.strategy.canary.steps[0]."
            + expected
            + ": Steps define a route that does not exist in spec.strategy.canary.trafficRouting.managedRoutes",
        firstError(r));
  }

  @Test
  void rejectsExperimentTemplateWeight_withoutTrafficRouting() {
    Rollout r =
        rollout(
            "spec: {strategy: {canary: {steps: [{experiment:"
                + " {templates: [{name: a, specRef: canary, weight: 20}]}}]}}}");
    assertEquals(
        "spec.strategy.canary.steps[0].experiment.templates[0].weight: Invalid value: 20: Experiment template weight"
            + " cannot be set unless TrafficRouting is enabled",
        firstError(r));
  }

  @Test
  void readsANullSelectorLabelValueAsEmpty_insteadOfFailing() {
    // A JSON null inside matchLabels (the merge helper would drop it, so it is set directly).
    Rollout missing = rollout();
    missing.getSpec().getSelector().getMatchLabels().put("tier", null);
    assertEquals(
        "spec.template.metadata.labels: Invalid value: {\"app\":\"web\"}: `selector` does not match template `labels`",
        firstError(missing));
    Rollout empty = rollout("spec: {template: {metadata: {labels: {tier: ''}}}}");
    empty.getSpec().getSelector().getMatchLabels().put("tier", null);
    assertEquals(List.of(), RolloutValidator.validate(empty));
  }

  @Test
  void refusesRestartAtThatIsNotAnRfc3339Time() {
    assertEquals(
        "spec.restartAt: Invalid value: \"not-a-time\": must be an RFC 3339 date-time such as 2026-01-02T15:04:05Z",
        firstError(rollout("spec: {restartAt: not-a-time}")));
    assertEquals(
        List.of(), RolloutValidator.validate(rollout("spec: {restartAt: '2026-12-01T10:00:00Z'}")));
    assertEquals(
        List.of(),
        RolloutValidator.validate(rollout("spec: {restartAt: '2026-12-01T10:00:00.5+02:00'}")));
  }

  // ---------------------------------------------------------------------------------------------------------------
  // helpers

  private static String firstError(Rollout r) {
    List<FieldError> errors = RolloutValidator.validate(r);
    assertFalse(errors.isEmpty(), "expected at least one error");
    return errors.get(0).toString();
  }

  /**
   * The basic canary with the given YAML documents merged in order (RFC 7386: null removes, arrays
   * replace).
   */
  private static Rollout rollout(String... overrides) {
    JsonNode doc = yaml(CANARY);
    for (String o : overrides) {
      doc = merge(doc, yaml(o));
    }
    Rollout r = ModelJson.fromJson(doc.toString(), Rollout.class);
    assertTrue(r.getMetadata() != null && "web".equals(r.getMetadata().getName()));
    return r;
  }

  private static JsonNode yaml(String text) {
    try {
      return YAML.readTree(text);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static JsonNode merge(JsonNode target, JsonNode patch) {
    if (!patch.isObject()) {
      return patch;
    }
    ObjectNode result =
        target != null && target.isObject()
            ? (ObjectNode) target.deepCopy()
            : YAML.createObjectNode();
    for (Iterator<Map.Entry<String, JsonNode>> it = patch.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      if (e.getValue().isNull()) {
        result.remove(e.getKey());
      } else {
        result.set(e.getKey(), merge(result.get(e.getKey()), e.getValue()));
      }
    }
    return result;
  }
}
