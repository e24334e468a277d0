package io.rollgate.webhook;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rollgate.validation.FieldError;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

/**
 * Reads and writes {@code admission.k8s.io/v1} AdmissionReviews (Kubernetes "Dynamic Admission Control"). Parsing is
 * bounded: the caller limits the body size, and the parser refuses nesting deeper than {@link #MAX_NESTING_DEPTH}.
 */
public final class AdmissionReviews {

  /** The only AdmissionReview version served. */
  public static final String API_VERSION = "admission.k8s.io/v1";

  /** Maximum JSON nesting depth accepted; real Rollouts stay below 30. */
  public static final int MAX_NESTING_DEPTH = 100;

  private static final ObjectMapper JSON =
      JsonMapper.builder(
              JsonFactory.builder()
                  .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_NESTING_DEPTH).build())
                  .build())
          .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .build();

  private AdmissionReviews() {}

  /**
   * Returns the bounded mapper used for AdmissionReviews.
   *
   * @return the shared, thread-safe mapper
   */
  public static ObjectMapper mapper() {
    return JSON;
  }

  /**
   * Parses an AdmissionReview request body.
   *
   * @param body the raw body, at most the configured size limit
   * @return the request
   * @throws BadReviewException if the body is empty, not JSON, too deeply nested, not an {@code admission.k8s.io/v1}
   *     AdmissionReview, or lacks {@code request}, {@code request.uid} or {@code request.kind}
   */
  public static AdmissionRequest parse(byte[] body) throws BadReviewException {
    if (body == null || body.length == 0) {
      throw new BadReviewException("empty body: expected an admission.k8s.io/v1 AdmissionReview");
    }
    JsonNode root;
    try {
      root = JSON.readTree(body);
    } catch (StreamConstraintsException e) {
      throw new BadReviewException("JSON too deeply nested (limit " + MAX_NESTING_DEPTH + " levels)");
    } catch (JsonProcessingException e) {
      throw new BadReviewException("malformed JSON: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new BadReviewException("unreadable body: " + e.getMessage());
    }
    if (root == null || !root.isObject()) {
      throw new BadReviewException("expected a JSON object: an admission.k8s.io/v1 AdmissionReview");
    }
    String apiVersion = root.path("apiVersion").asText("");
    String kind = root.path("kind").asText("");
    if (!API_VERSION.equals(apiVersion) || !"AdmissionReview".equals(kind)) {
      throw new BadReviewException(
          "expected apiVersion " + API_VERSION + " kind AdmissionReview, got apiVersion '" + apiVersion + "' kind '"
              + kind + "'");
    }
    JsonNode request = root.get("request");
    if (request == null || !request.isObject()) {
      throw new BadReviewException("AdmissionReview has no request");
    }
    String uid = text(request, "uid");
    if (uid.isEmpty()) {
      throw new BadReviewException("AdmissionReview request has no uid");
    }
    JsonNode gvk = request.get("kind");
    if (gvk == null || !gvk.isObject() || text(gvk, "kind").isEmpty()) {
      throw new BadReviewException("AdmissionReview request has no kind");
    }
    JsonNode object = request.get("object");
    JsonNode oldObject = request.get("oldObject");
    return new AdmissionRequest(
        uid,
        text(gvk, "group"),
        text(gvk, "version"),
        text(gvk, "kind"),
        text(request, "subResource"),
        text(request, "operation"),
        text(request, "namespace"),
        text(request, "name"),
        object == null || object.isNull() ? null : object,
        oldObject == null || oldObject.isNull() ? null : oldObject);
  }

  private static String text(JsonNode node, String field) {
    JsonNode v = node.get(field);
    return v != null && v.isTextual() ? v.asText() : "";
  }

  /**
   * An AdmissionReview that allows the request.
   *
   * @param uid the request uid
   * @param warnings admission warnings shown by kubectl (may be empty)
   * @return the response review
   */
  public static ObjectNode allowed(String uid, List<String> warnings) {
    ObjectNode review = review(uid, true);
    addWarnings(review, warnings);
    return review;
  }

  /**
   * An AdmissionReview that allows the request and applies a JSONPatch.
   *
   * @param uid the request uid
   * @param patch the RFC 6902 operations; when empty no patch is sent
   * @return the response review
   */
  public static ObjectNode patched(String uid, ArrayNode patch) {
    ObjectNode review = review(uid, true);
    if (!patch.isEmpty()) {
      ObjectNode response = (ObjectNode) review.get("response");
      response.put("patchType", "JSONPatch");
      response.put(
          "patch", Base64.getEncoder().encodeToString(patch.toString().getBytes(StandardCharsets.UTF_8)));
    }
    return review;
  }

  /**
   * An AdmissionReview that denies an invalid object with every problem, as the API server reports its own validation
   * errors: {@code status.code} 422, {@code reason: Invalid}, one line per problem in {@code message}, and one entry
   * per problem in {@code details.causes}.
   *
   * @param request the request
   * @param errors the problems (at least one)
   * @param warnings admission warnings (may be empty)
   * @return the response review
   */
  public static ObjectNode invalid(AdmissionRequest request, List<FieldError> errors, List<String> warnings) {
    ObjectNode review = review(request.uid(), false);
    ObjectNode status = ((ObjectNode) review.get("response")).putObject("status");
    String name = request.name().isEmpty() ? "<generated>" : request.name();
    StringBuilder message =
        new StringBuilder(request.kind())
            .append(" \"")
            .append(name)
            .append("\" is invalid (")
            .append(errors.size())
            .append(errors.size() == 1 ? " problem):" : " problems):");
    for (FieldError e : errors) {
      message.append('\n').append(e);
    }
    status.put("apiVersion", "v1");
    status.put("kind", "Status");
    status.put("status", "Failure");
    status.put("code", 422);
    status.put("reason", "Invalid");
    status.put("message", message.toString());
    ObjectNode details = status.putObject("details");
    details.put("name", request.name());
    details.put("group", request.group());
    details.put("kind", request.kind());
    ArrayNode causes = details.putArray("causes");
    for (FieldError e : errors) {
      ObjectNode cause = causes.addObject();
      cause.put("reason", reason(e.type()));
      cause.put("message", message(e));
      cause.put("field", e.path());
    }
    addWarnings(review, warnings);
    return review;
  }

  /**
   * An AdmissionReview that denies a request whose object cannot be read as the declared kind.
   *
   * @param request the request
   * @param message the reason
   * @return the response review, with {@code status.code} 400 and {@code reason: BadRequest}
   */
  public static ObjectNode badObject(AdmissionRequest request, String message) {
    ObjectNode review = review(request.uid(), false);
    ObjectNode status = ((ObjectNode) review.get("response")).putObject("status");
    status.put("apiVersion", "v1");
    status.put("kind", "Status");
    status.put("status", "Failure");
    status.put("code", 400);
    status.put("reason", "BadRequest");
    status.put("message", message);
    return review;
  }

  /**
   * The Kubernetes {@code CauseType} of a field error type.
   *
   * @param type the field error type
   * @return for example {@code FieldValueInvalid}
   */
  static String reason(FieldError.Type type) {
    switch (type) {
      case INVALID:
        return "FieldValueInvalid";
      case REQUIRED:
        return "FieldValueRequired";
      case FORBIDDEN:
        return "FieldValueForbidden";
      default:
        return "InternalError";
    }
  }

  private static String message(FieldError e) {
    String full = e.toString();
    String prefix = e.path() + ": ";
    return full.startsWith(prefix) ? full.substring(prefix.length()) : full;
  }

  private static ObjectNode review(String uid, boolean allowed) {
    ObjectNode review = JSON.createObjectNode();
    review.put("apiVersion", API_VERSION);
    review.put("kind", "AdmissionReview");
    ObjectNode response = review.putObject("response");
    response.put("uid", uid);
    response.put("allowed", allowed);
    return review;
  }

  private static void addWarnings(ObjectNode review, List<String> warnings) {
    if (!warnings.isEmpty()) {
      ArrayNode w = ((ObjectNode) review.get("response")).putArray("warnings");
      warnings.forEach(w::add);
    }
  }
}
