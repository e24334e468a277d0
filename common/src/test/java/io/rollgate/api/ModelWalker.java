package io.rollgate.api;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Walks a parsed Rollout reflectively and records where unknown JSON properties ended up and which
 * model fields hold a value. Used to prove that the "full" fixtures exercise every modelled field
 * and that none of their fields is silently swallowed by an any-setter because of a misspelt
 * {@code @JsonProperty}.
 */
final class ModelWalker {

  private static final String MODEL_PACKAGE = "io.rollgate.api";
  private static final String FABRIC8_MODEL_PACKAGE = "io.fabric8.kubernetes.api.model";

  /** JSON-ish path of an object holding unknown properties, to those properties. */
  final Map<String, Map<?, ?>> unknown = new TreeMap<>();

  /** {@code Class.field} of every model field that held a non-null value. */
  final Set<String> setFields = new TreeSet<>();

  static ModelWalker walk(Rollout rollout) {
    return walk(
        rollout.getAdditionalProperties(),
        rollout.getMetadata(),
        rollout.getSpec(),
        rollout.getStatus());
  }

  /**
   * Walks any custom resource given its unknown top-level properties, metadata, spec and status.
   */
  static ModelWalker walk(
      Map<String, Object> topLevelUnknown, Object metadata, Object spec, Object status) {
    ModelWalker walker = new ModelWalker();
    walker.recordUnknown("", topLevelUnknown);
    walker.visit("metadata", metadata);
    walker.visit("spec", spec);
    walker.visit("status", status);
    return walker;
  }

  /**
   * Every {@code Class.field} of the model classes reachable from {@code RolloutSpec} and {@code
   * RolloutStatus}.
   */
  static Set<String> allModelFields() {
    return allModelFields(RolloutSpec.class, RolloutStatus.class);
  }

  /** Every {@code Class.field} of the model classes reachable from the given roots. */
  static Set<String> allModelFields(Class<?>... roots) {
    Set<String> fields = new TreeSet<>();
    Set<Class<?>> seen = new HashSet<>();
    Deque<Class<?>> todo = new ArrayDeque<>(List.of(roots));
    while (!todo.isEmpty()) {
      Class<?> type = todo.pop();
      if (!seen.add(type)) {
        continue;
      }
      for (Class<?> c = type; isModelClass(c); c = c.getSuperclass()) {
        for (Field field : c.getDeclaredFields()) {
          if (Modifier.isStatic(field.getModifiers())
              || field.getName().equals("additionalProperties")) {
            continue;
          }
          fields.add(c.getSimpleName() + "." + field.getName());
          Set<Class<?>> referenced = new HashSet<>();
          collectClasses(field.getGenericType(), referenced);
          referenced.stream().filter(ModelWalker::isModelClass).forEach(todo::push);
        }
      }
    }
    return fields;
  }

  private static boolean isModelClass(Class<?> c) {
    return c != null && c != ModelObject.class && c.getPackageName().equals(MODEL_PACKAGE);
  }

  private static void collectClasses(Type type, Set<Class<?>> out) {
    if (type instanceof Class<?> c) {
      out.add(c);
    } else if (type instanceof ParameterizedType p) {
      collectClasses(p.getRawType(), out);
      for (Type argument : p.getActualTypeArguments()) {
        collectClasses(argument, out);
      }
    }
  }

  private void visit(String path, Object value) {
    if (value == null) {
      return;
    }
    if (value instanceof List<?> list) {
      for (int i = 0; i < list.size(); i++) {
        visit(path + "[" + i + "]", list.get(i));
      }
      return;
    }
    if (value instanceof Map<?, ?> map) {
      map.forEach((key, item) -> visit(path + "." + key, item));
      return;
    }
    String pkg = value.getClass().getPackageName();
    boolean model = pkg.equals(MODEL_PACKAGE);
    if (!model && !pkg.startsWith(FABRIC8_MODEL_PACKAGE)) {
      return; // strings, numbers, booleans, JsonNode
    }
    for (Class<?> c = value.getClass(); c != null && c != Object.class; c = c.getSuperclass()) {
      for (Field field : c.getDeclaredFields()) {
        if (Modifier.isStatic(field.getModifiers())) {
          continue;
        }
        Object fieldValue = read(field, value);
        if (field.getName().equals("additionalProperties")) {
          recordUnknown(path, (Map<?, ?>) fieldValue);
          continue;
        }
        if (model && fieldValue != null) {
          setFields.add(c.getSimpleName() + "." + field.getName());
        }
        visit(path + "." + field.getName(), fieldValue);
      }
    }
  }

  private void recordUnknown(String path, Map<?, ?> properties) {
    if (properties != null && !properties.isEmpty()) {
      unknown.put(path.isEmpty() ? "<root>" : path, properties);
    }
  }

  private static Object read(Field field, Object target) {
    try {
      field.setAccessible(true);
      return field.get(target);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("cannot read " + field, e);
    }
  }
}
