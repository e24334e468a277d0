package io.rollgate.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** Test AdmissionReviews built around a Rollout fixture. */
final class Reviews {

  private Reviews() {}

  static ObjectNode validRollout() {
    try (InputStream in = Reviews.class.getResourceAsStream("/rollout-valid.json")) {
      return (ObjectNode) AdmissionReviews.mapper().readTree(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static ObjectNode review(String operation, JsonNode object) {
    ObjectNode review = AdmissionReviews.mapper().createObjectNode();
    review.put("apiVersion", "admission.k8s.io/v1");
    review.put("kind", "AdmissionReview");
    ObjectNode request = review.putObject("request");
    request.put("uid", "705ab4f5-6393-11e8-b7cc-42010a800002");
    ObjectNode kind = request.putObject("kind");
    kind.put("group", "argoproj.io");
    kind.put("version", "v1alpha1");
    kind.put("kind", "Rollout");
    ObjectNode resource = request.putObject("resource");
    resource.put("group", "argoproj.io");
    resource.put("version", "v1alpha1");
    resource.put("resource", "rollouts");
    request.put("name", "web");
    request.put("namespace", "shop");
    request.put("operation", operation);
    request.set("object", object);
    return review;
  }

  static AdmissionRequest parse(ObjectNode review) {
    try {
      return AdmissionReviews.parse(
          review.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
    } catch (BadReviewException e) {
      throw new IllegalStateException(e);
    }
  }
}
