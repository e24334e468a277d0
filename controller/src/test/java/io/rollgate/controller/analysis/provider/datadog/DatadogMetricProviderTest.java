package io.rollgate.controller.analysis.provider.datadog;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.rollgate.controller.analysis.provider.common.ProviderSecrets;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DatadogMetricProviderTest {

  static final Map<String, String> KEYS =
      Map.of("api-key", "a", "app-key", "b", "address", "http://dd");

  final List<String> reads = new ArrayList<>();

  ProviderSecrets secrets(Map<String, Map<String, String>> byNamespacedName) {
    return new ProviderSecrets(
        (ns, name) -> {
          reads.add(ns + "/" + name);
          Map<String, String> data = byNamespacedName.get(ns + "/" + name);
          Secret s = data == null ? null : new SecretBuilder().withStringData(data).build();
          return Future.succeededFuture(s);
        },
        "argo-rollouts");
  }

  static DatadogConfig config(DatadogConfig.SecretRef ref) {
    return new DatadogConfig(null, null, "q", null, null, null, ref, null);
  }

  String credentials(DatadogMetricProvider p, DatadogConfig c) {
    Future<DatadogMetricProvider.Credentials> f = p.credentials(c, "shop");
    return f.succeeded() ? f.result().toString() : f.cause().getMessage();
  }

  @Test
  void secretRefIsReadFromTheControllerOrTheRunsNamespace() {
    DatadogMetricProvider p =
        new DatadogMetricProvider(
            null,
            secrets(
                Map.of(
                    "argo-rollouts/dd", KEYS, "shop/dd", Map.of("api-key", "x", "app-key", "y"))),
            Map.of());
    assertEquals(
        "Credentials[address=http://dd, apiKey=a, appKey=b]",
        credentials(p, config(new DatadogConfig.SecretRef("dd", false))));
    assertEquals(
        "Credentials[address=null, apiKey=x, appKey=y]",
        credentials(p, config(new DatadogConfig.SecretRef("dd", true))));
    assertEquals(List.of("argo-rollouts/dd", "shop/dd"), reads);
  }

  @Test
  void withoutSecretRefAllThreeVariablesWinOverTheDefaultSecret() {
    Map<String, String> env =
        Map.of("DD_API_KEY", "e1", "DD_APP_KEY", "e2", "DD_ADDRESS", "http://env");
    DatadogMetricProvider p =
        new DatadogMetricProvider(null, secrets(Map.of("argo-rollouts/datadog", KEYS)), env);
    assertEquals(
        "Credentials[address=http://env, apiKey=e1, appKey=e2]", credentials(p, config(null)));
    assertEquals(List.of(), reads);

    DatadogMetricProvider partial =
        new DatadogMetricProvider(
            null,
            secrets(Map.of("argo-rollouts/datadog", KEYS)),
            Map.of("DD_API_KEY", "e1", "DD_APP_KEY", "e2"));
    assertEquals(
        "Credentials[address=http://dd, apiKey=a, appKey=b]", credentials(partial, config(null)));
  }

  @Test
  void missingOrIncompleteCredentialsAreAnError() {
    DatadogMetricProvider p =
        new DatadogMetricProvider(
            null, secrets(Map.of("argo-rollouts/datadog", Map.of("api-key", "a"))), Map.of());
    assertEquals(
        "failed to find the credentials for datadog metrics provider",
        credentials(p, config(null)));
    assertEquals(
        "failed to find the credentials for datadog metrics provider",
        credentials(p, config(new DatadogConfig.SecretRef("nowhere", false))));
  }
}
