package io.rollgate.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The pod template checks report exactly the errors, in the same order, that the previous implementation reported. */
class PodTemplateValidatorEquivalenceTest {

  private static final String[] KEYS = {"app", "tier", "app.kubernetes.io/name", "example.com/team", "Example.com/x",
    "/x", "a/", "a/b/c", "-bad", "bad-", "ok_key.v1", "", "x".repeat(64), "x".repeat(63), "a".repeat(254) + "/n",
    "a".repeat(253) + "/n", "a..b/c", "é", "helm.sh/chart"};
  private static final String[] VALUES = {"web", "", "v1.2.3", "-v", "v-", "x".repeat(64), "x".repeat(63), "a b", null,
    "A_b.C", "é"};
  private static final String[] CONTAINER_NAMES = {"web", "sidecar", "init", "Web", "-x", "", null, "a".repeat(64),
    "a".repeat(63), "web"};
  private static final String[] PORT_NAMES = {"http", "metrics", "http", "grpc-web", "a--b", "-http", "HTTP", "123",
    "abcdefghijklmnop", "abcdefghijklmno", "", null, "h"};
  private static final Integer[] PORTS = {80, 8080, 0, -1, 65535, 65536, null};
  private static final Integer[] HOST_PORTS = {null, null, 0, -1, 80, 65536};
  private static final String[] PROTOCOLS = {null, "TCP", "UDP", "SCTP", "tcp", "HTTP"};
  private static final String[] RESOURCES = {"cpu", "memory", "ephemeral-storage", "storage", "hugepages-2Mi",
    "example.com/gpu", "gpu", "Bad/x", "nvidia.com/gpu", "-x/y"};
  private static final String[] QUANTITIES = {"1", "100m", "500m", "0.5", "2", "128Mi", "1Gi", "1.5Gi", "256M", "1e3",
    "1E-3", "-1", "-0", "0", "1x", "", "1Ei", "1E", "1.", ".5", "0.0001", "9999999999999999999", "3k", "1000m",
    "2000000000Pi", "abc"};

  @Test
  void reportsWhatThePreviousImplementationReportedForRandomTemplates() {
    Random random = new Random(23);
    for (int i = 0; i < 20_000; i++) {
      PodTemplateSpec template = template(random);
      List<FieldError> expected = new ArrayList<>();
      PodTemplateValidatorReference.validate("spec.template", template, expected);
      List<FieldError> actual = new ArrayList<>();
      PodTemplateValidator.validate("spec.template", template, actual);
      assertEquals(expected, actual, () -> template.toString());
      List<FieldError> expectedMeta = new ArrayList<>();
      PodTemplateValidatorReference.validateMetadata("spec.strategy.canary.canaryMetadata", template.getMetadata(),
          expectedMeta);
      List<FieldError> actualMeta = new ArrayList<>();
      PodTemplateValidator.validateMetadata("spec.strategy.canary.canaryMetadata", template.getMetadata(), actualMeta);
      assertEquals(expectedMeta, actualMeta);
    }
  }

  @Test
  void countsAnnotationBytesAsUtf8() {
    Random random = new Random(29);
    String alphabet = "aé€\ud83d\ude00\ud800\udc00\ud800x\udc00";
    for (int i = 0; i < 20_000; i++) {
      Map<String, String> annotations = new LinkedHashMap<>();
      int n = random.nextInt(3);
      for (int k = 0; k < n; k++) {
        annotations.put("a" + k, text(random, alphabet, random.nextInt(40) == 0 ? 90_000 : 8));
      }
      List<FieldError> expected = new ArrayList<>();
      PodTemplateValidatorReference.validateAnnotations("a", annotations, expected);
      List<FieldError> actual = new ArrayList<>();
      PodTemplateValidator.validateAnnotations("a", annotations, actual);
      assertEquals(expected, actual);
    }
  }

  @Test
  void utf8LengthIsThatOfTheEncodedBytes() {
    Random random = new Random(31);
    String alphabet = "a\u007f\u0080\u07ff\u0800\uffff\ud83d\ude00\ud800\udbff\udc00\udfff\u00e9";
    for (int i = 0; i < 200_000; i++) {
      String s = text(random, alphabet, random.nextInt(6));
      assertEquals(s.getBytes(java.nio.charset.StandardCharsets.UTF_8).length, PodTemplateValidator.utf8Length(s), s);
    }
  }

  private static PodTemplateSpec template(Random random) {
    PodTemplateSpec t = new PodTemplateSpec();
    if (random.nextInt(10) != 0) {
      ObjectMeta meta = new ObjectMeta();
      meta.setLabels(random.nextInt(5) == 0 ? null : map(random, KEYS, VALUES));
      meta.setAnnotations(random.nextInt(3) == 0 ? null : map(random, KEYS, VALUES));
      t.setMetadata(meta);
    }
    if (random.nextInt(10) == 0) {
      return t;
    }
    PodSpec spec = new PodSpec();
    spec.setInitContainers(random.nextInt(3) == 0 ? containers(random) : null);
    spec.setContainers(random.nextInt(10) == 0 ? null : containers(random));
    t.setSpec(spec);
    return t;
  }

  private static List<Container> containers(Random random) {
    List<Container> list = new ArrayList<>();
    int n = random.nextInt(4);
    for (int i = 0; i < n; i++) {
      if (random.nextInt(15) == 0) {
        list.add(null);
        continue;
      }
      Container c = new Container();
      c.setName(pick(random, CONTAINER_NAMES));
      c.setImage(random.nextInt(8) == 0 ? (random.nextBoolean() ? null : " ") : "nginx");
      if (random.nextInt(3) != 0) {
        List<ContainerPort> ports = new ArrayList<>();
        int m = random.nextInt(random.nextInt(6) == 0 ? 14 : 4);
        for (int j = 0; j < m; j++) {
          if (random.nextInt(15) == 0) {
            ports.add(null);
            continue;
          }
          ContainerPort port = new ContainerPort();
          port.setName(pick(random, PORT_NAMES));
          port.setContainerPort(pick(random, PORTS));
          port.setHostPort(pick(random, HOST_PORTS));
          port.setProtocol(pick(random, PROTOCOLS));
          ports.add(port);
        }
        c.setPorts(ports);
      }
      if (random.nextInt(4) != 0) {
        ResourceRequirements r = new ResourceRequirements();
        r.setLimits(random.nextInt(4) == 0 ? null : quantities(random));
        r.setRequests(random.nextInt(4) == 0 ? null : quantities(random));
        c.setResources(r);
      }
      list.add(c);
    }
    return list;
  }

  private static Map<String, Quantity> quantities(Random random) {
    Map<String, Quantity> map = new LinkedHashMap<>();
    int n = random.nextInt(4);
    for (int i = 0; i < n; i++) {
      String text = pick(random, QUANTITIES);
      int cut = random.nextInt(text.length() + 1);
      Quantity q = new Quantity();
      q.setAmount(random.nextInt(20) == 0 ? null : text.substring(0, cut));
      q.setFormat(random.nextInt(20) == 0 ? null : text.substring(cut));
      map.put(pick(random, RESOURCES), random.nextInt(25) == 0 ? null : q);
    }
    return map;
  }

  private static Map<String, String> map(Random random, String[] keys, String[] values) {
    Map<String, String> map = new LinkedHashMap<>();
    int n = random.nextInt(5);
    for (int i = 0; i < n; i++) {
      map.put(pick(random, keys), pick(random, values));
    }
    return map;
  }

  private static <T> T pick(Random random, T[] values) {
    return values[random.nextInt(values.length)];
  }

  private static String text(Random random, String alphabet, int n) {
    StringBuilder b = new StringBuilder();
    for (int k = 0; k < n; k++) {
      b.append(alphabet.charAt(random.nextInt(alphabet.length())));
    }
    return b.toString();
  }
}
