package io.rollgate.controller.rollout.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The Go types of {@code core/v1.PodTemplateSpec} as {@code encoding/json} sees them, loaded from
 * the generated table {@code go-podtemplatespec-<version>.json} next to this class (generator:
 * {@code controller/src/test/go/}).
 *
 * <p>Every version's table is read once, when this class is initialised, into data that does not
 * change afterwards: the reconciler hashes each template with every version, so all of them are
 * needed anyway.
 */
final class GoTypes {

  /**
   * The kinds of Go types that occur in the tables; the last ones before the composites are types
   * with their own JSON (un)marshallers. A table with any other kind (floats, {@code []byte},
   * {@code interface{}}, MicroTime, RawExtension) fails to load.
   */
  enum Kind {
    STRING,
    BOOL,
    INT8,
    INT16,
    INT32,
    INT64,
    INT,
    UINT8,
    UINT16,
    UINT32,
    UINT64,
    UINT,
    QUANTITY,
    INT_OR_STRING,
    TIME,
    FIELDS_V1,
    POINTER,
    SLICE,
    MAP,
    STRUCT
  }

  /**
   * A Go type: its kind, the element type of pointers, slices and maps, the struct of structs.
   * {@link #struct} is set once while the table loads (structs may be named before they are
   * defined) and never changes after.
   */
  static final class Type {
    final Kind kind;
    final Type elem;
    final String structName;
    Struct struct;

    Type(Kind kind, Type elem, String structName) {
      this.kind = kind;
      this.elem = elem;
      this.structName = structName;
    }
  }

  /**
   * A struct field as encoding/json handles it: embedded structs already flattened, in encoding
   * order.
   */
  record Field(String json, boolean omitEmpty, boolean omitZero, Type type) {}

  /** A named Go struct type. */
  record Struct(String name, List<Field> fields, Map<String, Integer> byJsonName) {}

  private static final Map<GoKubeApiVersion, GoTypes> TABLES = loadAll();

  final GoKubeApiVersion version;
  final Type root;

  private GoTypes(GoKubeApiVersion version, Type root) {
    this.version = version;
    this.root = root;
  }

  /**
   * Returns the types of a version.
   *
   * @param version the version
   * @return the types
   */
  static GoTypes of(GoKubeApiVersion version) {
    return TABLES.get(version);
  }

  private static Map<GoKubeApiVersion, GoTypes> loadAll() {
    Map<GoKubeApiVersion, GoTypes> tables = new EnumMap<>(GoKubeApiVersion.class);
    for (GoKubeApiVersion version : GoKubeApiVersion.values()) {
      tables.put(version, load(version));
    }
    return Collections.unmodifiableMap(tables);
  }

  private static GoTypes load(GoKubeApiVersion version) {
    String resource = "go-podtemplatespec-" + version.moduleVersion() + ".json";
    JsonNode table;
    try (InputStream in = GoTypes.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + resource);
      }
      table = new ObjectMapper().readTree(in);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + resource, e);
    }
    if (!version.moduleVersion().equals(table.path("k8sApi").asText())) {
      throw new IllegalStateException(
          resource + " is for k8s.io/api " + table.path("k8sApi").asText());
    }
    Map<String, Struct> structs = new HashMap<>();
    List<Type> structRefs = new ArrayList<>();
    Iterator<Map.Entry<String, JsonNode>> it = table.path("structs").fields();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> entry = it.next();
      List<Field> fields = new ArrayList<>();
      Map<String, Integer> byJsonName = new HashMap<>();
      for (JsonNode f : entry.getValue()) {
        byJsonName.put(f.path("json").asText(), fields.size());
        fields.add(
            new Field(
                f.path("json").asText(),
                f.path("omitempty").asBoolean(false),
                f.path("omitzero").asBoolean(false),
                parseType(f.path("type"), structRefs)));
      }
      structs.put(
          entry.getKey(),
          new Struct(
              entry.getKey(),
              Collections.unmodifiableList(fields),
              Collections.unmodifiableMap(byJsonName)));
    }
    Type root = new Type(Kind.STRUCT, null, table.path("root").asText());
    structRefs.add(root);
    for (Type ref : structRefs) {
      ref.struct = structs.get(ref.structName);
      if (ref.struct == null) {
        throw new IllegalStateException(resource + ": unknown struct " + ref.structName);
      }
    }
    return new GoTypes(version, root);
  }

  private static Type parseType(JsonNode node, List<Type> structRefs) {
    if (node.isTextual()) {
      Kind kind =
          switch (node.asText()) {
            case "string" -> Kind.STRING;
            case "bool" -> Kind.BOOL;
            case "int8" -> Kind.INT8;
            case "int16" -> Kind.INT16;
            case "int32" -> Kind.INT32;
            case "int64" -> Kind.INT64;
            case "int" -> Kind.INT;
            case "uint8" -> Kind.UINT8;
            case "uint16" -> Kind.UINT16;
            case "uint32" -> Kind.UINT32;
            case "uint64" -> Kind.UINT64;
            case "uint" -> Kind.UINT;
            case "Quantity" -> Kind.QUANTITY;
            case "IntOrString" -> Kind.INT_OR_STRING;
            case "Time" -> Kind.TIME;
            case "FieldsV1" -> Kind.FIELDS_V1;
            default ->
                throw new IllegalStateException(
                    "Go type " + node.asText() + " is not supported by GoPodTemplateJson yet");
          };
      return new Type(kind, null, null);
    }
    if (node.has("ptr")) {
      return new Type(Kind.POINTER, parseType(node.get("ptr"), structRefs), null);
    }
    if (node.has("slice")) {
      return new Type(Kind.SLICE, parseType(node.get("slice"), structRefs), null);
    }
    if (node.has("map")) {
      return new Type(Kind.MAP, parseType(node.get("map"), structRefs), null);
    }
    if (node.has("struct")) {
      Type t = new Type(Kind.STRUCT, null, node.get("struct").asText());
      structRefs.add(t);
      return t;
    }
    throw new IllegalStateException("unknown Go type " + node);
  }
}
