package io.rollgate.webhook;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The parts of an {@code admission.k8s.io/v1} AdmissionReview request the webhook looks at.
 *
 * @param uid the request uid, echoed in the response
 * @param group the API group of the object's kind ({@code argoproj.io}), empty for the core group
 * @param version the version of the object's kind ({@code v1alpha1})
 * @param kind the object's kind ({@code Rollout})
 * @param subResource the subresource ({@code status}), empty for the main resource
 * @param operation {@code CREATE}, {@code UPDATE}, {@code DELETE} or {@code CONNECT}
 * @param namespace the namespace, empty for cluster-scoped objects
 * @param name the object's name, empty when the API server generates it
 * @param object the new object, or null (DELETE)
 * @param oldObject the stored object an UPDATE replaces, or null
 */
public record AdmissionRequest(
    String uid,
    String group,
    String version,
    String kind,
    String subResource,
    String operation,
    String namespace,
    String name,
    JsonNode object,
    JsonNode oldObject) {

  /**
   * Whether the request is about an {@code argoproj.io} Rollout (any version).
   *
   * @return true for Rollouts
   */
  public boolean isRollout() {
    return "argoproj.io".equals(group) && "Rollout".equals(kind);
  }

  /**
   * Whether the request creates or updates the main resource (not a subresource such as {@code status}).
   *
   * @return true for CREATE or UPDATE of the object itself
   */
  public boolean isMainResourceWrite() {
    return subResource.isEmpty() && ("CREATE".equals(operation) || "UPDATE".equals(operation));
  }
}
