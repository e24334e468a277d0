package io.rollgate.webhook;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Quantity;
import io.rollgate.validation.FieldError;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * Turns a failure to bind an object to the model (a value of the wrong JSON type, a number beyond
 * its field's range) into a field error with the object's field path, the value as sent and what
 * the field takes, in the API server's own wording ({@code spec.replicas: Invalid value: "3": must
 * be a 32-bit integer}), instead of the binding library's message with Java class names.
 */
final class BindingErrors {

  private BindingErrors() {}

  /**
   * Describes a binding failure as a field error.
   *
   * @param e what the binding threw
   * @param object the JSON tree that was bound, to quote the value sent; may be null
   * @param prefix the field path of that tree in the object ({@code spec.} when only the spec was
   *     bound), or empty
   * @return the field error, or empty when the failure names no field (the caller then reports it
   *     as a whole)
   */
  static Optional<FieldError> describe(JsonProcessingException e, JsonNode object, String prefix) {
    List<JsonMappingException.Reference> path = pathOf(e);
    if (path.isEmpty()) {
      return Optional.empty();
    }
    StringBuilder field = new StringBuilder(prefix);
    JsonNode value = object;
    for (JsonMappingException.Reference r : path) {
      if (r.getFieldName() != null) {
        if (field.length() > 0 && field.charAt(field.length() - 1) != '.') {
          field.append('.');
        }
        field.append(r.getFieldName());
        value = value == null ? null : value.get(r.getFieldName());
      } else if (r.getIndex() >= 0) {
        field.append('[').append(r.getIndex()).append(']');
        value = value == null ? null : value.get(r.getIndex());
      }
    }
    return Optional.of(FieldError.invalid(field.toString(), quoted(value), detail(e)));
  }

  /**
   * Denies an object that cannot be bound to the model: with the field, the value and what the
   * field takes when the failure names a field (422, as the API server's own validation), otherwise
   * as a bad request (400).
   *
   * @param request the request
   * @param e what binding threw
   * @param what the model type, for the message ({@code a Rollout})
   * @param tree the JSON tree that was bound (the object, or a part of it)
   * @param prefix the field path of that tree in the object ({@code spec.}), or empty for the whole
   *     object
   * @return the denial
   */
  static AdmissionDecision denial(
      AdmissionRequest request, Exception e, String what, JsonNode tree, String prefix) {
    if (e instanceof JsonProcessingException j) {
      Optional<FieldError> field = describe(j, tree, prefix);
      if (field.isPresent()) {
        return new AdmissionDecision(
            AdmissionReviews.invalid(request, List.of(field.get()), List.of()), "denied", 1);
      }
    }
    return new AdmissionDecision(
        AdmissionReviews.badObject(
            request, "cannot read the object as " + what + ": " + message(e)),
        "denied",
        1);
  }

  /**
   * The message of a binding failure without the library's location and reference chain.
   *
   * @param e what the binding threw
   * @return the message
   */
  static String message(Exception e) {
    return e instanceof JsonProcessingException j
        ? j.getOriginalMessage()
        : String.valueOf(e.getMessage());
  }

  private static List<JsonMappingException.Reference> pathOf(JsonProcessingException e) {
    if (e instanceof JsonMappingException m && m.getPath() != null) {
      return m.getPath();
    }
    return List.of();
  }

  private static Object quoted(JsonNode value) {
    if (value == null || value.isMissingNode()) {
      return "<unknown>";
    }
    if (value.isTextual()) {
      return value.asText();
    }
    if (value.isNumber()) {
      return value.numberValue();
    }
    // An object or a list: its JSON, shortened so that a large value does not flood the message.
    String json = value.toString();
    return new Raw(json.length() > 80 ? json.substring(0, 77) + "..." : json);
  }

  /** A value rendered as is (not quoted as a string). */
  private record Raw(String json) {
    @Override
    public String toString() {
      return json;
    }
  }

  private static String detail(JsonProcessingException e) {
    Class<?> target = null;
    if (e instanceof MismatchedInputException m) {
      target = m.getTargetType();
    } else if (e.getCause() instanceof InputCoercionException c) {
      target = c.getTargetType();
    } else if (e instanceof InputCoercionException c) {
      target = c.getTargetType();
    }
    if (target == null && e instanceof ValueInstantiationException v) {
      // A type's own creator refused the value (fabric8's IntOrString refuses a number beyond 32
      // bits).
      target = v.getType().getRawClass();
    }
    if (target == null) {
      return "cannot be read: " + e.getOriginalMessage();
    }
    return "must be " + describe(target);
  }

  private static String describe(Class<?> type) {
    if (type == Integer.class || type == int.class || type == Short.class || type == short.class) {
      return "a 32-bit integer";
    }
    if (type == Long.class || type == long.class) {
      return "a 64-bit integer";
    }
    if (type == Boolean.class || type == boolean.class) {
      return "a boolean";
    }
    if (type == String.class) {
      return "a string";
    }
    if (Number.class.isAssignableFrom(type) || type == double.class || type == float.class) {
      return "a number";
    }
    if (type == IntOrString.class) {
      return "a 32-bit integer or a string";
    }
    if (type == Quantity.class) {
      return "a quantity such as \"500m\" or \"1Gi\"";
    }
    if (type.isArray() || Collection.class.isAssignableFrom(type)) {
      return "a list";
    }
    // A map or a model type.
    return "an object";
  }
}
