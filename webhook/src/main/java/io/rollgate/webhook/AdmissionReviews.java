package io.rollgate.webhook;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rollgate.validation.FieldError;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

/**
 * Reads and writes {@code admission.k8s.io/v1} AdmissionReviews (Kubernetes "Dynamic Admission
 * Control"). Parsing is bounded: the caller limits the body size, and the parser refuses nesting
 * deeper than {@link #MAX_NESTING_DEPTH}.
 */
public final class AdmissionReviews {

  /** The only AdmissionReview version served. */
  public static final String API_VERSION = "admission.k8s.io/v1";

  /** Maximum JSON nesting depth accepted; real Rollouts stay below 30. */
  public static final int MAX_NESTING_DEPTH = 100;

  private static final ObjectMapper JSON =
      JsonMapper.builder(
              JsonFactory.builder()
                  .streamReadConstraints(
                      StreamReadConstraints.builder().maxNestingDepth(MAX_NESTING_DEPTH).build())
                  .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                  .build())
          .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .build();

  /**
   * Reads one value in the middle of a document (the AdmissionReview's trailing tokens are checked
   * separately).
   */
  private static final ObjectReader VALUE =
      JSON.readerFor(JsonNode.class).without(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  private AdmissionReviews() {}

  /**
   * Reads the JSON value the parser is on as a tree, leaving the parser on the value's last token.
   *
   * @param p the parser
   * @return the tree
   * @throws IOException when the value is malformed
   */
  static JsonNode readValue(JsonParser p) throws IOException {
    return VALUE.readTree(p);
  }

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
   * @throws BadReviewException if the body is empty, not JSON, too deeply nested, not an {@code
   *     admission.k8s.io/v1} AdmissionReview, or lacks {@code request}, {@code request.uid} or
   *     {@code request.kind}
   */
  public static AdmissionRequest parse(byte[] body) throws BadReviewException {
    if (body == null || body.length == 0) {
      throw new BadReviewException("empty body: expected an admission.k8s.io/v1 AdmissionReview");
    }
    String encoding = Utf8Check.problem(body);
    if (encoding != null) {
      throw new BadReviewException("body is not valid UTF-8: " + encoding);
    }
    // One streaming pass: the envelope's few fields are read as they come, and the (possibly large)
    // object and old object are skipped over and kept as their byte ranges in the body, so that
    // binding one to the model later reads it once, without a JsonNode tree or a token copy first.
    try (JsonParser p = JSON.createParser(body)) {
      JsonToken first = p.nextToken();
      if (first != JsonToken.START_OBJECT) {
        if (first != null) {
          p.skipChildren();
          trailing(p);
        }
        throw new BadReviewException(
            "expected a JSON object: an admission.k8s.io/v1 AdmissionReview");
      }
      String apiVersion = "";
      String kind = "";
      Envelope request = null;
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        JsonToken value = p.nextToken();
        switch (field) {
          case "apiVersion" -> apiVersion = value == JsonToken.VALUE_STRING ? p.getText() : "";
          case "kind" -> kind = value == JsonToken.VALUE_STRING ? p.getText() : "";
          case "request" -> {
            if (value == JsonToken.START_OBJECT) {
              request = readRequest(p, body);
            } else {
              p.skipChildren();
              request = null;
            }
          }
          default -> p.skipChildren();
        }
      }
      trailing(p);
      if (!API_VERSION.equals(apiVersion) || !"AdmissionReview".equals(kind)) {
        throw new BadReviewException(
            "expected apiVersion "
                + API_VERSION
                + " kind AdmissionReview, got apiVersion '"
                + apiVersion
                + "' kind '"
                + kind
                + "'");
      }
      if (request == null) {
        throw new BadReviewException("AdmissionReview has no request");
      }
      if (request.uid.isEmpty()) {
        throw new BadReviewException("AdmissionReview request has no uid");
      }
      if (request.kind.isEmpty()) {
        throw new BadReviewException("AdmissionReview request has no kind");
      }
      return new AdmissionRequest(
          request.uid,
          request.group,
          request.version,
          request.kind,
          request.subResource,
          request.operation,
          request.namespace,
          request.name,
          request.object,
          request.oldObject);
    } catch (StreamConstraintsException e) {
      if (String.valueOf(e.getOriginalMessage()).contains("nesting depth")) {
        throw new BadReviewException(
            "JSON too deeply nested (limit "
                + MAX_NESTING_DEPTH
                + " levels, counted from the AdmissionReview)");
      }
      // Another of the parser's limits: a number or a name too long.
      throw new BadReviewException("JSON beyond a parser limit: " + e.getOriginalMessage());
    } catch (JsonProcessingException e) {
      throw new BadReviewException("malformed JSON: " + e.getOriginalMessage() + at(e));
    } catch (IOException e) {
      throw new BadReviewException("unreadable body: " + e.getMessage());
    }
  }

  /**
   * Where a parse error happened, as a JSON Pointer into the AdmissionReview ({@code " at
   * /request/object/spec"}), so that a duplicate key or a bad value is named by its place rather
   * than only by a byte offset.
   */
  private static String at(JsonProcessingException e) {
    if (e.getProcessor() instanceof JsonParser p && p.getParsingContext() != null) {
      String pointer = p.getParsingContext().pathAsPointer().toString();
      return pointer.isEmpty() ? "" : " at " + pointer;
    }
    return "";
  }

  /** The fields of {@code request}, as read. */
  private static final class Envelope {
    String uid = "";
    String group = "";
    String version = "";
    String kind = "";
    String subResource = "";
    String operation = "";
    String namespace = "";
    String name = "";
    AdmissionRequest.Payload object;
    AdmissionRequest.Payload oldObject;
  }

  /** Reads {@code request}; the parser is on its START_OBJECT and is left on its END_OBJECT. */
  private static Envelope readRequest(JsonParser p, byte[] body) throws IOException {
    Envelope r = new Envelope();
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String field = p.currentName();
      JsonToken value = p.nextToken();
      switch (field) {
        case "uid" -> r.uid = string(p, value);
        case "kind" -> readKind(p, value, r);
        case "subResource" -> r.subResource = string(p, value);
        case "operation" -> r.operation = string(p, value);
        case "namespace" -> r.namespace = string(p, value);
        case "name" -> r.name = string(p, value);
        case "object" -> r.object = payload(p, value, body);
        case "oldObject" -> r.oldObject = payload(p, value, body);
        default -> p.skipChildren();
      }
    }
    return r;
  }

  /**
   * Reads {@code request.kind} (group, version, kind; other fields and non-string values are
   * ignored).
   */
  private static void readKind(JsonParser p, JsonToken value, Envelope r) throws IOException {
    // A duplicate "kind" replaces the earlier one entirely, as a tree reader would.
    r.group = "";
    r.version = "";
    r.kind = "";
    if (value != JsonToken.START_OBJECT) {
      p.skipChildren();
      return;
    }
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String field = p.currentName();
      JsonToken v = p.nextToken();
      switch (field) {
        case "group" -> r.group = string(p, v);
        case "version" -> r.version = string(p, v);
        case "kind" -> r.kind = string(p, v);
        default -> p.skipChildren();
      }
    }
  }

  /**
   * Keeps a JSON object as its byte range in the body, after the parser has checked it by skipping
   * it; other values (null, a string, a list) are read as a tree, for the decisions to refuse.
   */
  private static AdmissionRequest.Payload payload(JsonParser p, JsonToken value, byte[] body)
      throws IOException {
    if (value == JsonToken.START_OBJECT) {
      int start = (int) p.currentTokenLocation().getByteOffset();
      p.skipChildren();
      int end = (int) p.currentTokenLocation().getByteOffset() + 1;
      return AdmissionRequest.Payload.ofBytes(body, start, end - start);
    }
    return AdmissionRequest.Payload.ofTree(readValue(p));
  }

  private static String string(JsonParser p, JsonToken value) throws IOException {
    if (value == JsonToken.VALUE_STRING) {
      return p.getText();
    }
    p.skipChildren();
    return "";
  }

  /**
   * Fails on anything after the root value, as the tree reader with FAIL_ON_TRAILING_TOKENS does.
   */
  private static void trailing(JsonParser p) throws IOException {
    JsonToken t = p.nextToken();
    if (t != null) {
      throw new JsonParseException(p, "Trailing token (of type " + t + ") found after value");
    }
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
          "patch",
          Base64.getEncoder().encodeToString(patch.toString().getBytes(StandardCharsets.UTF_8)));
    }
    return review;
  }

  /**
   * An AdmissionReview that denies an invalid object with every problem, as the API server reports
   * its own validation errors: {@code status.code} 422, {@code reason: Invalid}, one line per
   * problem in {@code message}, and one entry per problem in {@code details.causes}.
   *
   * @param request the request
   * @param errors the problems (at least one)
   * @param warnings admission warnings (may be empty)
   * @return the response review
   */
  public static ObjectNode invalid(
      AdmissionRequest request, List<FieldError> errors, List<String> warnings) {
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
