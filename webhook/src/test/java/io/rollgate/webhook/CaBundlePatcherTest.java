package io.rollgate.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfigurationBuilder;
import org.junit.jupiter.api.Test;

class CaBundlePatcherTest {

  static final ObjectMapper JSON = new ObjectMapper();

  static JsonNode webhooks(String caBundleA, String caBundleB) {
    ValidatingWebhookConfiguration v =
        new ValidatingWebhookConfigurationBuilder()
            .withNewMetadata()
            .withName("rg")
            .withResourceVersion("42")
            .endMetadata()
            .addNewWebhook()
            .withName("a.rollgate.io")
            .withFailurePolicy("Fail")
            .withNewClientConfig()
            .withNewService()
            .withName("rg-rollgate-webhook")
            .withNamespace("ops")
            .withPath("/validate")
            .endService()
            .withCaBundle(caBundleA)
            .endClientConfig()
            .endWebhook()
            .addNewWebhook()
            .withName("b.rollgate.io")
            .withFailurePolicy("Ignore")
            .withNewClientConfig()
            .withNewService()
            .withName("rg-rollgate-webhook")
            .withNamespace("ops")
            .withPath("/validate")
            .endService()
            .withCaBundle(caBundleB)
            .endClientConfig()
            .endWebhook()
            .build();
    return JSON.valueToTree(v).get("webhooks");
  }

  @Test
  void setsCaBundleOnEveryWebhookThatLacksIt_keepingTheRestOfTheListAndTheReadResourceVersion()
      throws Exception {
    JsonNode patch = JSON.readTree(CaBundlePatcher.patch("42", webhooks(null, "b2xk"), "bmV3"));
    assertEquals("42", patch.at("/metadata/resourceVersion").asText());
    assertEquals(2, patch.get("webhooks").size());
    assertEquals("a.rollgate.io", patch.at("/webhooks/0/name").asText());
    assertEquals("bmV3", patch.at("/webhooks/0/clientConfig/caBundle").asText());
    assertEquals("rg-rollgate-webhook", patch.at("/webhooks/0/clientConfig/service/name").asText());
    assertEquals("Ignore", patch.at("/webhooks/1/failurePolicy").asText());
    assertEquals("bmV3", patch.at("/webhooks/1/clientConfig/caBundle").asText());
  }

  @Test
  void patchesNothingWhenEveryCaBundleIsAlreadyOurs() {
    assertNull(CaBundlePatcher.patch("42", webhooks("bmV3", "bmV3"), "bmV3"));
  }

  @Test
  void patchesNothingWhenTheConfigurationHasNoWebhooks() {
    assertNull(CaBundlePatcher.patch("42", null, "bmV3"));
  }

  @Test
  void onlyTheCaBundleThatDiffersChanges() throws Exception {
    JsonNode before = webhooks("bmV3", "b2xk");
    JsonNode patch = JSON.readTree(CaBundlePatcher.patch("7", before, "bmV3"));
    assertEquals(before.get(0), patch.at("/webhooks/0"));
    assertEquals("bmV3", patch.at("/webhooks/1/clientConfig/caBundle").asText());
    assertEquals(
        "b2xk", before.at("/1/clientConfig/caBundle").asText(), "the list read is left as it was");
  }
}
