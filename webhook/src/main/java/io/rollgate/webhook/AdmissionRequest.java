package io.rollgate.webhook;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The parts of an {@code admission.k8s.io/v1} AdmissionReview request the webhook looks at.
 *
 * <p>The object and the old object are kept as their byte ranges in the request body: a decision
 * that binds them to the model ({@link #readObject}) parses them once, straight into the model,
 * without a {@link JsonNode} tree first; a decision that needs the tree ({@link #object()}) gets it
 * built on first use. One request is decided on one thread.
 */
public final class AdmissionRequest {

  private final String uid;
  private final String group;
  private final String version;
  private final String kind;
  private final String subResource;
  private final String operation;
  private final String namespace;
  private final String name;
  private final Payload object;
  private final Payload oldObject;

  /**
   * A JSON value of the request, as its byte range in the request body or as a tree; null stands
   * for absent or JSON {@code null}.
   */
  static final class Payload {
    private final byte[] body;
    private final int offset;
    private final int length;
    private JsonNode tree;

    private Payload(byte[] body, int offset, int length, JsonNode tree) {
      this.body = body;
      this.offset = offset;
      this.length = length;
      this.tree = tree;
    }

    /**
     * A JSON object held as {@code length} bytes of {@code body} from {@code offset}, already
     * checked as JSON.
     */
    static Payload ofBytes(byte[] body, int offset, int length) {
      return new Payload(body, offset, length, null);
    }

    static Payload ofTree(JsonNode tree) {
      return tree == null || tree.isNull() || tree.isMissingNode()
          ? null
          : new Payload(null, 0, 0, tree);
    }

    boolean isObject() {
      return body != null || tree.isObject();
    }

    JsonNode tree() {
      if (tree == null) {
        try (JsonParser p = AdmissionReviews.mapper().createParser(body, offset, length)) {
          p.nextToken();
          tree = AdmissionReviews.readValue(p);
        } catch (IOException e) {
          throw new UncheckedIOException(
              "an object already checked as JSON cannot be read back", e);
        }
      }
      return tree;
    }

    <T> T read(ObjectMapper mapper, Class<T> type) throws IOException {
      if (tree != null) {
        return mapper.treeToValue(tree, type);
      }
      // The model's own mapper reads the bytes: deserializers that read a sub-tree through the
      // parser's codec (fabric8's Quantity) get the model's configuration.
      return mapper.readValue(body, offset, length, type);
    }
  }

  /**
   * Creates a request whose objects are JSON trees (tests, warm-up).
   *
   * @param uid the request uid, echoed in the response
   * @param group the API group of the object's kind ({@code argoproj.io}), empty for the core group
   * @param version the version of the object's kind ({@code v1alpha1})
   * @param kind the object's kind ({@code Rollout})
   * @param subResource the subresource ({@code status}), empty for the main resource
   * @param operation {@code CREATE}, {@code UPDATE}, {@code DELETE} or {@code CONNECT}
   * @param namespace the namespace, empty for cluster-scoped objects
   * @param name the object's name, empty when the API server generates it
   * @param object the new object, or null (DELETE)
   * @param oldObject the stored object an UPDATE replaces, or null
   */
  public AdmissionRequest(
      String uid,
      String group,
      String version,
      String kind,
      String subResource,
      String operation,
      String namespace,
      String name,
      JsonNode object,
      JsonNode oldObject) {
    this(
        uid,
        group,
        version,
        kind,
        subResource,
        operation,
        namespace,
        name,
        Payload.ofTree(object),
        Payload.ofTree(oldObject));
  }

  AdmissionRequest(
      String uid,
      String group,
      String version,
      String kind,
      String subResource,
      String operation,
      String namespace,
      String name,
      Payload object,
      Payload oldObject) {
    this.uid = uid;
    this.group = group;
    this.version = version;
    this.kind = kind;
    this.subResource = subResource;
    this.operation = operation;
    this.namespace = namespace;
    this.name = name;
    this.object = object;
    this.oldObject = oldObject;
  }

  /**
   * The request uid, echoed in the response.
   *
   * @return the uid
   */
  public String uid() {
    return uid;
  }

  /**
   * The API group of the object's kind.
   *
   * @return for example {@code argoproj.io}; empty for the core group
   */
  public String group() {
    return group;
  }

  /**
   * The version of the object's kind.
   *
   * @return for example {@code v1alpha1}
   */
  public String version() {
    return version;
  }

  /**
   * The object's kind.
   *
   * @return for example {@code Rollout}
   */
  public String kind() {
    return kind;
  }

  /**
   * The subresource.
   *
   * @return for example {@code status}; empty for the main resource
   */
  public String subResource() {
    return subResource;
  }

  /**
   * The operation.
   *
   * @return {@code CREATE}, {@code UPDATE}, {@code DELETE} or {@code CONNECT}
   */
  public String operation() {
    return operation;
  }

  /**
   * The namespace.
   *
   * @return the namespace; empty for cluster-scoped objects
   */
  public String namespace() {
    return namespace;
  }

  /**
   * The object's name.
   *
   * @return the name; empty when the API server generates it
   */
  public String name() {
    return name;
  }

  /**
   * The new object as a JSON tree, built on first call.
   *
   * @return the tree, or null when absent (DELETE)
   */
  public JsonNode object() {
    return object == null ? null : object.tree();
  }

  /**
   * The stored object an UPDATE replaces, as a JSON tree built on first call.
   *
   * @return the tree, or null when absent
   */
  public JsonNode oldObject() {
    return oldObject == null ? null : oldObject.tree();
  }

  /**
   * Whether the request carries a new object that is a JSON object (not absent, null, a string or a
   * list).
   *
   * @return true when {@link #readObject} can be tried
   */
  public boolean hasJsonObject() {
    return object != null && object.isObject();
  }

  /**
   * Binds the new object to a model type, straight from its tokens when no tree was built.
   *
   * @param mapper the mapper whose configuration binds the model ({@code ModelJson.mapper()})
   * @param type the model type
   * @param <T> the model type
   * @return the model
   * @throws IOException when the object does not fit the type
   * @throws IllegalStateException when there is no object ({@link #hasJsonObject()} is false)
   */
  public <T> T readObject(ObjectMapper mapper, Class<T> type) throws IOException {
    if (object == null) {
      throw new IllegalStateException("the request has no object");
    }
    return object.read(mapper, type);
  }

  /**
   * Binds the old object to a model type.
   *
   * @param mapper the mapper whose configuration binds the model
   * @param type the model type
   * @param <T> the model type
   * @return the model, or null when there is no old object
   * @throws IOException when the old object does not fit the type
   */
  public <T> T readOldObject(ObjectMapper mapper, Class<T> type) throws IOException {
    return oldObject == null ? null : oldObject.read(mapper, type);
  }

  /**
   * Whether the request is about an {@code argoproj.io} Rollout (any version).
   *
   * @return true for Rollouts
   */
  public boolean isRollout() {
    return "argoproj.io".equals(group) && "Rollout".equals(kind);
  }

  /**
   * Whether the request creates or updates the main resource (not a subresource such as {@code
   * status}).
   *
   * @return true for CREATE or UPDATE of the object itself
   */
  public boolean isMainResourceWrite() {
    return subResource.isEmpty() && ("CREATE".equals(operation) || "UPDATE".equals(operation));
  }
}
