package io.rollgate.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PodTemplateValidatorTest {

  private static final YAMLMapper YAML = new YAMLMapper();

  private static List<String> errors(String yaml) throws Exception {
    PodTemplateSpec t = YAML.readValue(yaml, PodTemplateSpec.class);
    List<FieldError> errors = new ArrayList<>();
    PodTemplateValidator.validate("spec.template", t, errors);
    return errors.stream().map(FieldError::toString).toList();
  }

  private static String container(String extra) {
    return "spec: {containers: [{name: web, image: nginx"
        + (extra.isEmpty() ? "" : ", " + extra)
        + "}]}";
  }

  @Test
  void acceptsAGoodTemplate() throws Exception {
    assertEquals(
        List.of(),
        errors(
            """
            metadata:
              labels: {app: web, app.kubernetes.io/name: web, empty: ""}
              annotations: {example.com/owner: team-a, note: "any text at all"}
            spec:
              initContainers: [{name: init, image: busybox}]
              containers:
                - name: web
                  image: nginx
                  ports: [{name: http, containerPort: 8080}, {name: metrics-9, containerPort: 9090, protocol: UDP}]
                  resources:
                    limits: {cpu: "1", memory: 1Gi, example.com/gpu: "1", hugepages-2Mi: 2Mi}
                    requests: {cpu: 250m, memory: 512Mi}
            """));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "resources: {limits: {cpu: 1.5.5}}|spec.template.spec.containers[0].resources.limits.cpu: Invalid value: \"1.5.5\": quantities must match the Kubernetes quantity grammar, for example 500m, 2, 1.5Gi or 1e3",
        "resources: {requests: {memory: 1GB}}|spec.template.spec.containers[0].resources.requests.memory: Invalid value: \"1GB\": quantities must match the Kubernetes quantity grammar, for example 500m, 2, 1.5Gi or 1e3",
        "resources: {requests: {cpu: '-1'}}|spec.template.spec.containers[0].resources.requests.cpu: Invalid value: \"-1\": must be greater than or equal to 0",
        "resources: {requests: {cpu: '2'}, limits: {cpu: '1'}}|spec.template.spec.containers[0].resources.requests.cpu: Invalid value: \"2\": must be less than or equal to cpu limit of 1",
        "resources: {limits: {gpu: '1'}}|spec.template.spec.containers[0].resources.limits: Invalid value: \"gpu\": must be a standard resource (cpu, memory, ephemeral-storage, hugepages-<size>) or a domain-prefixed name such as example.com/gpu",
        "ports: [{name: HTTP, containerPort: 80}]|spec.template.spec.containers[0].ports[0].name: Invalid value: \"HTTP\": must contain only lowercase alphanumeric characters or '-' and start and end with an alphanumeric (IANA_SVC_NAME)",
        "ports: [{name: a-very-long-port-name, containerPort: 80}]|spec.template.spec.containers[0].ports[0].name: Invalid value: \"a-very-long-port-name\": must be no more than 15 characters",
        "ports: [{name: '8080', containerPort: 80}]|spec.template.spec.containers[0].ports[0].name: Invalid value: \"8080\": must contain at least one letter (IANA_SVC_NAME)",
        "ports: [{name: a--b, containerPort: 80}]|spec.template.spec.containers[0].ports[0].name: Invalid value: \"a--b\": must not contain consecutive hyphens (IANA_SVC_NAME)",
        "ports: [{name: http, containerPort: 80}, {name: http, containerPort: 81}]|spec.template.spec.containers[0].ports[1].name: Invalid value: \"http\": Duplicate value",
        "ports: [{containerPort: 0}]|spec.template.spec.containers[0].ports[0].containerPort: Invalid value: 0: must be between 1 and 65535, inclusive",
        "ports: [{containerPort: 80, protocol: HTTP}]|spec.template.spec.containers[0].ports[0].protocol: Invalid value: \"HTTP\": Unsupported value: supported values: \"SCTP\", \"TCP\", \"UDP\"",
      })
  void reportsContainerProblemsWithTheFieldPath(String extra, String expected) throws Exception {
    assertEquals(List.of(expected), errors(container(extra)));
  }

  @Test
  void containerNamesAreUniqueAcrossInitAndAppContainers() throws Exception {
    assertEquals(
        List.of("spec.template.spec.containers[0].name: Invalid value: \"web\": Duplicate value"),
        errors(
            "spec: {initContainers: [{name: web, image: a}], containers: [{name: web, image: b}]}"));
    assertEquals(
        List.of(
            "spec.template.spec.initContainers[0].name: Invalid value: \"Init_1\": must be a DNS-1123 label"
                + " (lowercase alphanumerics and '-')"),
        errors(
            "spec: {initContainers: [{name: Init_1, image: a}], containers: [{name: web, image: b}]}"));
  }

  @Test
  void reportsLabelAndAnnotationSyntax() throws Exception {
    List<String> e =
        errors(
            """
            metadata:
              labels: {"bad key": x, "Example.com/a": b, "app": "-bad-", "ok/": v}
              annotations: {"/x": y, "a/b/c": z}
            spec: {containers: [{name: web, image: nginx}]}
            """);
    assertEquals(6, e.size(), String.valueOf(e));
    assertTrue(
        e.get(0)
            .startsWith(
                "spec.template.metadata.labels: Invalid value: \"bad key\": name part must"),
        e.get(0));
    assertTrue(
        e.get(1)
            .startsWith(
                "spec.template.metadata.labels: Invalid value: \"Example.com/a\": prefix part"),
        e.get(1));
    assertTrue(
        e.get(2)
            .startsWith(
                "spec.template.metadata.labels.app: Invalid value: \"-bad-\": a label value"),
        e.get(2));
    assertTrue(
        e.get(3).startsWith("spec.template.metadata.labels: Invalid value: \"ok/\": name part"),
        e.get(3));
    assertTrue(
        e.get(4)
            .startsWith(
                "spec.template.metadata.annotations: Invalid value: \"/x\": prefix part must be non-empty"),
        e.get(4));
    assertTrue(
        e.get(5)
            .startsWith("spec.template.metadata.annotations: Invalid value: \"a/b/c\": name part"),
        e.get(5));
  }

  @Test
  void limitsTheTotalSizeOfAnnotations() throws Exception {
    String big = "x".repeat(PodTemplateValidator.MAX_ANNOTATIONS_BYTES);
    List<String> e =
        errors(
            "metadata: {annotations: {a: "
                + big
                + "}}\nspec: {containers: [{name: web, image: n}]}");
    assertEquals(1, e.size());
    assertTrue(e.get(0).contains("may not be more than 262144 bytes in total"), e.get(0));
  }
}
