package io.rollgate.controller.rollout.replicasets;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.rollgate.api.Labels;
import java.math.BigDecimal;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Semantic comparison of pod templates, used to find the ReplicaSet of a Rollout's current template
 * when its hash label does not match ours (for example a ReplicaSet created by Argo Rollouts, which
 * hashes Go's JSON encoding).
 *
 * <p>The API server applies core/v1 defaults to a ReplicaSet's template but not to the Rollout's (a
 * custom resource), so both sides are normalised first: the {@code rollouts-pod-template-hash}
 * label and deprecated {@code serviceAccount} are ignored, an injected anti-affinity term ({@code
 * rollouts-pod-template-hash In [...]}) is ignored, fields equal to their Kubernetes default are
 * dropped, quantities compare by value ({@code 0.5} equals {@code 500m}) and empty objects and
 * lists count as absent.
 */
public final class PodTemplates {

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final List<String> CONTAINER_LISTS =
      List.of("containers", "initContainers", "ephemeralContainers");
  private static final List<String> PROBES =
      List.of("livenessProbe", "readinessProbe", "startupProbe");

  private PodTemplates() {}

  /**
   * Tells whether two templates describe the same pods.
   *
   * @param a one template
   * @param b the other
   * @return true when equal after normalisation
   */
  public static boolean semanticallyEqual(PodTemplateSpec a, PodTemplateSpec b) {
    return normalize(a).equals(normalize(b));
  }

  /**
   * Returns the normalised JSON tree of a template.
   *
   * @param template the template, may be null
   * @return the normalised tree
   */
  static JsonNode normalize(PodTemplateSpec template) {
    ObjectNode root = template == null ? MAPPER.createObjectNode() : MAPPER.valueToTree(template);
    ObjectNode metadata = obj(root, "metadata");
    if (metadata != null) {
      metadata.remove("creationTimestamp");
      ObjectNode labels = obj(metadata, "labels");
      if (labels != null) {
        labels.remove(Labels.POD_TEMPLATE_HASH);
      }
    }
    ObjectNode spec = obj(root, "spec");
    if (spec != null) {
      spec.remove("serviceAccount");
      InjectedAntiAffinity.strip(spec);
      dropIf(spec, "restartPolicy", "Always");
      dropIf(spec, "dnsPolicy", "ClusterFirst");
      dropIf(spec, "schedulerName", "default-scheduler");
      dropIfInt(spec, "terminationGracePeriodSeconds", 30);
      for (String list : CONTAINER_LISTS) {
        ArrayNode containers = arr(spec, list);
        if (containers != null) {
          containers.forEach(c -> normalizeContainer((ObjectNode) c));
        }
      }
      ArrayNode volumes = arr(spec, "volumes");
      if (volumes != null) {
        for (JsonNode v : volumes) {
          for (String kind : List.of("configMap", "secret", "downwardAPI", "projected")) {
            ObjectNode src = obj((ObjectNode) v, kind);
            if (src != null) {
              dropIfInt(src, "defaultMode", 420);
            }
          }
        }
      }
    }
    prune(root);
    return root;
  }

  private static void normalizeContainer(ObjectNode c) {
    dropIf(c, "terminationMessagePath", "/dev/termination-log");
    dropIf(c, "terminationMessagePolicy", "File");
    JsonNode image = c.get("image");
    if (image != null && image.isTextual()) {
      dropIf(c, "imagePullPolicy", defaultPullPolicy(image.asText()));
    }
    ArrayNode ports = arr(c, "ports");
    if (ports != null) {
      ports.forEach(p -> dropIf((ObjectNode) p, "protocol", "TCP"));
    }
    ObjectNode resources = obj(c, "resources");
    if (resources != null) {
      for (String kind : List.of("limits", "requests")) {
        ObjectNode q = obj(resources, kind);
        if (q != null) {
          for (Iterator<Map.Entry<String, JsonNode>> it = q.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            e.setValue(MAPPER.getNodeFactory().numberNode(quantity(e.getValue())));
          }
        }
      }
    }
    for (String probe : PROBES) {
      ObjectNode p = obj(c, probe);
      if (p != null) {
        dropIfInt(p, "timeoutSeconds", 1);
        dropIfInt(p, "periodSeconds", 10);
        dropIfInt(p, "successThreshold", 1);
        dropIfInt(p, "failureThreshold", 3);
        ObjectNode http = obj(p, "httpGet");
        if (http != null) {
          dropIf(http, "scheme", "HTTP");
        }
      }
    }
    ArrayNode env = arr(c, "env");
    if (env != null) {
      for (JsonNode e : env) {
        ObjectNode from = obj((ObjectNode) e, "valueFrom");
        ObjectNode field = from == null ? null : obj(from, "fieldRef");
        if (field != null) {
          dropIf(field, "apiVersion", "v1");
        }
      }
    }
  }

  /**
   * Kubernetes' imagePullPolicy default: Always for {@code :latest} or an untagged image, else
   * IfNotPresent.
   */
  private static String defaultPullPolicy(String image) {
    String ref = image;
    int at = ref.indexOf('@');
    if (at >= 0) {
      // A digest pins the image; only an explicit :latest tag still defaults to Always.
      String named = ref.substring(0, at);
      return named.endsWith(":latest") && named.lastIndexOf(':') > named.lastIndexOf('/')
          ? "Always"
          : "IfNotPresent";
    }
    int slash = ref.lastIndexOf('/');
    int colon = ref.lastIndexOf(':');
    if (colon <= slash || ref.endsWith(":latest")) {
      return "Always";
    }
    return "IfNotPresent";
  }

  private static BigDecimal quantity(JsonNode node) {
    try {
      return new Quantity(node.asText()).getNumericalAmount().stripTrailingZeros();
    } catch (RuntimeException e) {
      return BigDecimal.valueOf(node.asText().hashCode());
    }
  }

  /** Removes nulls, empty objects and empty arrays, recursively. */
  private static boolean prune(JsonNode node) {
    if (node instanceof ObjectNode o) {
      for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext(); ) {
        if (prune(it.next().getValue())) {
          it.remove();
        }
      }
      return o.isEmpty();
    }
    if (node instanceof ArrayNode a) {
      for (JsonNode child : a) {
        prune(child);
      }
      return a.isEmpty();
    }
    return node == null || node.isNull();
  }

  private static void dropIf(ObjectNode o, String field, String value) {
    JsonNode v = o.get(field);
    if (v != null && v.isTextual() && v.asText().equals(value)) {
      o.remove(field);
    }
  }

  private static void dropIfInt(ObjectNode o, String field, int value) {
    JsonNode v = o.get(field);
    if (v != null && v.isNumber() && v.asLong() == value) {
      o.remove(field);
    }
  }

  private static ObjectNode obj(ObjectNode parent, String field) {
    JsonNode n = parent.get(field);
    return n instanceof ObjectNode o ? o : null;
  }

  private static ArrayNode arr(ObjectNode parent, String field) {
    JsonNode n = parent.get(field);
    return n instanceof ArrayNode a ? a : null;
  }
}
