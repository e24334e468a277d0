package io.rollgate.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.rollgate.webhook.kube.WebhookApi;
import io.vertx.core.Future;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the webhook's CA into {@code webhooks[].clientConfig.caBundle} of existing webhook
 * configurations that someone else owns (the Helm chart creates them with {@code
 * clientConfig.service} and no {@code caBundle}).
 *
 * <p>A merge patch cannot change one entry of a list, so the patch carries the whole {@code
 * webhooks} list as read, with only {@code caBundle} changed, and the {@code
 * metadata.resourceVersion} read: a concurrent edit of the configuration makes the patch fail with
 * 409 instead of being overwritten, and the next check reads it again. Needs {@code get} and {@code
 * patch} on the two configurations (the chart's RBAC restricts both by {@code resourceNames}). A
 * configuration that does not exist yet (the webhook pod may start before Helm creates it) is
 * skipped with a log line and patched at a later check, since {@link #refresh} compares and repairs
 * on every check.
 */
public final class CaBundlePatcher implements CaBundlePublisher {

  private static final Logger LOG = LoggerFactory.getLogger(CaBundlePatcher.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final WebhookApi api;
  private final String validatingName;
  private final String mutatingName;

  /**
   * Creates the patcher.
   *
   * @param api the webhook's API facade
   * @param validatingName the ValidatingWebhookConfiguration to patch, or null for none
   * @param mutatingName the MutatingWebhookConfiguration to patch, or null for none
   */
  public CaBundlePatcher(WebhookApi api, String validatingName, String mutatingName) {
    this.api = api;
    this.validatingName = validatingName;
    this.mutatingName = mutatingName;
  }

  /**
   * Patches the CA bundle into every webhook of both configurations where it differs.
   *
   * @param caBundlePem the PEM CA bundle
   * @return a Future completed once both are up to date or absent; failed with the {@code
   *     KubeApiException} when a read or patch is refused (for example 403: RBAC, or 409: the
   *     configuration changed under us; retried at the next check)
   */
  @Override
  public Future<Void> publish(String caBundlePem) {
    String caBundle =
        Base64.getEncoder().encodeToString(caBundlePem.getBytes(StandardCharsets.UTF_8));
    Future<Void> validating =
        validatingName == null
            ? Future.succeededFuture()
            : api.getValidatingConfiguration(validatingName)
                .compose(
                    v -> update(ValidatingWebhookConfiguration.class, validatingName, v, caBundle));
    return validating.compose(
        v ->
            mutatingName == null
                ? Future.succeededFuture()
                : api.getMutatingConfiguration(mutatingName)
                    .compose(
                        m ->
                            update(MutatingWebhookConfiguration.class, mutatingName, m, caBundle)));
  }

  /**
   * Same as {@link #publish}: compares the live {@code caBundle} with ours and patches only when it
   * differs.
   *
   * @param caBundlePem the PEM CA bundle
   * @return as {@link #publish}
   */
  @Override
  public Future<Void> refresh(String caBundlePem) {
    return publish(caBundlePem);
  }

  private <T extends HasMetadata> Future<Void> update(
      Class<T> type, String name, T live, String caBundle) {
    String kind = type.getSimpleName();
    if (live == null) {
      LOG.info("{} {} does not exist yet; caBundle is patched once it does", kind, name);
      return Future.succeededFuture();
    }
    String patch =
        patch(
            live.getMetadata().getResourceVersion(),
            JSON.valueToTree(live).get("webhooks"),
            caBundle);
    if (patch == null) {
      return Future.succeededFuture();
    }
    return api.patchConfiguration(type, name, patch)
        .onSuccess(p -> LOG.info("patched caBundle of {} {}", kind, name))
        .mapEmpty();
  }

  /**
   * The merge patch setting {@code caBundle} on every webhook whose value differs, or null when all
   * match.
   *
   * @param resourceVersion the configuration's {@code metadata.resourceVersion} as read
   * @param webhooks the configuration's {@code webhooks} list as read (JSON), or null for none
   * @param caBundle the base64 PEM bundle
   * @return the patch text ({@code metadata.resourceVersion} and the whole {@code webhooks} list),
   *     or null
   */
  static String patch(String resourceVersion, JsonNode webhooks, String caBundle) {
    if (!(webhooks instanceof ArrayNode list)) {
      return null;
    }
    ArrayNode updated = list.deepCopy();
    boolean changed = false;
    for (JsonNode w : updated) {
      if (!(w instanceof ObjectNode webhook)) {
        continue;
      }
      JsonNode cc = webhook.get("clientConfig");
      ObjectNode clientConfig = cc instanceof ObjectNode o ? o : webhook.putObject("clientConfig");
      if (!caBundle.equals(clientConfig.path("caBundle").asText(null))) {
        clientConfig.put("caBundle", caBundle);
        changed = true;
      }
    }
    if (!changed) {
      return null;
    }
    ObjectNode patch = JSON.createObjectNode();
    patch.putObject("metadata").put("resourceVersion", resourceVersion);
    patch.set("webhooks", updated);
    return patch.toString();
  }
}
