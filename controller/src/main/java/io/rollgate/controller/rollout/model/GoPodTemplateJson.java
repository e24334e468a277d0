package io.rollgate.controller.rollout.model;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.rollgate.api.ModelJson;
import io.rollgate.controller.rollout.model.GoTypes.Field;
import io.rollgate.controller.rollout.model.GoTypes.Kind;
import io.rollgate.controller.rollout.model.GoTypes.Struct;
import io.rollgate.controller.rollout.model.GoTypes.Type;
import io.rollgate.quantity.Quantities;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reproduces, byte for byte, the JSON that a Go controller built on the Kubernetes Go types hashes
 * for a pod template: Go's {@code json.Marshal} of the {@code k8s.io/api/core/v1.PodTemplateSpec}
 * that the Go client decodes from the API server's JSON. This is the input of the {@code
 * rollouts-pod-template-hash} ({@link PodTemplateHash#hashOf}).
 *
 * <p>What Go does and this class mirrors: JSON fields that the Go types do not have are dropped
 * (names match case-sensitively, like the Kubernetes decoder); fields are written in Go declaration
 * order with embedded structs flattened; {@code omitempty} drops {@code false}, {@code 0}, {@code
 * ""}, nil pointers and empty maps and slices but never structs, so {@code "resources":{}} is
 * always written; fields without it are written with their zero value ({@code "name":""}, {@code
 * "nodeSelectorTerms":null}); {@code omitzero} drops zero values; map keys are sorted; strings are
 * escaped with HTML escaping. Custom encodings: {@code resource.Quantity} in its canonical form
 * ({@code "0.5"} → {@code "500m"}, while a form the parser deems canonical, such as {@code "1e3"},
 * is kept), {@code intstr.IntOrString} as a number or a string, {@code metav1.Time} as RFC 3339 in
 * UTC or {@code null}, {@code metav1.FieldsV1} verbatim. Like Argo Rollouts, which re-marshals a
 * Rollout before hashing, the result is that of a second decode/encode round (the two differ only
 * in corner cases of {@code metav1.Time}: a zero time behind a pointer is {@code null} after the
 * first round and omitted after the second).
 *
 * <p>The input is the template as JSON, as the API server sends it. The Go types depend on the
 * version of the Kubernetes libraries, see {@link GoKubeApiVersion}; the default is {@link
 * #DEFAULT_VERSION}, the one of the current Argo Rollouts releases (1.9, 1.10). ReplicaSets created
 * by Argo Rollouts 1.8 or older carry hashes of the {@link GoKubeApiVersion#V0_29} encoding, which
 * differs for every template. Values that Go fails to decode (a string in an integer field, an
 * integer out of range, a malformed quantity or time) are rejected: a Go controller would not see
 * such a Rollout at all.
 *
 * <p>Limits, all outside what an API server sends: a JSON number is known only by its value, so one
 * written with a fraction or exponent is taken as the API server normalises it (the float64
 * re-encoded by Go, {@code 80.0} → {@code 80}, {@code 1e3} → {@code 1000}); duplicate object keys
 * are seen as Jackson keeps them (last one wins, where Go merges duplicate objects).
 */
public final class GoPodTemplateJson {

  /** The Go types used when no version is given: those of Argo Rollouts 1.9 and 1.10. */
  public static final GoKubeApiVersion DEFAULT_VERSION = GoKubeApiVersion.V0_34;

  /** Go map keys are sorted by their UTF-8 bytes, which is code point order. */
  private static final Comparator<String> GO_KEY_ORDER =
      (a, b) -> {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
          int ca = a.codePointAt(i);
          int cb = b.codePointAt(j);
          if (ca != cb) {
            return Integer.compare(ca, cb);
          }
          i += Character.charCount(ca);
          j += Character.charCount(cb);
        }
        return Integer.compare(a.length() - i, b.length() - j);
      };

  private static final String ZERO_TIME = "";

  private GoPodTemplateJson() {}

  /**
   * Encodes a pod template with the {@link #DEFAULT_VERSION} Go types.
   *
   * @param template the {@code spec.template} JSON; null, JSON null or a missing node mean the zero
   *     template
   * @return the bytes Go's {@code json.Marshal} produces
   * @throws IllegalArgumentException if Go could not decode the template
   */
  public static byte[] encode(JsonNode template) {
    return encode(template, DEFAULT_VERSION);
  }

  /**
   * Encodes a pod template with the Go types of a given Kubernetes version.
   *
   * @param template the {@code spec.template} JSON; null, JSON null or a missing node mean the zero
   *     template
   * @param version the Go types to follow
   * @return the bytes Go's {@code json.Marshal} produces
   * @throws IllegalArgumentException if Go could not decode the template
   */
  public static byte[] encode(JsonNode template, GoKubeApiVersion version) {
    GoTypes types = GoTypes.of(version);
    Object value = decode(template, types.root, "template");
    ByteArrayOutputStream out = new ByteArrayOutputStream(1024);
    write(out, value, types.root);
    return out.toByteArray();
  }

  /**
   * Encodes a fabric8 pod template with the {@link #DEFAULT_VERSION} Go types, after serializing it
   * with {@link ModelJson#mapper()}.
   *
   * <p>Prefer the {@link JsonNode} form with the JSON the API server sent: the fabric8 model does
   * not keep every distinction Go makes (an empty list it omits is {@code null} to Go, where the
   * original {@code []} was not).
   *
   * @param template the template, or null for the zero template
   * @return the bytes Go's {@code json.Marshal} produces
   * @throws IllegalArgumentException if Go could not decode the template
   */
  public static byte[] encode(PodTemplateSpec template) {
    return encode(template, DEFAULT_VERSION);
  }

  /**
   * Encodes a fabric8 pod template with the Go types of a given Kubernetes version, after
   * serializing it with {@link ModelJson#mapper()}.
   *
   * @param template the template, or null for the zero template
   * @param version the Go types to follow
   * @return the bytes Go's {@code json.Marshal} produces
   * @throws IllegalArgumentException if Go could not decode the template
   */
  public static byte[] encode(PodTemplateSpec template, GoKubeApiVersion version) {
    return encode(template == null ? null : ModelJson.mapper().valueToTree(template), version);
  }

  /**
   * Computes the pod template hash of a template: {@link PodTemplateHash#hashOf} over {@link
   * #encode(JsonNode, GoKubeApiVersion)}.
   *
   * @param template the {@code spec.template} JSON
   * @param collisionCount {@code status.collisionCount}, or null when unset
   * @param version the Go types to follow
   * @return the {@code rollouts-pod-template-hash} value
   * @throws IllegalArgumentException if Go could not decode the template
   */
  public static String podTemplateHash(
      JsonNode template, Integer collisionCount, GoKubeApiVersion version) {
    return PodTemplateHash.hashOf(encode(template, version), collisionCount);
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Decoding: JSON -> Go value. Go nil is Java null; strings, quantities (their encoded text) and
  // times (their encoded
  // text, "" for the zero time) are Strings; integers BigInteger; IntOrString Integer or String;
  // slices Lists; maps
  // sorted TreeMaps; structs Object[] in field order; FieldsV1 the JsonNode.

  private static boolean absent(JsonNode node) {
    return node == null || node.isNull() || node.isMissingNode();
  }

  private static Object decode(JsonNode node, Type type, String path) {
    if (absent(node)) {
      return zero(type);
    }
    return switch (type.kind) {
      case STRING -> {
        if (!node.isTextual()) {
          throw mismatch(node, type, path);
        }
        yield GoJsonText.goString(node.textValue());
      }
      case BOOL -> {
        if (!node.isBoolean()) {
          throw mismatch(node, type, path);
        }
        yield node.booleanValue();
      }
      case INT8, INT16, INT32, INT64, INT, UINT8, UINT16, UINT32, UINT64, UINT ->
          integer(node, type, path);
      case QUANTITY -> {
        try {
          if (node.isTextual()) {
            // UnmarshalJSON strips the quotes from the raw bytes without unescaping them, so
            // escapes stay in the text.
            yield Quantities.canonical(GoJsonText.escapedContent(node.textValue()));
          }
          if (node.isNumber()) {
            yield Quantities.canonical(GoJsonText.numberText(node));
          }
        } catch (IllegalArgumentException | ArithmeticException e) {
          throw new IllegalArgumentException(path + ": " + e.getMessage(), e);
        }
        throw mismatch(node, type, path);
      }
      case INT_OR_STRING -> {
        if (node.isTextual()) {
          yield GoJsonText.goString(node.textValue());
        }
        if (node.isNumber()) {
          yield ((BigInteger) integer(node, new Type(Kind.INT32, null, null), path)).intValue();
        }
        throw mismatch(node, type, path);
      }
      case TIME -> {
        if (!node.isTextual()) {
          throw mismatch(node, type, path);
        }
        try {
          yield GoTime.encode(GoJsonText.goString(node.textValue()));
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException(path + ": " + e.getMessage(), e);
        }
      }
      case FIELDS_V1 -> node;
      case POINTER -> {
        Object elem = decode(node, type.elem, path);
        // A pointer to the zero time encodes as null, which reads back as nil in the second round.
        // (A time within the first second of year 1 is not zero in the first round, only in the
        // second, so its pointer stays: null.)
        yield type.elem.kind == Kind.TIME
                && ZERO_TIME.equals(elem)
                && GoTime.isExactZero(node.textValue())
            ? null
            : elem;
      }
      case SLICE -> {
        if (!node.isArray()) {
          throw mismatch(node, type, path);
        }
        List<Object> list = new ArrayList<>(node.size());
        for (int i = 0; i < node.size(); i++) {
          list.add(decode(node.get(i), type.elem, path + "[" + i + "]"));
        }
        yield list;
      }
      case MAP -> {
        if (!node.isObject()) {
          throw mismatch(node, type, path);
        }
        Map<String, Object> map = new TreeMap<>(GO_KEY_ORDER);
        Iterator<Map.Entry<String, JsonNode>> it = node.fields();
        while (it.hasNext()) {
          Map.Entry<String, JsonNode> e = it.next();
          String key = GoJsonText.goString(e.getKey());
          map.put(key, decode(e.getValue(), type.elem, path + "[" + key + "]"));
        }
        yield map;
      }
      case STRUCT -> {
        if (!node.isObject()) {
          throw mismatch(node, type, path);
        }
        Struct struct = type.struct;
        Object[] fields = (Object[]) zero(type);
        Iterator<Map.Entry<String, JsonNode>> it = node.fields();
        while (it.hasNext()) {
          Map.Entry<String, JsonNode> e = it.next();
          Integer index = struct.byJsonName().get(e.getKey());
          if (index != null) {
            Field field = struct.fields().get(index);
            fields[index] = decode(e.getValue(), field.type(), path + "." + field.json());
          }
        }
        yield fields;
      }
    };
  }

  private static Object integer(JsonNode node, Type type, String path) {
    if (!node.isNumber()) {
      throw mismatch(node, type, path);
    }
    BigInteger value;
    if (node.isIntegralNumber()) {
      value = node.bigIntegerValue();
    } else {
      BigDecimal decimal = node.decimalValue();
      try {
        value = decimal.toBigIntegerExact();
      } catch (ArithmeticException e) {
        throw new IllegalArgumentException(
            path
                + ": cannot decode number "
                + GoJsonText.numberText(node)
                + " as Go "
                + goName(type),
            e);
      }
    }
    int bits =
        switch (type.kind) {
          case INT8, UINT8 -> 8;
          case INT16, UINT16 -> 16;
          case INT32, UINT32 -> 32;
          default -> 64;
        };
    boolean unsigned = type.kind.name().startsWith("UINT");
    BigInteger min = unsigned ? BigInteger.ZERO : BigInteger.ONE.shiftLeft(bits - 1).negate();
    BigInteger max =
        unsigned
            ? BigInteger.ONE.shiftLeft(bits).subtract(BigInteger.ONE)
            : BigInteger.ONE.shiftLeft(bits - 1).subtract(BigInteger.ONE);
    if (value.compareTo(min) < 0 || value.compareTo(max) > 0) {
      throw new IllegalArgumentException(
          path + ": number " + value + " overflows Go " + goName(type));
    }
    return value;
  }

  private static IllegalArgumentException mismatch(JsonNode node, Type type, String path) {
    String jsonType =
        node.isTextual()
            ? "string"
            : node.isNumber()
                ? "number"
                : node.isBoolean()
                    ? "bool"
                    : node.isArray()
                        ? "array"
                        : node.isObject()
                            ? "object"
                            : node.getNodeType().toString().toLowerCase(Locale.ROOT);
    return new IllegalArgumentException(
        path + ": cannot decode a JSON " + jsonType + " as Go " + goName(type));
  }

  private static String goName(Type type) {
    return switch (type.kind) {
      case POINTER -> "*" + goName(type.elem);
      case SLICE -> "[]" + goName(type.elem);
      case MAP -> "map[string]" + goName(type.elem);
      case STRUCT -> type.structName;
      case QUANTITY -> "resource.Quantity";
      case INT_OR_STRING -> "intstr.IntOrString";
      case TIME -> "metav1.Time";
      case FIELDS_V1 -> "metav1.FieldsV1";
      default -> type.kind.name().toLowerCase(Locale.ROOT);
    };
  }

  private static Object zero(Type type) {
    return switch (type.kind) {
      case STRING -> "";
      case BOOL -> Boolean.FALSE;
      case INT8, INT16, INT32, INT64, INT, UINT8, UINT16, UINT32, UINT64, UINT -> BigInteger.ZERO;
      case QUANTITY -> "0";
      case INT_OR_STRING -> 0;
      case TIME -> ZERO_TIME;
      case FIELDS_V1, POINTER, SLICE, MAP -> null;
      case STRUCT -> {
        List<Field> fields = type.struct.fields();
        Object[] values = new Object[fields.size()];
        for (int i = 0; i < values.length; i++) {
          values[i] = zero(fields.get(i).type());
        }
        yield values;
      }
    };
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Encoding: Go value -> bytes.

  /**
   * Go's isEmptyValue, for omitempty: never true for structs (including the custom struct types).
   */
  private static boolean isEmpty(Object value, Type type) {
    return switch (type.kind) {
      case STRING -> ((String) value).isEmpty();
      case BOOL -> !((Boolean) value);
      case INT8, INT16, INT32, INT64, INT, UINT8, UINT16, UINT32, UINT64, UINT ->
          ((BigInteger) value).signum() == 0;
      case POINTER -> value == null;
      case SLICE -> value == null || ((List<?>) value).isEmpty();
      case MAP -> value == null || ((Map<?, ?>) value).isEmpty();
      case QUANTITY, INT_OR_STRING, TIME, FIELDS_V1, STRUCT -> false;
    };
  }

  /** For omitzero: the type's IsZero method (Time, Quantity) or else the Go zero value. */
  private static boolean isZero(Object value, Type type) {
    return switch (type.kind) {
      case STRING, BOOL, INT8, INT16, INT32, INT64, INT, UINT8, UINT16, UINT32, UINT64, UINT ->
          isEmpty(value, type);
      case POINTER, SLICE, MAP, FIELDS_V1 -> value == null;
      case QUANTITY -> "0".equals(value);
      case INT_OR_STRING -> Integer.valueOf(0).equals(value);
      case TIME -> ZERO_TIME.equals(value);
      case STRUCT -> {
        Object[] values = (Object[]) value;
        List<Field> fields = type.struct.fields();
        for (int i = 0; i < values.length; i++) {
          if (!isZero(values[i], fields.get(i).type())) {
            yield false;
          }
        }
        yield true;
      }
    };
  }

  @SuppressWarnings("unchecked")
  private static void write(ByteArrayOutputStream out, Object value, Type type) {
    switch (type.kind) {
      case STRING -> GoJsonText.writeString(out, (String) value);
      case BOOL -> GoJsonText.writeAscii(out, ((Boolean) value) ? "true" : "false");
      case INT8, INT16, INT32, INT64, INT, UINT8, UINT16, UINT32, UINT64, UINT ->
          GoJsonText.writeAscii(out, value.toString());
      case QUANTITY -> {
        out.write('"');
        GoJsonText.writeAscii(out, (String) value);
        out.write('"');
      }
      case INT_OR_STRING -> {
        if (value instanceof Integer i) {
          GoJsonText.writeAscii(out, i.toString());
        } else {
          GoJsonText.writeString(out, (String) value);
        }
      }
      case TIME -> {
        if (ZERO_TIME.equals(value)) {
          GoJsonText.writeAscii(out, "null");
        } else {
          out.write('"');
          GoJsonText.writeAscii(out, (String) value);
          out.write('"');
        }
      }
      case FIELDS_V1 -> {
        if (value == null) {
          GoJsonText.writeAscii(out, "null");
        } else {
          GoJsonText.writeRaw(out, (JsonNode) value);
        }
      }
      case POINTER -> {
        if (value == null) {
          GoJsonText.writeAscii(out, "null");
        } else {
          write(out, value, type.elem);
        }
      }
      case SLICE -> {
        if (value == null) {
          GoJsonText.writeAscii(out, "null");
        } else {
          out.write('[');
          boolean first = true;
          for (Object elem : (List<Object>) value) {
            if (!first) {
              out.write(',');
            }
            first = false;
            write(out, elem, type.elem);
          }
          out.write(']');
        }
      }
      case MAP -> {
        if (value == null) {
          GoJsonText.writeAscii(out, "null");
        } else {
          out.write('{');
          boolean first = true;
          for (Map.Entry<String, Object> e : ((Map<String, Object>) value).entrySet()) {
            if (!first) {
              out.write(',');
            }
            first = false;
            GoJsonText.writeString(out, e.getKey());
            out.write(':');
            write(out, e.getValue(), type.elem);
          }
          out.write('}');
        }
      }
      case STRUCT -> {
        Object[] values = (Object[]) value;
        List<Field> fields = type.struct.fields();
        out.write('{');
        boolean first = true;
        for (int i = 0; i < values.length; i++) {
          Field field = fields.get(i);
          if ((field.omitEmpty() && isEmpty(values[i], field.type()))
              || (field.omitZero() && isZero(values[i], field.type()))) {
            continue;
          }
          if (!first) {
            out.write(',');
          }
          first = false;
          GoJsonText.writeString(out, field.json());
          out.write(':');
          write(out, values[i], field.type());
        }
        out.write('}');
      }
      default -> throw new IllegalStateException("unexpected kind " + type.kind);
    }
  }
}
