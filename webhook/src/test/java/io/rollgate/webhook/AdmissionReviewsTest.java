package io.rollgate.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rollgate.api.ModelJson;
import io.rollgate.api.Rollout;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Parsing AdmissionReview bodies: the envelope's fields, and the objects kept as byte ranges of the
 * body.
 */
class AdmissionReviewsTest {

  @Test
  void objectAndOldObjectAreReadFromTheirPlaceInTheBody() throws Exception {
    ObjectNode object = Reviews.validRollout();
    object
        .with("metadata")
        .with("annotations")
        .put("note", "naïve ✓ \"quoted\" {braces} [brackets]");
    ObjectNode old = Reviews.validRollout();
    old.with("spec").put("replicas", 7);
    ObjectNode review = Reviews.review("UPDATE", object);
    ((ObjectNode) review.get("request")).set("oldObject", old);
    // Pretty-printed, with the envelope's fields around the objects, so offsets are not those of a
    // compact body.
    String body =
        "  "
            + AdmissionReviews.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(review)
            + "\n";

    AdmissionRequest request = AdmissionReviews.parse(body.getBytes(StandardCharsets.UTF_8));

    assertEquals("argoproj.io", request.group());
    assertEquals("v1alpha1", request.version());
    assertEquals("Rollout", request.kind());
    assertEquals("UPDATE", request.operation());
    assertEquals("shop", request.namespace());
    assertEquals("web", request.name());
    assertTrue(request.hasJsonObject());
    assertEquals(object, request.object());
    assertEquals(old, request.oldObject());
    Rollout bound = request.readObject(ModelJson.mapper(), Rollout.class);
    assertEquals(
        "naïve ✓ \"quoted\" {braces} [brackets]", bound.getMetadata().getAnnotations().get("note"));
    assertEquals(
        7, request.readOldObject(ModelJson.mapper(), Rollout.class).getSpec().getReplicas());
    // Binding twice, and the tree after binding, give the same.
    assertEquals(bound, request.readObject(ModelJson.mapper(), Rollout.class));
    assertEquals(object, request.object());
  }

  @Test
  void nonObjectPayloadsAreKeptAsTrees() throws Exception {
    ObjectNode review = Reviews.review("DELETE", Reviews.validRollout());
    ((ObjectNode) review.get("request")).putNull("object");
    ((ObjectNode) review.get("request")).putArray("oldObject").add(1);
    AdmissionRequest request = Reviews.parse(review);
    assertNull(request.object());
    assertTrue(request.oldObject().isArray());
    review.with("request").put("object", "text");
    AdmissionRequest text = Reviews.parse(review);
    assertEquals("text", text.object().asText());
    assertEquals(false, text.hasJsonObject());
  }

  @Test
  void kindMustBeAnObjectWithAStringKind() {
    ObjectNode review = Reviews.review("CREATE", Reviews.validRollout());
    review.with("request").put("kind", "Rollout");
    assertEquals("AdmissionReview request has no kind", parseError(review));
    review.with("request").putObject("kind").put("group", "argoproj.io").put("kind", 3);
    assertEquals("AdmissionReview request has no kind", parseError(review));
    JsonNode gvk =
        review.with("request").putObject("kind").put("kind", "Rollout").put("extra", "x");
    assertEquals("Rollout", Reviews.parse(review).kind());
    assertEquals("", Reviews.parse(review).group(), gvk.toString());
  }

  @Test
  void malformedJsonInsideTheObjectIsRefused() {
    String body =
        "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{\"uid\":\"u\","
            + "\"kind\":{\"kind\":\"Rollout\"},\"object\":{\"spec\":{\"replicas\":1,}}}}";
    BadReviewException e =
        assertThrows(
            BadReviewException.class,
            () -> AdmissionReviews.parse(body.getBytes(StandardCharsets.UTF_8)));
    assertTrue(e.getMessage().startsWith("malformed JSON"), e.getMessage());
  }

  private static String parseError(ObjectNode review) {
    return assertThrows(
            BadReviewException.class,
            () -> AdmissionReviews.parse(review.toString().getBytes(StandardCharsets.UTF_8)))
        .getMessage();
  }
}
