package io.rollgate.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.fabric8.kubernetes.api.model.admissionregistration.v1.WebhookClientConfig;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.WebhookClientConfigBuilder;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class CaBundlePatcherTest {

  static WebhookClientConfig service(String caBundle) {
    return new WebhookClientConfigBuilder()
        .withNewService().withName("rg-rollgate-webhook").withNamespace("ops").withPath("/validate").endService()
        .withCaBundle(caBundle)
        .build();
  }

  @Test
  void setsCaBundleOnEveryWebhookThatLacksIt_pinningEachNameAtItsIndex() {
    String patch = CaBundlePatcher.patch(List.of("a.rollgate.io", "b.rollgate.io"),
        List.of(service(null), service("b2xk")), "bmV3");
    assertEquals("[{\"op\":\"test\",\"path\":\"/webhooks/0/name\",\"value\":\"a.rollgate.io\"},"
        + "{\"op\":\"add\",\"path\":\"/webhooks/0/clientConfig/caBundle\",\"value\":\"bmV3\"},"
        + "{\"op\":\"test\",\"path\":\"/webhooks/1/name\",\"value\":\"b.rollgate.io\"},"
        + "{\"op\":\"add\",\"path\":\"/webhooks/1/clientConfig/caBundle\",\"value\":\"bmV3\"}]", patch);
  }

  @Test
  void patchesNothingWhenEveryCaBundleIsAlreadyOurs() {
    assertNull(CaBundlePatcher.patch(List.of("a", "b"), List.of(service("bmV3"), service("bmV3")), "bmV3"));
  }

  @Test
  void onlyTheWebhookWithAnotherCaBundleIsPatched() {
    String patch = CaBundlePatcher.patch(List.of("a", "b"), Arrays.asList(service("bmV3"), null), "bmV3");
    assertEquals("[{\"op\":\"test\",\"path\":\"/webhooks/1/name\",\"value\":\"b\"},"
        + "{\"op\":\"add\",\"path\":\"/webhooks/1/clientConfig/caBundle\",\"value\":\"bmV3\"}]", patch);
  }
}
