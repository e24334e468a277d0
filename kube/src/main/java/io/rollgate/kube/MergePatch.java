package io.rollgate.kube;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;

/**
 * Builds JSON merge patches (RFC 7386) as the two-way difference of two documents.
 *
 * <p>Objects are compared key by key; a key present before and absent after becomes {@code null}
 * (deletion); arrays and scalars that differ are replaced whole, as a merge patch can only replace
 * arrays.
 */
public final class MergePatch {

  private MergePatch() {}

  /**
   * Computes the patch that turns {@code before} into {@code after}.
   *
   * @param before the current document (object), or null for an empty one
   * @param after the desired document (object)
   * @return the patch object; empty when the two are equal
   */
  public static ObjectNode diff(JsonNode before, JsonNode after) {
    ObjectNode patch = JsonNodeFactory.instance.objectNode();
    ObjectNode b = before instanceof ObjectNode o ? o : JsonNodeFactory.instance.objectNode();
    ObjectNode a = after instanceof ObjectNode o ? o : JsonNodeFactory.instance.objectNode();
    for (Iterator<Map.Entry<String, JsonNode>> it = a.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      JsonNode old = b.get(e.getKey());
      JsonNode now = e.getValue();
      if (now == null || now.isNull()) {
        if (old != null && !old.isNull()) {
          patch.putNull(e.getKey());
        }
      } else if (old == null || old.isNull()) {
        patch.set(e.getKey(), now);
      } else if (old.isObject() && now.isObject()) {
        ObjectNode sub = diff(old, now);
        if (!sub.isEmpty()) {
          patch.set(e.getKey(), sub);
        }
      } else if (!old.equals(now)) {
        patch.set(e.getKey(), now);
      }
    }
    for (Iterator<String> it = b.fieldNames(); it.hasNext(); ) {
      String key = it.next();
      if (!a.has(key) && !b.get(key).isNull()) {
        patch.putNull(key);
      }
    }
    return patch;
  }

  /**
   * The merge patch that turns one top-level field of an object from {@code before} into {@code
   * after}, guarded by the {@code metadata.resourceVersion} that was read, so the API server
   * refuses it with 409 when the object changed since (the Kubernetes optimistic-concurrency
   * convention). Used for every status write of the controller and the webhook.
   *
   * @param resourceVersion the {@code metadata.resourceVersion} of the object as read
   * @param field the top-level field, for example {@code status}
   * @param before the field as read, or null for none
   * @param after the field as it should be
   * @return {@code {"metadata":{"resourceVersion":...},"<field>":<difference>}}, or empty when
   *     nothing changed
   */
  public static Optional<ObjectNode> guarded(
      String resourceVersion, String field, JsonNode before, JsonNode after) {
    ObjectNode changed = diff(before, after);
    if (changed.isEmpty()) {
      return Optional.empty();
    }
    ObjectNode patch = JsonNodeFactory.instance.objectNode();
    patch.putObject("metadata").put("resourceVersion", resourceVersion);
    patch.set(field, changed);
    return Optional.of(patch);
  }
}
