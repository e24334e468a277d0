package io.rollgate.api;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.util.TokenBuffer;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * JSON helpers for the wire model: one shared, pre-configured {@link ObjectMapper}, conversion to
 * and from JSON text, and deep copies.
 *
 * <p>The mapper does not fail on unknown properties (model classes keep them anyway) and adds
 * nothing of its own: omission of absent fields comes from the {@code @JsonInclude} on each model
 * class, so the same classes serialize identically through fabric8's own mapper.
 */
public final class ModelJson {

  private static final ObjectMapper MAPPER =
      JsonMapper.builder().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();

  private ModelJson() {}

  /**
   * Returns the shared mapper. It is thread-safe for reading and writing; do not reconfigure it.
   *
   * @return the shared mapper
   */
  public static ObjectMapper mapper() {
    return MAPPER;
  }

  /**
   * Serializes a value to compact JSON.
   *
   * @param value any model object, fabric8 object or plain Java value; may be {@code null}
   * @return the JSON text
   * @throws IllegalArgumentException if Jackson cannot serialize the value
   */
  public static String toJson(Object value) {
    try {
      return MAPPER.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(
          "cannot serialize " + value.getClass().getName() + ": " + e.getMessage(), e);
    }
  }

  /**
   * Serializes a value to a JSON tree.
   *
   * @param value any model object, fabric8 object or plain Java value; may be {@code null}
   * @return the JSON tree
   * @throws IllegalArgumentException if Jackson cannot serialize the value
   */
  public static JsonNode toTree(Object value) {
    return MAPPER.valueToTree(value);
  }

  /**
   * Parses JSON text into the given type.
   *
   * @param json the JSON text
   * @param type the target class, for example {@code Rollout.class}
   * @param <T> the target type
   * @return the parsed value
   * @throws UncheckedIOException if the text is not valid JSON or does not fit the type
   */
  public static <T> T fromJson(String json, Class<T> type) {
    try {
      return MAPPER.readValue(json, type);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot parse " + type.getSimpleName() + ": " + e.getMessage(), e);
    }
  }

  /**
   * Returns a deep copy made by a JSON round trip, so the copy shares no mutable state with the
   * original (including unknown properties and schemaless {@link JsonNode} fields).
   *
   * @param value the value to copy; may be {@code null}
   * @param <T> the value's type; the copy has exactly the runtime class of {@code value}
   * @return the copy, or {@code null} for {@code null}
   * @throws UncheckedIOException if the value cannot be serialized or read back
   */
  @SuppressWarnings("unchecked")
  public static <T> T deepCopy(T value) {
    if (value == null) {
      return null;
    }
    // The round trip goes through Jackson's token buffer instead of JSON bytes: the same tokens
    // the text would be parsed back into, without encoding and parsing the text.
    try (TokenBuffer tokens = new TokenBuffer(MAPPER, false)) {
      MAPPER.writeValue(tokens, value);
      try (JsonParser parser = tokens.asParser(MAPPER)) {
        return (T) MAPPER.readValue(parser, value.getClass());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot copy " + value.getClass().getSimpleName() + ": " + e.getMessage(), e);
    }
  }
}
