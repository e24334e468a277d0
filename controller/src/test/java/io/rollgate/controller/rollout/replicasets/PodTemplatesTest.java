package io.rollgate.controller.rollout.replicasets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.rollgate.api.ModelJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PodTemplatesTest {

  private static final YAMLMapper YAML = new YAMLMapper();

  /**
   * A template as written in a Rollout (a custom resource: the API server applies no core/v1
   * defaults).
   */
  private static final String ROLLOUT_TEMPLATE =
      """
      metadata:
        labels: {app: web}
      spec:
        serviceAccountName: web
        containers:
          - name: web
            image: nginx:1.25
            ports:
              - {name: http, containerPort: 80}
            env:
              - {name: MODE, value: canary}
              - name: POD
                valueFrom:
                  fieldRef: {fieldPath: metadata.name}
            resources:
              requests: {cpu: "0.5", memory: 1Gi}
              limits: {cpu: "1", memory: 1Gi}
            readinessProbe:
              httpGet: {path: /healthz, port: http}
            livenessProbe:
              tcpSocket: {port: 80}
              initialDelaySeconds: 5
            volumeMounts:
              - {name: cfg, mountPath: /etc/web}
          - name: sidecar
            image: busybox
        volumes:
          - name: cfg
            configMap: {name: web-cfg}
      """;

  /**
   * The same template as the API server stores it in the ReplicaSet, with every core/v1 default
   * applied.
   */
  private static final String REPLICA_SET_TEMPLATE =
      """
      metadata:
        creationTimestamp: null
        labels: {app: web, rollouts-pod-template-hash: 6f8b9c5d4}
      spec:
        serviceAccountName: web
        serviceAccount: web
        containers:
          - name: web
            image: nginx:1.25
            imagePullPolicy: IfNotPresent
            ports:
              - {name: http, containerPort: 80, protocol: TCP}
            env:
              - {name: MODE, value: canary}
              - name: POD
                valueFrom:
                  fieldRef: {apiVersion: v1, fieldPath: metadata.name}
            resources:
              requests: {cpu: 500m, memory: "1073741824"}
              limits: {cpu: "1", memory: 1Gi}
            readinessProbe:
              httpGet: {path: /healthz, port: http, scheme: HTTP}
              timeoutSeconds: 1
              periodSeconds: 10
              successThreshold: 1
              failureThreshold: 3
            livenessProbe:
              tcpSocket: {port: 80}
              initialDelaySeconds: 5
              timeoutSeconds: 1
              periodSeconds: 10
              successThreshold: 1
              failureThreshold: 3
            volumeMounts:
              - {name: cfg, mountPath: /etc/web}
            terminationMessagePath: /dev/termination-log
            terminationMessagePolicy: File
          - name: sidecar
            image: busybox
            imagePullPolicy: Always
            resources: {}
            terminationMessagePath: /dev/termination-log
            terminationMessagePolicy: File
        restartPolicy: Always
        terminationGracePeriodSeconds: 30
        dnsPolicy: ClusterFirst
        securityContext: {}
        schedulerName: default-scheduler
        volumes:
          - name: cfg
            configMap: {name: web-cfg, defaultMode: 420}
      """;

  @Test
  void equalsTemplateAfterApiServerDefaulting() {
    PodTemplateSpec rollout = template(ROLLOUT_TEMPLATE);
    PodTemplateSpec replicaSet = template(REPLICA_SET_TEMPLATE);
    assertEquals(PodTemplates.normalize(rollout), PodTemplates.normalize(replicaSet));
    assertTrue(PodTemplates.semanticallyEqual(rollout, replicaSet));
    assertTrue(PodTemplates.semanticallyEqual(replicaSet, rollout));
  }

  @Test
  void equalsItself() {
    assertTrue(
        PodTemplates.semanticallyEqual(template(ROLLOUT_TEMPLATE), template(ROLLOUT_TEMPLATE)));
    assertTrue(
        PodTemplates.semanticallyEqual(
            template(REPLICA_SET_TEMPLATE), template(REPLICA_SET_TEMPLATE)));
  }

  @Test
  void ignoresPodTemplateHashLabel() {
    assertTrue(
        PodTemplates.semanticallyEqual(
            template(ROLLOUT_TEMPLATE),
            template(
                ROLLOUT_TEMPLATE.replace(
                    "labels: {app: web}", "labels: {app: web, rollouts-pod-template-hash: x}"))));
    JsonNode labels =
        PodTemplates.normalize(template(REPLICA_SET_TEMPLATE)).path("metadata").path("labels");
    assertFalse(labels.has("rollouts-pod-template-hash"));
    assertEquals("web", labels.path("app").asText());
  }

  @Test
  void dropsDefaultedFields_whenNormalizing() {
    JsonNode spec = PodTemplates.normalize(template(REPLICA_SET_TEMPLATE)).path("spec");
    for (String field :
        new String[] {
          "restartPolicy",
          "dnsPolicy",
          "schedulerName",
          "terminationGracePeriodSeconds",
          "securityContext",
          "serviceAccount"
        }) {
      assertTrue(spec.path(field).isMissingNode(), field);
    }
    JsonNode web = spec.path("containers").path(0);
    for (String field :
        new String[] {"imagePullPolicy", "terminationMessagePath", "terminationMessagePolicy"}) {
      assertTrue(web.path(field).isMissingNode(), field);
    }
    assertTrue(web.path("ports").path(0).path("protocol").isMissingNode());
    assertTrue(web.path("readinessProbe").path("periodSeconds").isMissingNode());
    assertTrue(web.path("readinessProbe").path("httpGet").path("scheme").isMissingNode());
    assertTrue(spec.path("containers").path(1).path("resources").isMissingNode());
    assertTrue(spec.path("volumes").path(0).path("configMap").path("defaultMode").isMissingNode());
  }

  @ParameterizedTest(name = "{0} defaults to {1}")
  @CsvSource({
    "nginx:1.25, IfNotPresent",
    "nginx:latest, Always",
    "nginx, Always",
    "registry.local:5000/team/web, Always",
    "registry.local:5000/team/web:1.0, IfNotPresent",
    "registry.local:5000/team/web:latest, Always",
    "nginx@sha256:0000000000000000000000000000000000000000000000000000000000000000, IfNotPresent",
  })
  void equalsTemplateWithDefaultImagePullPolicy(String image, String policy) {
    PodTemplateSpec plain = template(container(image, null));
    assertTrue(PodTemplates.semanticallyEqual(plain, template(container(image, policy))));
    String other = policy.equals("Always") ? "IfNotPresent" : "Always";
    assertFalse(PodTemplates.semanticallyEqual(plain, template(container(image, other))));
    assertFalse(PodTemplates.semanticallyEqual(plain, template(container(image, "Never"))));
  }

  @Test
  void defaultsPullPolicyToAlways_forLatestTagWithDigest() {
    String image =
        "nginx:latest@sha256:0000000000000000000000000000000000000000000000000000000000000000";
    assertTrue(
        PodTemplates.semanticallyEqual(
            template(container(image, null)), template(container(image, "Always"))));
  }

  @ParameterizedTest(name = "{0} == {1}")
  @CsvSource({
    "cpu, '0.5', 500m",
    "cpu, '1', 1000m",
    "cpu, '2', '2.0'",
    "memory, 1Gi, '1073741824'",
    "memory, 1G, '1000000000'",
    "memory, 512Mi, 0.5Gi",
    "memory, 1k, '1000'",
  })
  void comparesQuantitiesByValue(String resource, String a, String b) {
    assertTrue(
        PodTemplates.semanticallyEqual(
            template(resources(resource, a)), template(resources(resource, b))));
  }

  @ParameterizedTest(name = "{0} != {1}")
  @CsvSource({"cpu, '0.5', 50m", "memory, 1Gi, 1G", "memory, 1Mi, 1M"})
  void differs_whenQuantityValueDiffers(String resource, String a, String b) {
    assertFalse(
        PodTemplates.semanticallyEqual(
            template(resources(resource, a)), template(resources(resource, b))));
  }

  @Test
  void treatsEmptySecurityContextAndResourcesAsAbsent() {
    PodTemplateSpec plain = template(container("nginx:1.25", null));
    PodTemplateSpec empty =
        template(
            """
            spec:
              securityContext: {}
              containers:
                - {name: app, image: "nginx:1.25", resources: {}, securityContext: {}, env: []}
            """);
    assertTrue(PodTemplates.semanticallyEqual(plain, empty));
  }

  @Test
  void differs_whenImageDiffers() {
    assertDiffers(ROLLOUT_TEMPLATE.replace("image: nginx:1.25", "image: nginx:1.26"));
  }

  @Test
  void differs_whenEnvVarDiffers() {
    assertDiffers(ROLLOUT_TEMPLATE.replace("value: canary", "value: stable"));
    assertDiffers(
        ROLLOUT_TEMPLATE.replace(
            "{name: MODE, value: canary}",
            "{name: MODE, value: canary}\n        - {name: EXTRA, value: x}"));
  }

  @Test
  void differs_whenLabelDiffers() {
    assertDiffers(ROLLOUT_TEMPLATE.replace("labels: {app: web}", "labels: {app: web2}"));
    assertDiffers(
        ROLLOUT_TEMPLATE.replace("labels: {app: web}", "labels: {app: web, track: canary}"));
  }

  @Test
  void differs_whenResourceValueDiffers() {
    assertDiffers(
        ROLLOUT_TEMPLATE.replace(
            "limits: {cpu: \"1\", memory: 1Gi}", "limits: {cpu: \"2\", memory: 1Gi}"));
  }

  @Test
  void differs_whenFieldHasNonDefaultValue() {
    assertDiffers(
        ROLLOUT_TEMPLATE.replace(
            "initialDelaySeconds: 5", "initialDelaySeconds: 5\n        periodSeconds: 5"));
    assertDiffers(
        ROLLOUT_TEMPLATE.replace(
            "serviceAccountName: web", "serviceAccountName: web\n  dnsPolicy: Default"));
    assertDiffers(
        ROLLOUT_TEMPLATE.replace(
            "serviceAccountName: web",
            "serviceAccountName: web\n  terminationGracePeriodSeconds: 60"));
  }

  private static void assertDiffers(String changedRolloutTemplate) {
    PodTemplateSpec changed = template(changedRolloutTemplate);
    assertFalse(PodTemplates.semanticallyEqual(changed, template(REPLICA_SET_TEMPLATE)));
    assertFalse(PodTemplates.semanticallyEqual(changed, template(ROLLOUT_TEMPLATE)));
  }

  private static String container(String image, String pullPolicy) {
    return "spec: {containers: [{name: app, image: '"
        + image
        + "'"
        + (pullPolicy == null ? "" : ", imagePullPolicy: " + pullPolicy)
        + "}]}";
  }

  private static String resources(String resource, String quantity) {
    return "spec: {containers: [{name: app, image: 'nginx:1.25', resources: {requests: {"
        + resource
        + ": '"
        + quantity
        + "'}}}]}";
  }

  private static PodTemplateSpec template(String yaml) {
    try {
      return ModelJson.fromJson(YAML.readTree(yaml).toString(), PodTemplateSpec.class);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
