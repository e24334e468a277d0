package io.rollgate.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.rollgate.api.AnalysisTemplate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MetricProviderValidatorTest {

  private static final YAMLMapper YAML = new YAMLMapper();

  /**
   * Errors of a template with one metric {@code m} whose provider is the given YAML flow mapping.
   */
  private static List<String> errors(String provider) throws Exception {
    return errors("", provider);
  }

  private static List<String> errors(String metricFields, String provider) throws Exception {
    String spec =
        "metadata: {name: t}\nspec:\n  args: [{name: q}, {name: n}]\n  metrics:\n  - name: m\n"
            + metricFields
            + "    provider: "
            + provider
            + "\n";
    AnalysisTemplate t = YAML.readValue(spec, AnalysisTemplate.class);
    return AnalysisTemplateValidator.validate(t.getSpec()).stream()
        .map(FieldError::toString)
        .toList();
  }

  private static final String P = "spec.metrics[0].provider.";

  @Test
  void acceptsTheDocumentedExamplesOfEveryProvider() throws Exception {
    assertEquals(
        List.of(),
        errors("{datadog: {interval: 5m, query: 'sum:requests.error{service:{{args.q}}}'}}"));
    assertEquals(
        List.of(),
        errors(
            "{datadog: {apiVersion: v2, aggregator: avg, requestTimeout: 30s, secretRef: {name: dd, namespaced: true},"
                + " queries: {a: 'sum:errors', b: 'sum:hits'}, formula: 'a / b'}}"));
    assertEquals(
        List.of(),
        errors(
            "{newRelic: {profile: my-secret, query: 'FROM Transaction SELECT count(*)', timeout: 10}}"));
    assertEquals(
        List.of(), errors("{wavefront: {address: example.wavefront.com, query: 'ts(cpu)'}}"));
    assertEquals(
        List.of(),
        errors(
            "    interval: 5m\n",
            "{kayenta: {address: 'http://kayenta:8090', application: guestbook, canaryConfigName: c,"
                + " metricsAccountName: m, configurationAccountName: c, storageAccountName: s,"
                + " threshold: {pass: 90, marginal: 75},"
                + " scopes: [{name: default, controlScope: {scope: app=stable, region: us, step: 60},"
                + " experimentScope: {scope: app=canary, region: us, step: 60}}]}}"));
    assertEquals(
        List.of(),
        errors("{skywalking: {address: 'http://oap:12800', query: 'query { x }', interval: 3m}}"));
    assertEquals(List.of(), errors("{graphite: {address: 'http://graphite:80', query: 'target'}}"));
    assertEquals(List.of(), errors("{influxdb: {profile: p, query: 'from(bucket: \"b\")'}}"));
    assertEquals(
        List.of(),
        errors(
            "{cloudWatch: {interval: 5m, metricDataQueries: [{id: rate, expression: 'errors / requests'},"
                + " {id: errors, returnData: false, metricStat: {stat: Sum, period: 300, metric: {namespace: AWS/ELB,"
                + " metricName: HTTPCode_Backend_5XX, dimensions: [{name: LoadBalancer, value: lb}]}}}]}}"));
  }

  @Test
  void namesTheMissingRequiredFieldOfEachProvider() throws Exception {
    assertEquals(
        List.of(P + "datadog.query: Required value: one of query or queries is required"),
        errors("{datadog: {}}"));
    assertEquals(
        List.of(P + "newRelic.query: Required value: query is required"),
        errors("{newRelic: {profile: p}}"));
    assertEquals(
        List.of(
            P + "wavefront.address: Required value: address is required",
            P + "wavefront.query: Required value: query is required"),
        errors("{wavefront: {}}"));
    assertEquals(
        List.of(
            P + "skywalking.address: Required value: address is required",
            P + "skywalking.query: Required value: query is required",
            P + "skywalking.interval: Required value: interval is required, a duration such as 5m"),
        errors("{skywalking: {}}"));
    assertEquals(
        List.of(P + "graphite.query: Required value: query is required"),
        errors("{graphite: {address: 'http://g'}}"));
    assertEquals(
        List.of(P + "influxdb.query: Required value: query is required"), errors("{influxdb: {}}"));
    assertEquals(
        List.of(
            P
                + "cloudWatch.metricDataQueries: Required value: at least one query {id, expression | metricStat} is required"),
        errors("{cloudWatch: {interval: 5m}}"));
    assertEquals(
        List.of(
            P + "kayenta.address: Required value: address is required",
            P + "kayenta.application: Required value: application is required",
            P + "kayenta.canaryConfigName: Required value: canaryConfigName is required",
            P + "kayenta.metricsAccountName: Required value: metricsAccountName is required",
            P
                + "kayenta.configurationAccountName: Required value: configurationAccountName is required",
            P + "kayenta.storageAccountName: Required value: storageAccountName is required",
            P + "kayenta.threshold: Required value: threshold {pass, marginal} is required",
            P
                + "kayenta.scopes: Required value: at least one scope {name, controlScope, experimentScope} is required"),
        errors("{kayenta: {}}"));
  }

  @Test
  void refusesDatadogCombinationsArgoRefuses() throws Exception {
    assertEquals(
        List.of(P + "datadog.queries: Forbidden: query and queries cannot both be set"),
        errors("{datadog: {apiVersion: v2, query: x, queries: {a: y}}}"));
    assertEquals(
        List.of(
            P
                + "datadog.queries: Forbidden: apiVersion v1 supports only query; set apiVersion: v2 to use queries"),
        errors("{datadog: {queries: {a: y}}}"));
    assertEquals(
        List.of(P + "datadog.formula: Forbidden: formula is only valid with queries"),
        errors("{datadog: {apiVersion: v2, query: x, formula: 'a'}}"));
    assertEquals(
        List.of(
            P
                + "datadog.formula: Required value: a formula is required when more than one query is given"),
        errors("{datadog: {apiVersion: v2, queries: {a: x, b: y}}}"));
    assertEquals(
        List.of(P + "datadog.aggregator: Forbidden: aggregator is not supported by apiVersion v1"),
        errors("{datadog: {query: x, aggregator: avg}}"));
    assertEquals(
        List.of(
            P + "datadog.apiVersion: Invalid value: \"v3\": must be v1 or v2",
            P
                + "datadog.aggregator: Invalid value: \"median\": must be one of area, avg, l2norm, last, max, mean, min,"
                + " percentile, sum",
            P
                + "datadog.interval: Invalid value: \"soon\": must be a positive duration such as 30s, 5m or 1h",
            P
                + "datadog.requestTimeout: Invalid value: \"0s\": must be a positive duration such as 30s, 5m or 1h",
            P
                + "datadog.secretRef.name: Required value: a secret name is required when namespaced is true"),
        errors(
            "{datadog: {apiVersion: v3, query: x, aggregator: median, interval: soon, requestTimeout: 0s,"
                + " secretRef: {namespaced: true}}}"));
  }

  @Test
  void checksKayentaThresholdsAndScopes() throws Exception {
    String base =
        "address: 'http://k', application: a, canaryConfigName: c, metricsAccountName: m,"
            + " configurationAccountName: c, storageAccountName: s, ";
    assertEquals(
        List.of(
            P + "kayenta.threshold.pass: Invalid value: 101: must be between 0 and 100",
            P + "kayenta.threshold.marginal: Required value: marginal is required",
            P + "kayenta.scopes[0].name: Required value: name is required",
            P
                + "kayenta.scopes[0].experimentScope: Required value: experimentScope {scope, region, step} is required"),
        errors(
            "{kayenta: {"
                + base
                + "threshold: {pass: 101}, scopes: [{controlScope: {scope: a}}]}}"));
    assertEquals(
        List.of(
            P + "kayenta.threshold.marginal: Invalid value: 80: must not be greater than pass (70)",
            P
                + "kayenta.scopes[0].experimentScope.end: Invalid value: null: controlScope.end and experimentScope.end"
                + " must both be set or both be empty",
            P
                + "kayenta.scopes[0].controlScope.start: Required value: start times are required when the metric has no"
                + " interval and lookback is false (the scope starts one interval before each measurement)"),
        errors(
            "{kayenta: {"
                + base
                + "threshold: {pass: 70, marginal: 80}, scopes: [{name: d, controlScope: {scope: a, end: '2024-01-01T00:00:00Z'},"
                + " experimentScope: {scope: b}}]}}"));
    assertEquals(
        List.of(),
        errors(
            "{kayenta: {"
                + base
                + "lookback: true, threshold: {pass: 70, marginal: 60}, scopes: [{name: d, controlScope: {scope: a},"
                + " experimentScope: {scope: b}}]}}"));
  }

  @Test
  void checksCloudWatchQueries() throws Exception {
    assertEquals(
        List.of(
            P
                + "cloudWatch.metricDataQueries[0].id: Invalid value: \"Rate\": must start with a lowercase letter and hold"
                + " only letters, digits and underscores",
            P
                + "cloudWatch.metricDataQueries[0].metricStat: Invalid value: {\"stat\":\"Sum\"}: exactly one of expression"
                + " or metricStat must be set",
            P
                + "cloudWatch.metricDataQueries[0].metricStat.period: Required value: period in seconds is required",
            P
                + "cloudWatch.metricDataQueries[0].metricStat.metric: Required value: metric {namespace, metricName,"
                + " dimensions} is required",
            P + "cloudWatch.metricDataQueries[1].id: Required value: id is required",
            P
                + "cloudWatch.metricDataQueries[1].metricStat: Invalid value: null: exactly one of expression or metricStat"
                + " must be set"),
        errors(
            "{cloudWatch: {metricDataQueries: [{id: Rate, expression: x, metricStat: {stat: Sum}}, {}]}}"));
  }

  @Test
  void acceptsPlaceholdersWhereValuesAreCheckedAfterSubstitution() throws Exception {
    assertEquals(
        List.of(),
        errors(
            "{datadog: {apiVersion: '{{args.q}}', queries: {a: x, b: y}, formula: a, interval: '{{args.n}}'}}"));
    assertEquals(
        List.of(),
        errors("{skywalking: {address: '{{args.q}}', query: q, interval: '{{args.n}}'}}"));
  }

  @Test
  void namesWrongTypes() throws Exception {
    assertEquals(
        List.of(P + "newRelic.query: Invalid value: [\"a\"]: must be a string"),
        errors("{newRelic: {query: [a]}}"));
    assertEquals(
        List.of(P + "graphite: Invalid value: \"x\": must be an object"), errors("{graphite: x}"));
    assertEquals(
        List.of(P + "newRelic.timeout: Invalid value: -1: must be at least 0"),
        errors("{newRelic: {query: q, timeout: -1}}"));
    assertEquals(
        List.of(
            P
                + "graphite.address: Invalid value: \"graphite:8080\": must be an absolute http or https URL"),
        errors("{graphite: {address: 'graphite:8080', query: q}}"));
  }

  @Test
  void ignoresProvidersItDoesNotKnow() {
    assertEquals(List.of(), MetricProviderValidator.validate("web", Map.of(), "x", null));
  }
}
