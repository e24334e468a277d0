package io.rollgate.validation;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.rollgate.quantity.Quantities;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Checks of a Rollout's pod template that the API server makes for a Pod or a Deployment but not
 * inside our CRD (whose schema only says "string" or "int-or-string"): label and annotation syntax,
 * container names, port names and numbers, and resource quantities. The rules and limits are
 * Kubernetes' own (API conventions, "Object Names and IDs", "Labels and Selectors", {@code
 * resource.Quantity}), so a template that passes here is one the ReplicaSet will accept later; a
 * malformed quantity otherwise fails only when the controller creates the ReplicaSet, or, in
 * controllers that decode it strictly, stalls their watch.
 *
 * <p>Pure: no I/O. Each problem carries the full field path, for example {@code
 * spec.template.spec.containers[0].resources.limits.cpu}.
 */
public final class PodTemplateValidator {

  /** Longest label value and label/annotation name part (63 characters). */
  public static final int MAX_NAME_LENGTH = 63;

  /** Longest DNS-1123 subdomain, the prefix of a qualified name (253 characters). */
  public static final int MAX_PREFIX_LENGTH = 253;

  /** Largest total size of an object's annotations, keys plus values (256 KiB). */
  public static final int MAX_ANNOTATIONS_BYTES = 256 * 1024;

  /** Longest IANA service name, the form of a port name (15 characters). */
  public static final int MAX_PORT_NAME_LENGTH = 15;

  private static final Set<String> PROTOCOLS = Set.of("TCP", "UDP", "SCTP");
  private static final Set<String> STANDARD_RESOURCES =
      Set.of("cpu", "memory", "ephemeral-storage", "storage");

  /** Lists up to this size are searched for duplicate names; longer ones use a hash set. */
  private static final int SCANNED_LIST_SIZE = 16;

  private static final String EMPTY_NAME = "name part must be non-empty";
  private static final String EMPTY_PREFIX = "prefix part must be non-empty";
  private static final String BAD_PREFIX =
      "prefix part must be a DNS-1123 subdomain (lowercase alphanumerics, '-' and '.', at most "
          + MAX_PREFIX_LENGTH
          + " characters)";
  private static final String BAD_NAME =
      "name part must be at most "
          + MAX_NAME_LENGTH
          + " characters of alphanumerics, '-', '_' or '.', and must start and end with an alphanumeric"
          + " character (an optional DNS subdomain prefix and '/' may precede it)";

  private PodTemplateValidator() {}

  /**
   * Validates a pod template.
   *
   * @param path the template's field path, for example {@code spec.template}
   * @param template the template; null is accepted (the caller reports a required template)
   * @param errors where problems are appended, in field order
   */
  public static void validate(String path, PodTemplateSpec template, List<FieldError> errors) {
    if (template == null) {
      return;
    }
    // Field paths are built only for an error: a valid template costs no string.
    ObjectMeta metadata = template.getMetadata();
    if (metadata != null) {
      labels(path, ".metadata.labels", metadata.getLabels(), errors);
      annotations(path, ".metadata.annotations", metadata.getAnnotations(), errors);
    }
    PodSpec spec = template.getSpec();
    if (spec == null) {
      return;
    }
    List<Container> init = spec.getInitContainers();
    List<Container> containers = spec.getContainers();
    int count = (init == null ? 0 : init.size()) + (containers == null ? 0 : containers.size());
    Set<String> names = count > SCANNED_LIST_SIZE ? new HashSet<>() : null;
    validateContainers(path, ".spec.initContainers", init, null, names, errors);
    validateContainers(path, ".spec.containers", containers, init, names, errors);
  }

  /**
   * Validates the labels and annotations of an object's metadata.
   *
   * @param path the metadata's field path, for example {@code spec.template.metadata}
   * @param metadata the metadata, or null
   * @param errors where problems are appended
   */
  public static void validateMetadata(String path, ObjectMeta metadata, List<FieldError> errors) {
    if (metadata == null) {
      return;
    }
    labels(path, ".labels", metadata.getLabels(), errors);
    annotations(path, ".annotations", metadata.getAnnotations(), errors);
  }

  /**
   * Validates labels: each key a qualified name, each value empty or at most 63 characters of
   * alphanumerics, {@code -}, {@code _} and {@code .}, starting and ending with an alphanumeric
   * ("Labels and Selectors").
   *
   * @param path the field path of the map, for example {@code spec.template.metadata.labels}
   * @param labels the labels, or null
   * @param errors where problems are appended
   */
  public static void validateLabels(
      String path, Map<String, String> labels, List<FieldError> errors) {
    labels(path, "", labels, errors);
  }

  /**
   * Validates annotations: each key a qualified name, and keys plus values at most 256 KiB in
   * total.
   *
   * @param path the field path of the map, for example {@code spec.template.metadata.annotations}
   * @param annotations the annotations, or null
   * @param errors where problems are appended
   */
  public static void validateAnnotations(
      String path, Map<String, String> annotations, List<FieldError> errors) {
    annotations(path, "", annotations, errors);
  }

  /** {@link #validateLabels} for the map at {@code path + suffix}. */
  private static void labels(
      String path, String suffix, Map<String, String> labels, List<FieldError> errors) {
    if (labels == null) {
      return;
    }
    for (Map.Entry<String, String> e : labels.entrySet()) {
      String key = e.getKey();
      String problem = qualifiedNameProblem(key);
      if (problem != null) {
        errors.add(FieldError.invalid(path + suffix, key == null ? "" : key, problem));
      }
      String value = e.getValue();
      if (value != null
          && !value.isEmpty()
          && (value.length() > MAX_NAME_LENGTH || !NameRules.isQualifiedNamePart(value))) {
        errors.add(
            FieldError.invalid(
                path + suffix + "." + key,
                value,
                "a label value must be empty or at most "
                    + MAX_NAME_LENGTH
                    + " characters of alphanumerics, '-', '_' or '.', starting and ending with an alphanumeric"));
      }
    }
  }

  /** {@link #validateAnnotations} for the map at {@code path + suffix}. */
  private static void annotations(
      String path, String suffix, Map<String, String> annotations, List<FieldError> errors) {
    if (annotations == null) {
      return;
    }
    long size = 0;
    for (Map.Entry<String, String> e : annotations.entrySet()) {
      String key = e.getKey();
      String problem = qualifiedNameProblem(key);
      if (problem != null) {
        errors.add(FieldError.invalid(path + suffix, key == null ? "" : key, problem));
      }
      size += utf8Length(key);
      size += e.getValue() == null ? 0 : utf8Length(e.getValue());
    }
    if (size > MAX_ANNOTATIONS_BYTES) {
      errors.add(
          FieldError.invalid(
              path + suffix,
              size + " bytes",
              "may not be more than " + MAX_ANNOTATIONS_BYTES + " bytes in total"));
    }
  }

  /**
   * The length of {@code s} in UTF-8, counted without encoding it: what {@code
   * s.getBytes(UTF_8).length} gives, including its one byte ({@code ?}) for a surrogate without its
   * pair.
   *
   * @param s the text
   * @return its UTF-8 length in bytes
   */
  static long utf8Length(String s) {
    int n = s.length();
    long bytes = n;
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        continue;
      }
      if (c < 0x800) {
        bytes += 1;
      } else if (Character.isSurrogate(c)) {
        if (Character.isHighSurrogate(c)
            && i + 1 < n
            && Character.isLowSurrogate(s.charAt(i + 1))) {
          bytes += 2;
          i++;
        }
      } else {
        bytes += 2;
      }
    }
    return bytes;
  }

  /**
   * Checks a qualified name ({@code [prefix/]name}): the optional prefix a DNS-1123 subdomain of at
   * most 253 characters, the name at most 63 characters of alphanumerics, {@code -}, {@code _} and
   * {@code .}, starting and ending with an alphanumeric.
   *
   * @param path the field path reported
   * @param key the name to check
   * @return the problem, or empty when the name is valid
   */
  public static Optional<FieldError> qualifiedName(String path, String key) {
    String problem = qualifiedNameProblem(key);
    return problem == null
        ? Optional.empty()
        : Optional.of(FieldError.invalid(path, key == null ? "" : key, problem));
  }

  /** The reason {@code key} is not a qualified name, or null when it is one. */
  private static String qualifiedNameProblem(String key) {
    if (key == null || key.isEmpty()) {
      return EMPTY_NAME;
    }
    int nameStart = 0;
    int slash = key.indexOf('/');
    if (slash >= 0) {
      if (slash == 0) {
        return EMPTY_PREFIX;
      }
      if (slash > MAX_PREFIX_LENGTH || !NameRules.isDnsSubdomain(key, 0, slash)) {
        return BAD_PREFIX;
      }
      nameStart = slash + 1;
    }
    int nameLength = key.length() - nameStart;
    if (nameLength == 0
        || nameLength > MAX_NAME_LENGTH
        || !NameRules.isQualifiedNamePart(key, nameStart, key.length())) {
      return BAD_NAME;
    }
    return null;
  }

  /**
   * The field path of item {@code i} of the list at {@code path + list}, for example {@code
   * ...containers[0]}.
   */
  private static String item(String path, String list, int i) {
    return path + list + "[" + i + "]";
  }

  /**
   * Checks containers; {@code names}, when not null, collects the valid names seen so far,
   * otherwise duplicates are found by looking back over {@code earlier} (the init containers) and
   * this list.
   */
  private static void validateContainers(
      String path,
      String list,
      List<Container> containers,
      List<Container> earlier,
      Set<String> names,
      List<FieldError> errors) {
    if (containers == null) {
      return;
    }
    for (int i = 0; i < containers.size(); i++) {
      Container c = containers.get(i);
      if (c == null) {
        errors.add(FieldError.required(item(path, list, i), "container must not be null"));
        continue;
      }
      String name = c.getName();
      if (name == null || name.isEmpty()) {
        errors.add(
            FieldError.required(item(path, list, i) + ".name", "container name is required"));
      } else if (!NameRules.isDnsLabel(name) || name.length() > MAX_NAME_LENGTH) {
        errors.add(
            FieldError.invalid(
                item(path, list, i) + ".name",
                name,
                "must be a DNS-1123 label (lowercase alphanumerics and '-')"));
      } else if (names != null ? !names.add(name) : containerNamed(name, earlier, containers, i)) {
        errors.add(FieldError.invalid(item(path, list, i) + ".name", name, "Duplicate value"));
      }
      if (c.getImage() == null || c.getImage().isBlank()) {
        errors.add(
            FieldError.required(item(path, list, i) + ".image", "container image is required"));
      }
      validatePorts(path, list, i, c.getPorts(), errors);
      validateResources(path, list, i, c.getResources(), errors);
    }
  }

  /**
   * Whether a container of {@code earlier}, or one before index {@code end} of {@code containers},
   * is named {@code name} (a valid name, so such a container had a valid name too).
   */
  private static boolean containerNamed(
      String name, List<Container> earlier, List<Container> containers, int end) {
    if (earlier != null) {
      for (Container c : earlier) {
        if (c != null && name.equals(c.getName())) {
          return true;
        }
      }
    }
    for (int k = 0; k < end; k++) {
      Container c = containers.get(k);
      if (c != null && name.equals(c.getName())) {
        return true;
      }
    }
    return false;
  }

  private static void validatePorts(
      String path, String list, int i, List<ContainerPort> ports, List<FieldError> errors) {
    if (ports == null) {
      return;
    }
    Set<String> names = ports.size() > SCANNED_LIST_SIZE ? new HashSet<>() : null;
    for (int j = 0; j < ports.size(); j++) {
      ContainerPort port = ports.get(j);
      if (port == null) {
        errors.add(FieldError.required(port(path, list, i, j), "port must not be null"));
        continue;
      }
      String name = port.getName();
      if (name != null && !name.isEmpty()) {
        Optional<String> problem = ianaServiceName(name);
        if (problem.isPresent()) {
          errors.add(FieldError.invalid(port(path, list, i, j) + ".name", name, problem.get()));
        } else if (names != null ? !names.add(name) : portNamed(name, ports, j)) {
          errors.add(FieldError.invalid(port(path, list, i, j) + ".name", name, "Duplicate value"));
        }
      }
      Integer number = port.getContainerPort();
      if (number == null) {
        errors.add(
            FieldError.required(
                port(path, list, i, j) + ".containerPort", "container port is required"));
      } else if (number < 1 || number > 65535) {
        errors.add(
            FieldError.invalid(
                port(path, list, i, j) + ".containerPort",
                number,
                "must be between 1 and 65535, inclusive"));
      }
      Integer host = port.getHostPort();
      if (host != null && (host < 0 || host > 65535)) {
        errors.add(
            FieldError.invalid(
                port(path, list, i, j) + ".hostPort",
                host,
                "must be between 1 and 65535, inclusive (or 0)"));
      }
      String protocol = port.getProtocol();
      if (protocol != null && !PROTOCOLS.contains(protocol)) {
        errors.add(
            FieldError.invalid(
                port(path, list, i, j) + ".protocol",
                protocol,
                "Unsupported value: supported values: \"SCTP\", \"TCP\", \"UDP\""));
      }
    }
  }

  private static String port(String path, String list, int i, int j) {
    return item(path, list, i) + ".ports[" + j + "]";
  }

  /**
   * Whether a port before index {@code end} is named {@code name} (a valid name, so that port's was
   * valid too).
   */
  private static boolean portNamed(String name, List<ContainerPort> ports, int end) {
    for (int k = 0; k < end; k++) {
      ContainerPort p = ports.get(k);
      if (p != null && name.equals(p.getName())) {
        return true;
      }
    }
    return false;
  }

  /**
   * Checks a port name against {@code IANA_SVC_NAME} (RFC 6335): at most 15 characters of lowercase
   * alphanumerics and {@code -}, at least one letter, no {@code -} at either end and no {@code --}.
   *
   * @param name the port name
   * @return the reason it is invalid, or empty when it is valid
   */
  public static Optional<String> ianaServiceName(String name) {
    if (name.length() > MAX_PORT_NAME_LENGTH) {
      return Optional.of("must be no more than " + MAX_PORT_NAME_LENGTH + " characters");
    }
    if (!NameRules.isDnsLabel(name)) {
      return Optional.of(
          "must contain only lowercase alphanumeric characters or '-' and start and end with an alphanumeric"
              + " (IANA_SVC_NAME)");
    }
    if (name.contains("--")) {
      return Optional.of("must not contain consecutive hyphens (IANA_SVC_NAME)");
    }
    if (!NameRules.hasLowercaseLetter(name)) {
      return Optional.of("must contain at least one letter (IANA_SVC_NAME)");
    }
    return Optional.empty();
  }

  private static void validateResources(
      String path, String list, int i, ResourceRequirements resources, List<FieldError> errors) {
    if (resources == null) {
      return;
    }
    Map<String, Quantity> limits = resources.getLimits();
    Map<String, Quantity> requests = resources.getRequests();
    validateQuantities(path, list, i, ".resources.limits", limits, errors);
    validateQuantities(path, list, i, ".resources.requests", requests, errors);
    if (limits == null || requests == null) {
      return;
    }
    for (Map.Entry<String, Quantity> r : requests.entrySet()) {
      String name = r.getKey();
      Quantity request = r.getValue();
      Quantity limit = limits.get(name);
      if (limit == null || !comparable(name, request) || !comparable(name, limit)) {
        continue;
      }
      if (Quantities.compare(amount(request), format(request), amount(limit), format(limit)) > 0) {
        errors.add(
            FieldError.invalid(
                item(path, list, i) + ".resources.requests." + name,
                raw(request),
                "must be less than or equal to " + name + " limit of " + raw(limit)));
      }
    }
  }

  /**
   * Checks the resource names and quantities of a container's {@code limits} or {@code requests}.
   *
   * @param kind {@code .resources.limits} or {@code .resources.requests}
   */
  private static void validateQuantities(
      String path,
      String list,
      int i,
      String kind,
      Map<String, Quantity> values,
      List<FieldError> errors) {
    if (values == null) {
      return;
    }
    for (Map.Entry<String, Quantity> e : values.entrySet()) {
      String name = e.getKey();
      if (!STANDARD_RESOURCES.contains(name) && !name.startsWith("hugepages-")) {
        String problem = qualifiedNameProblem(name);
        if (problem != null) {
          errors.add(FieldError.invalid(item(path, list, i) + kind, name, problem));
          continue;
        }
        if (!name.contains("/")) {
          errors.add(
              FieldError.invalid(
                  item(path, list, i) + kind,
                  name,
                  "must be a standard resource (cpu, memory, ephemeral-storage, hugepages-<size>) or a"
                      + " domain-prefixed name such as example.com/gpu"));
          continue;
        }
      }
      Quantity q = e.getValue();
      int sign = Quantities.check(amount(q), format(q));
      if (sign == Quantities.NOT_A_QUANTITY) {
        errors.add(
            FieldError.invalid(
                item(path, list, i) + kind + "." + name,
                raw(q),
                "quantities must match the Kubernetes quantity grammar, for example 500m, 2, 1.5Gi or 1e3"));
      } else if (sign < 0) {
        errors.add(
            FieldError.invalid(
                item(path, list, i) + kind + "." + name,
                raw(q),
                "must be greater than or equal to 0"));
      }
    }
  }

  /**
   * Whether a request and a limit of this resource are compared: the name is accepted and the
   * quantity is valid and not negative (otherwise {@link #validateQuantities} reported it).
   */
  private static boolean comparable(String name, Quantity q) {
    boolean nameAccepted =
        STANDARD_RESOURCES.contains(name)
            || name.startsWith("hugepages-")
            || (qualifiedNameProblem(name) == null && name.contains("/"));
    return nameAccepted && Quantities.check(amount(q), format(q)) >= 0;
  }

  private static String amount(Quantity q) {
    return q == null || q.getAmount() == null ? "" : q.getAmount();
  }

  private static String format(Quantity q) {
    return q == null || q.getFormat() == null ? "" : q.getFormat();
  }

  private static String raw(Quantity q) {
    if (q == null) {
      return "";
    }
    String amount = q.getAmount() == null ? "" : q.getAmount();
    String format = q.getFormat() == null ? "" : q.getFormat();
    return amount + format;
  }
}
