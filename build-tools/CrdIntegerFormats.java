import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Build step (run with {@code java -classpath <common's classpath>
 * build-tools/CrdIntegerFormats.java <crd.yml>=<model class>...} after the fabric8 CRD generator
 * and {@code CrdArgoSchema}): gives every integer property of a generated CRD schema the OpenAPI
 * {@code format} of the Java type it is read into, {@code int32} for {@code Integer}/{@code int}
 * and {@code int64} for {@code Long}/{@code long}, as Argo Rollouts' CRDs declare {@code format:
 * int32} / {@code format: int64} on every integer (Go {@code int32} / {@code int64}); the pod
 * template's types come from the Kubernetes model, whose Java types follow the Kubernetes OpenAPI
 * formats. Kubernetes' own clients and schema-driven tools read the format (docs/compatibility.md,
 * CRDs).
 *
 * <p>The schema is walked together with the model class: a property is looked up by its JSON name
 * among the class's Jackson properties, arrays and lists descend into {@code items}, maps into
 * {@code additionalProperties}. An integer property whose Java type is neither fails the build, as
 * does a file in which no integer was found, so the formats cannot silently drift from the model.
 * The YAML is rewritten in the generator's own layout (the first comment line is kept).
 */
public final class CrdIntegerFormats {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final YAMLMapper YAML =
      YAMLMapper.builder()
          .disable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
          .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
          .build();

  private final List<String> errors = new ArrayList<>();
  private int edits;

  private CrdIntegerFormats() {}

  /**
   * Edits each file in place.
   *
   * @param args {@code <path of a generated CRD YAML file>=<fully qualified name of its custom
   *     resource class>}
   * @throws IOException if a file cannot be read or written
   * @throws ClassNotFoundException if a model class is not on the class path
   * @throws IllegalStateException if an integer property has no Java integer type, or a file has no
   *     integer
   */
  public static void main(String[] args) throws IOException, ClassNotFoundException {
    for (String arg : args) {
      int eq = arg.lastIndexOf('=');
      Path file = Path.of(arg.substring(0, eq));
      Class<?> root = Class.forName(arg.substring(eq + 1));
      String text = Files.readString(file, StandardCharsets.UTF_8);
      String header = text.startsWith("#") ? text.substring(0, text.indexOf('\n') + 1) : "";
      JsonNode crd = YAML.readTree(text);
      CrdIntegerFormats walk = new CrdIntegerFormats();
      for (JsonNode version : crd.path("spec").path("versions")) {
        JsonNode schema = version.path("schema").path("openAPIV3Schema");
        if (schema.isObject()) {
          walk.visit((ObjectNode) schema, JSON.constructType(root), "");
        }
      }
      if (!walk.errors.isEmpty()) {
        throw new IllegalStateException(file + ": " + String.join("; ", walk.errors));
      }
      if (walk.edits == 0) {
        throw new IllegalStateException(file + ": no integer property found");
      }
      Files.writeString(file, header + YAML.writeValueAsString(crd), StandardCharsets.UTF_8);
    }
  }

  private void visit(ObjectNode schema, JavaType type, String path) {
    if ("integer".equals(schema.path("type").asText()) && !schema.has("format")) {
      Class<?> raw = type.getRawClass();
      String format =
          raw == Integer.class || raw == int.class
              ? "int32"
              : raw == Long.class || raw == long.class ? "int64" : null;
      if (format == null) {
        errors.add(path + " is an integer in the schema but " + raw.getName() + " in the model");
        return;
      }
      insertFormat(schema, format);
      edits++;
      return;
    }
    if (type.isArrayType() || type.isCollectionLikeType()) {
      if (schema.path("items").isObject()) {
        visit((ObjectNode) schema.get("items"), type.getContentType(), path + "[]");
      }
      return;
    }
    if (type.isMapLikeType()) {
      if (schema.path("additionalProperties").isObject()) {
        visit((ObjectNode) schema.get("additionalProperties"), type.getContentType(), path + "{}");
      }
      return;
    }
    JsonNode properties = schema.path("properties");
    if (!properties.isObject()
        || type.isPrimitive()
        || type.getRawClass().getName().startsWith("java.")) {
      return;
    }
    BeanDescription bean = JSON.getSerializationConfig().introspect(type);
    Iterator<Map.Entry<String, JsonNode>> fields = properties.properties().iterator();
    while (fields.hasNext()) {
      Map.Entry<String, JsonNode> field = fields.next();
      String name = field.getKey();
      BeanPropertyDefinition property =
          bean.findProperties().stream()
              .filter(p -> p.getName().equals(name))
              .findFirst()
              .orElse(null);
      if (property == null) {
        if (containsInteger(field.getValue())) {
          errors.add(
              path
                  + "."
                  + name
                  + " has integers in the schema but no property in "
                  + type.getRawClass());
        }
        continue;
      }
      if (field.getValue().isObject()) {
        visit((ObjectNode) field.getValue(), property.getPrimaryType(), path + "." + name);
      }
    }
  }

  private static boolean containsInteger(JsonNode node) {
    if ("integer".equals(node.path("type").asText()) && !node.has("format")) {
      return true;
    }
    Iterator<Map.Entry<String, JsonNode>> fields = node.properties().iterator();
    while (fields.hasNext()) {
      Map.Entry<String, JsonNode> field = fields.next();
      if (!field.getKey().equals("anyOf")
          && field.getValue().isContainerNode()
          && containsInteger(field.getValue())) {
        return true;
      }
    }
    for (JsonNode item : node.isArray() ? node : JSON.createArrayNode()) {
      if (containsInteger(item)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Puts {@code format} in the generator's key order (alphabetical: after description/default,
   * before type).
   */
  private static void insertFormat(ObjectNode schema, String format) {
    ObjectNode copy = schema.deepCopy();
    schema.removeAll();
    boolean done = false;
    Iterator<Map.Entry<String, JsonNode>> fields = copy.properties().iterator();
    while (fields.hasNext()) {
      Map.Entry<String, JsonNode> field = fields.next();
      if (!done && field.getKey().compareTo("format") > 0) {
        schema.put("format", format);
        done = true;
      }
      schema.set(field.getKey(), field.getValue());
    }
    if (!done) {
      schema.put("format", format);
    }
  }
}
