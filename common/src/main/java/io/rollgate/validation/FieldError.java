package io.rollgate.validation;

/**
 * One validation problem: the field path and the reason, formatted like Kubernetes' {@code
 * field.Error}.
 *
 * @param path the field path, for example {@code spec.strategy.canary.steps[2].setWeight}
 * @param type {@link Type#INVALID}, {@link Type#REQUIRED}, ...
 * @param value the offending value as text, or null when not applicable
 * @param detail the reason, for example {@code SetWeight needs to be between 0 and 100}
 */
public record FieldError(String path, Type type, String value, String detail) {

  /** Kubernetes' field error types, which decide the wording of {@link #toString()}. */
  public enum Type {
    /** {@code <path>: Invalid value: <value>: <detail>}. */
    INVALID("Invalid value"),
    /** {@code <path>: Required value: <detail>}. */
    REQUIRED("Required value"),
    /** {@code <path>: Forbidden: <detail>}. */
    FORBIDDEN("Forbidden"),
    /** {@code <path>: Internal error: <detail>}. */
    INTERNAL("Internal error");

    private final String text;

    Type(String text) {
      this.text = text;
    }

    /**
     * Returns the Kubernetes wording of this type.
     *
     * @return for example {@code Invalid value}
     */
    public String text() {
      return text;
    }
  }

  /**
   * An invalid value.
   *
   * @param path the field path
   * @param value the offending value (rendered with {@link String#valueOf(Object)}, strings quoted)
   * @param detail the reason
   * @return the error
   */
  public static FieldError invalid(String path, Object value, String detail) {
    return new FieldError(path, Type.INVALID, render(value), detail);
  }

  /**
   * A missing value.
   *
   * @param path the field path
   * @param detail the reason
   * @return the error
   */
  public static FieldError required(String path, String detail) {
    return new FieldError(path, Type.REQUIRED, null, detail);
  }

  /**
   * A value that is forbidden in this combination.
   *
   * @param path the field path
   * @param detail the reason
   * @return the error
   */
  public static FieldError forbidden(String path, String detail) {
    return new FieldError(path, Type.FORBIDDEN, null, detail);
  }

  /**
   * An internal error (Argo uses it for template-with-workloadRef).
   *
   * @param path the field path
   * @param detail the reason
   * @return the error
   */
  public static FieldError internal(String path, String detail) {
    return new FieldError(path, Type.INTERNAL, null, detail);
  }

  /**
   * Renders a value as Kubernetes' {@code field.Invalid} prints it: numbers and booleans as they
   * are, strings quoted, anything else (maps, lists, objects) as JSON with sorted map keys, as Go's
   * {@code json.Marshal} writes it, so that {@code kubectl argo rollouts}, the dashboard and Argo
   * CD show the same message under Rollgate and Argo.
   */
  private static String render(Object value) {
    if (value == null) {
      return "null";
    }
    if (value instanceof String s) {
      return "\"" + s + "\"";
    }
    if (value instanceof Number || value instanceof Boolean) {
      return String.valueOf(value);
    }
    try {
      return JSON.writeValueAsString(value);
    } catch (com.fasterxml.jackson.core.JsonProcessingException | RuntimeException e) {
      return String.valueOf(value);
    }
  }

  private static final com.fasterxml.jackson.databind.ObjectMapper JSON =
      new com.fasterxml.jackson.databind.ObjectMapper()
          .configure(
              com.fasterxml.jackson.databind.SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true)
          .setSerializationInclusion(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL);

  @Override
  public String toString() {
    if (type == Type.INVALID) {
      return path + ": " + type.text() + ": " + value + ": " + detail;
    }
    return path + ": " + type.text() + ": " + detail;
  }
}
