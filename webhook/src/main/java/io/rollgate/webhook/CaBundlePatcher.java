package io.rollgate.webhook;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.WebhookClientConfig;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the webhook's CA into {@code webhooks[].clientConfig.caBundle} of existing webhook configurations that
 * someone else owns (the Helm chart creates them with {@code clientConfig.service} and no {@code caBundle}).
 *
 * <p>Only {@code caBundle} is touched, with a JSON patch whose {@code test} operations pin each webhook's name at its
 * index, so a concurrent edit of the list makes the patch fail instead of writing into the wrong entry. Needs
 * {@code get} and {@code patch} on the two configurations (the chart's RBAC restricts both by {@code resourceNames}).
 * A configuration that does not exist yet (the webhook pod may start before Helm creates it) is skipped with a log
 * line and patched at a later check, since {@link #refresh} compares and repairs on every check.
 */
public final class CaBundlePatcher implements CaBundlePublisher {

  private static final Logger LOG = LoggerFactory.getLogger(CaBundlePatcher.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Vertx vertx;
  private final KubernetesClient client;
  private final String validatingName;
  private final String mutatingName;

  /**
   * Creates the patcher.
   *
   * @param vertx the Vert.x instance whose workers run the API calls
   * @param client the Kubernetes client
   * @param validatingName the ValidatingWebhookConfiguration to patch, or null for none
   * @param mutatingName the MutatingWebhookConfiguration to patch, or null for none
   */
  public CaBundlePatcher(Vertx vertx, KubernetesClient client, String validatingName, String mutatingName) {
    this.vertx = vertx;
    this.client = client;
    this.validatingName = validatingName;
    this.mutatingName = mutatingName;
  }

  /**
   * Patches the CA bundle into every webhook of both configurations where it differs.
   *
   * @param caBundlePem the PEM CA bundle
   * @return a Future completed once both are up to date or absent; failed with the client's exception when a read or
   *     patch is refused (for example 403: RBAC, or 422/409: the list changed under us; retried at the next check)
   */
  @Override
  public Future<Void> publish(String caBundlePem) {
    return vertx.executeBlocking(() -> {
      patchBoth(caBundlePem);
      return null;
    }, false);
  }

  /**
   * Same as {@link #publish}: compares the live {@code caBundle} with ours and patches only when it differs.
   *
   * @param caBundlePem the PEM CA bundle
   * @return as {@link #publish}
   */
  @Override
  public Future<Void> refresh(String caBundlePem) {
    return publish(caBundlePem);
  }

  private void patchBoth(String caBundlePem) {
    String caBundle = Base64.getEncoder().encodeToString(caBundlePem.getBytes(StandardCharsets.UTF_8));
    var admission = client.admissionRegistration().v1();
    if (validatingName != null) {
      ValidatingWebhookConfiguration v = admission.validatingWebhookConfigurations().withName(validatingName).get();
      if (v == null) {
        LOG.info("ValidatingWebhookConfiguration {} does not exist yet; caBundle is patched once it does", validatingName);
      } else {
        List<String> names = new ArrayList<>();
        List<WebhookClientConfig> configs = new ArrayList<>();
        for (ValidatingWebhook w : v.getWebhooks()) {
          names.add(w.getName());
          configs.add(w.getClientConfig());
        }
        String patch = patch(names, configs, caBundle);
        if (patch != null) {
          admission.validatingWebhookConfigurations().withName(validatingName).patch(PatchContext.of(PatchType.JSON), patch);
          LOG.info("patched caBundle of ValidatingWebhookConfiguration {}", validatingName);
        }
      }
    }
    if (mutatingName != null) {
      MutatingWebhookConfiguration m = admission.mutatingWebhookConfigurations().withName(mutatingName).get();
      if (m == null) {
        LOG.info("MutatingWebhookConfiguration {} does not exist yet; caBundle is patched once it does", mutatingName);
      } else {
        List<String> names = new ArrayList<>();
        List<WebhookClientConfig> configs = new ArrayList<>();
        for (MutatingWebhook w : m.getWebhooks()) {
          names.add(w.getName());
          configs.add(w.getClientConfig());
        }
        String patch = patch(names, configs, caBundle);
        if (patch != null) {
          admission.mutatingWebhookConfigurations().withName(mutatingName).patch(PatchContext.of(PatchType.JSON), patch);
          LOG.info("patched caBundle of MutatingWebhookConfiguration {}", mutatingName);
        }
      }
    }
  }

  /**
   * The JSON patch setting {@code caBundle} on every webhook whose value differs, or null when all match.
   *
   * @param names the webhooks' names, in list order
   * @param configs their client configs, in list order
   * @param caBundle the base64 PEM bundle
   * @return the patch text, or null
   */
  static String patch(List<String> names, List<WebhookClientConfig> configs, String caBundle) {
    ArrayNode ops = JSON.createArrayNode();
    for (int i = 0; i < names.size(); i++) {
      WebhookClientConfig cc = configs.get(i);
      if (cc != null && Objects.equals(cc.getCaBundle(), caBundle)) {
        continue;
      }
      ObjectNode test = ops.addObject();
      test.put("op", "test");
      test.put("path", "/webhooks/" + i + "/name");
      test.put("value", names.get(i));
      ObjectNode add = ops.addObject();
      add.put("op", "add");
      add.put("path", "/webhooks/" + i + "/clientConfig/caBundle");
      add.put("value", caBundle);
    }
    return ops.isEmpty() ? null : ops.toString();
  }
}
