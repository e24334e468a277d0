package io.rollgate.controller.rollout.model;

import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.rollgate.api.ModelJson;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Remembers the pod-template hashes of recently seen templates, so a reconcile pass does not
 * re-encode an unchanged template as Go JSON for every {@link GoKubeApiVersion}.
 *
 * <p>The hash is a pure function of the template's JSON and {@code status.collisionCount} ({@link
 * GoPodTemplateJson#podTemplateHash}); the memo is keyed by exactly those two, the template
 * serialized with {@link ModelJson#mapper()}, so any change to the template or the collision count
 * is a different key and is hashed afresh. Rollouts with the same template share an entry. At most
 * {@code capacity} entries are kept, the least recently used dropped first. Thread-safe.
 */
public final class TemplateHashMemo {

  private record Key(String templateJson, Integer collisionCount) {}

  private final int capacity;
  private final Map<Key, Map<GoKubeApiVersion, String>> entries;

  /**
   * Creates an empty memo.
   *
   * @param capacity the most templates remembered, at least 1
   * @throws IllegalArgumentException if {@code capacity} is below 1
   */
  public TemplateHashMemo(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be at least 1, was " + capacity);
    }
    this.capacity = capacity;
    this.entries =
        new LinkedHashMap<>(16, 0.75f, true) {
          private static final long serialVersionUID = 1L;

          @Override
          protected boolean removeEldestEntry(Map.Entry<Key, Map<GoKubeApiVersion, String>> e) {
            return size() > TemplateHashMemo.this.capacity;
          }
        };
  }

  /**
   * Returns the {@code rollouts-pod-template-hash} of a template for every {@link
   * GoKubeApiVersion}, equal to {@link GoPodTemplateJson#podTemplateHash} of the template's JSON
   * tree.
   *
   * @param template the Rollout's {@code spec.template}, or null for the zero template (not
   *     remembered)
   * @param collisionCount {@code status.collisionCount}, or null when unset
   * @return the hash per version, unmodifiable
   * @throws IllegalArgumentException if Go could not decode the template
   */
  public Map<GoKubeApiVersion, String> hashes(PodTemplateSpec template, Integer collisionCount) {
    if (template == null) {
      return compute(template, collisionCount);
    }
    Key key = new Key(ModelJson.toJson(template), collisionCount);
    Map<GoKubeApiVersion, String> known;
    synchronized (entries) {
      known = entries.get(key);
    }
    if (known != null) {
      return known;
    }
    Map<GoKubeApiVersion, String> computed = compute(template, collisionCount);
    synchronized (entries) {
      entries.put(key, computed);
    }
    return computed;
  }

  /**
   * The number of templates remembered.
   *
   * @return the entry count, at most the capacity
   */
  public int size() {
    synchronized (entries) {
      return entries.size();
    }
  }

  private static Map<GoKubeApiVersion, String> compute(
      PodTemplateSpec template, Integer collisionCount) {
    var tree = template == null ? null : ModelJson.toTree(template);
    Map<GoKubeApiVersion, String> out = new EnumMap<>(GoKubeApiVersion.class);
    for (GoKubeApiVersion v : GoKubeApiVersion.values()) {
      out.put(
          v, Objects.requireNonNull(GoPodTemplateJson.podTemplateHash(tree, collisionCount, v)));
    }
    return Collections.unmodifiableMap(out);
  }
}
