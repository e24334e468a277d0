package io.rollgate.validation;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The pod template validator as it was before its checks stopped allocating on the success path (regular
 * expressions, eager field paths, BigDecimal quantities); {@link PodTemplateValidatorEquivalenceTest} checks the
 * current one against it.
 */
final class PodTemplateValidatorReference {

  /** Longest label value and label/annotation name part (63 characters). */
  public static final int MAX_NAME_LENGTH = 63;
  /** Longest DNS-1123 subdomain, the prefix of a qualified name (253 characters). */
  public static final int MAX_PREFIX_LENGTH = 253;
  /** Largest total size of an object's annotations, keys plus values (256 KiB). */
  public static final int MAX_ANNOTATIONS_BYTES = 256 * 1024;
  /** Longest IANA service name, the form of a port name (15 characters). */
  public static final int MAX_PORT_NAME_LENGTH = 15;

  private static final Set<String> PROTOCOLS = Set.of("TCP", "UDP", "SCTP");
  private static final Set<String> STANDARD_RESOURCES = Set.of("cpu", "memory", "ephemeral-storage", "storage");

  private PodTemplateValidatorReference() {}

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
    validateMetadata(path + ".metadata", template.getMetadata(), errors);
    PodSpec spec = template.getSpec();
    if (spec == null) {
      return;
    }
    Set<String> names = new HashSet<>();
    validateContainers(path + ".spec.initContainers", spec.getInitContainers(), names, errors);
    validateContainers(path + ".spec.containers", spec.getContainers(), names, errors);
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
    validateLabels(path + ".labels", metadata.getLabels(), errors);
    validateAnnotations(path + ".annotations", metadata.getAnnotations(), errors);
  }

  /**
   * Validates labels: each key a qualified name, each value empty or at most 63 characters of alphanumerics,
   * {@code -}, {@code _} and {@code .}, starting and ending with an alphanumeric ("Labels and Selectors").
   *
   * @param path the field path of the map, for example {@code spec.template.metadata.labels}
   * @param labels the labels, or null
   * @param errors where problems are appended
   */
  public static void validateLabels(String path, Map<String, String> labels, List<FieldError> errors) {
    if (labels == null) {
      return;
    }
    for (Map.Entry<String, String> e : labels.entrySet()) {
      qualifiedName(path, e.getKey()).ifPresent(errors::add);
      labelValue(path + "." + e.getKey(), e.getValue()).ifPresent(errors::add);
    }
  }

  /**
   * Validates annotations: each key a qualified name, and keys plus values at most 256 KiB in total.
   *
   * @param path the field path of the map, for example {@code spec.template.metadata.annotations}
   * @param annotations the annotations, or null
   * @param errors where problems are appended
   */
  public static void validateAnnotations(String path, Map<String, String> annotations, List<FieldError> errors) {
    if (annotations == null) {
      return;
    }
    long size = 0;
    for (Map.Entry<String, String> e : annotations.entrySet()) {
      qualifiedName(path, e.getKey()).ifPresent(errors::add);
      size += e.getKey().getBytes(StandardCharsets.UTF_8).length;
      size += e.getValue() == null ? 0 : e.getValue().getBytes(StandardCharsets.UTF_8).length;
    }
    if (size > MAX_ANNOTATIONS_BYTES) {
      errors.add(
          FieldError.invalid(
              path, size + " bytes", "may not be more than " + MAX_ANNOTATIONS_BYTES + " bytes in total"));
    }
  }

  /**
   * Checks a qualified name ({@code [prefix/]name}): the optional prefix a DNS-1123 subdomain of at most 253
   * characters, the name at most 63 characters of alphanumerics, {@code -}, {@code _} and {@code .}, starting and
   * ending with an alphanumeric.
   *
   * @param path the field path reported
   * @param key the name to check
   * @return the problem, or empty when the name is valid
   */
  public static Optional<FieldError> qualifiedName(String path, String key) {
    if (key == null || key.isEmpty()) {
      return Optional.of(FieldError.invalid(path, "", "name part must be non-empty"));
    }
    String name = key;
    int slash = key.indexOf('/');
    if (slash >= 0) {
      String prefix = key.substring(0, slash);
      name = key.substring(slash + 1);
      if (prefix.isEmpty()) {
        return Optional.of(FieldError.invalid(path, key, "prefix part must be non-empty"));
      }
      if (prefix.length() > MAX_PREFIX_LENGTH || !NameRules.isDnsSubdomain(prefix)) {
        return Optional.of(
            FieldError.invalid(
                path,
                key,
                "prefix part must be a DNS-1123 subdomain (lowercase alphanumerics, '-' and '.', at most "
                    + MAX_PREFIX_LENGTH
                    + " characters)"));
      }
    }
    if (name.isEmpty() || name.length() > MAX_NAME_LENGTH || !NameRules.isQualifiedNamePart(name)) {
      return Optional.of(
          FieldError.invalid(
              path,
              key,
              "name part must be at most "
                  + MAX_NAME_LENGTH
                  + " characters of alphanumerics, '-', '_' or '.', and must start and end with an alphanumeric"
                  + " character (an optional DNS subdomain prefix and '/' may precede it)"));
    }
    return Optional.empty();
  }

  private static Optional<FieldError> labelValue(String path, String value) {
    if (value == null || value.isEmpty()) {
      return Optional.empty();
    }
    if (value.length() > MAX_NAME_LENGTH || !NameRules.isQualifiedNamePart(value)) {
      return Optional.of(
          FieldError.invalid(
              path,
              value,
              "a label value must be empty or at most "
                  + MAX_NAME_LENGTH
                  + " characters of alphanumerics, '-', '_' or '.', starting and ending with an alphanumeric"));
    }
    return Optional.empty();
  }

  private static void validateContainers(
      String path, List<Container> containers, Set<String> names, List<FieldError> errors) {
    if (containers == null) {
      return;
    }
    for (int i = 0; i < containers.size(); i++) {
      Container c = containers.get(i);
      String p = path + "[" + i + "]";
      if (c == null) {
        errors.add(FieldError.required(p, "container must not be null"));
        continue;
      }
      if (c.getName() == null || c.getName().isEmpty()) {
        errors.add(FieldError.required(p + ".name", "container name is required"));
      } else if (!NameRules.isDnsLabel(c.getName()) || c.getName().length() > MAX_NAME_LENGTH) {
        errors.add(
            FieldError.invalid(p + ".name", c.getName(), "must be a DNS-1123 label (lowercase alphanumerics and '-')"));
      } else if (!names.add(c.getName())) {
        errors.add(FieldError.invalid(p + ".name", c.getName(), "Duplicate value"));
      }
      if (c.getImage() == null || c.getImage().isBlank()) {
        errors.add(FieldError.required(p + ".image", "container image is required"));
      }
      validatePorts(p + ".ports", c.getPorts(), errors);
      validateResources(p + ".resources", c.getResources(), errors);
    }
  }

  private static void validatePorts(String path, List<ContainerPort> ports, List<FieldError> errors) {
    if (ports == null) {
      return;
    }
    Set<String> names = new HashSet<>();
    for (int j = 0; j < ports.size(); j++) {
      ContainerPort port = ports.get(j);
      String p = path + "[" + j + "]";
      if (port == null) {
        errors.add(FieldError.required(p, "port must not be null"));
        continue;
      }
      String name = port.getName();
      if (name != null && !name.isEmpty()) {
        Optional<String> problem = ianaServiceName(name);
        if (problem.isPresent()) {
          errors.add(FieldError.invalid(p + ".name", name, problem.get()));
        } else if (!names.add(name)) {
          errors.add(FieldError.invalid(p + ".name", name, "Duplicate value"));
        }
      }
      Integer number = port.getContainerPort();
      if (number == null) {
        errors.add(FieldError.required(p + ".containerPort", "container port is required"));
      } else if (number < 1 || number > 65535) {
        errors.add(FieldError.invalid(p + ".containerPort", number, "must be between 1 and 65535, inclusive"));
      }
      Integer host = port.getHostPort();
      if (host != null && (host < 0 || host > 65535)) {
        errors.add(FieldError.invalid(p + ".hostPort", host, "must be between 1 and 65535, inclusive (or 0)"));
      }
      String protocol = port.getProtocol();
      if (protocol != null && !PROTOCOLS.contains(protocol)) {
        errors.add(
            FieldError.invalid(p + ".protocol", protocol, "Unsupported value: supported values: \"SCTP\", \"TCP\", \"UDP\""));
      }
    }
  }

  /**
   * Checks a port name against {@code IANA_SVC_NAME} (RFC 6335): at most 15 characters of lowercase alphanumerics and
   * {@code -}, at least one letter, no {@code -} at either end and no {@code --}.
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

  private static void validateResources(String path, ResourceRequirements resources, List<FieldError> errors) {
    if (resources == null) {
      return;
    }
    Map<String, BigDecimal> limits = quantities(path + ".limits", resources.getLimits(), errors);
    Map<String, BigDecimal> requests = quantities(path + ".requests", resources.getRequests(), errors);
    for (Map.Entry<String, BigDecimal> r : requests.entrySet()) {
      BigDecimal limit = limits.get(r.getKey());
      if (limit != null && r.getValue().compareTo(limit) > 0) {
        errors.add(
            FieldError.invalid(
                path + ".requests." + r.getKey(),
                raw(resources.getRequests().get(r.getKey())),
                "must be less than or equal to " + r.getKey() + " limit of " + raw(resources.getLimits().get(r.getKey()))));
      }
    }
  }

  private static Map<String, BigDecimal> quantities(
      String path, Map<String, Quantity> values, List<FieldError> errors) {
    Map<String, BigDecimal> parsed = new java.util.LinkedHashMap<>();
    if (values == null) {
      return parsed;
    }
    for (Map.Entry<String, Quantity> e : values.entrySet()) {
      String name = e.getKey();
      String p = path + "." + name;
      if (!STANDARD_RESOURCES.contains(name) && !name.startsWith("hugepages-")) {
        Optional<FieldError> bad = qualifiedName(path, name);
        if (bad.isPresent()) {
          errors.add(bad.get());
          continue;
        }
        if (!name.contains("/")) {
          errors.add(
              FieldError.invalid(
                  path,
                  name,
                  "must be a standard resource (cpu, memory, ephemeral-storage, hugepages-<size>) or a"
                      + " domain-prefixed name such as example.com/gpu"));
          continue;
        }
      }
      String text = raw(e.getValue());
      Optional<BigDecimal> value = QuantitiesReference.parse(text);
      if (value.isEmpty()) {
        errors.add(
            FieldError.invalid(
                p, text, "quantities must match the Kubernetes quantity grammar, for example 500m, 2, 1.5Gi or 1e3"));
      } else if (value.get().signum() < 0) {
        errors.add(FieldError.invalid(p, text, "must be greater than or equal to 0"));
      } else {
        parsed.put(name, value.get());
      }
    }
    return parsed;
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
