package io.rollgate.e2e.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.rollgate.api.Rollout;
import io.rollgate.e2e.support.ControllerLog;
import io.rollgate.e2e.support.ControllerProcess;
import io.rollgate.e2e.support.Rollouts;
import io.rollgate.e2e.support.ServiceAccountKubeconfig;
import io.rollgate.e2e.support.TestCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code --namespaced}: with credentials limited to one namespace by a Role (no ClusterRole at
 * all), the controller watches the kubeconfig context's namespace and rolls out there; without the
 * flag the same credentials cannot list cluster-wide and the controller never becomes ready.
 */
class NamespacedE2E {

  static final Duration TIMEOUT = Duration.ofSeconds(90);
  static final String SA = "rollgate-controller";

  static TestCluster cluster;
  static String ns;
  static Rollouts rollouts;
  static Path kubeconfig;

  @BeforeAll
  static void setUp() {
    cluster = TestCluster.get();
    ns = cluster.createNamespace("ops-namespaced");
    rollouts = new Rollouts(cluster.client(), ns);
    var client = cluster.client();
    client
        .serviceAccounts()
        .inNamespace(ns)
        .resource(new ServiceAccountBuilder().withNewMetadata().withName(SA).endMetadata().build())
        .create();
    client
        .rbac()
        .roles()
        .inNamespace(ns)
        .resource(
            new RoleBuilder()
                .withNewMetadata()
                .withName(SA)
                .endMetadata()
                .withRules(controllerRules())
                .build())
        .create();
    client
        .rbac()
        .roleBindings()
        .inNamespace(ns)
        .resource(
            new RoleBindingBuilder()
                .withNewMetadata()
                .withName(SA)
                .endMetadata()
                .withNewRoleRef()
                .withApiGroup("rbac.authorization.k8s.io")
                .withKind("Role")
                .withName(SA)
                .endRoleRef()
                .addNewSubject()
                .withKind("ServiceAccount")
                .withName(SA)
                .withNamespace(ns)
                .endSubject()
                .build())
        .create();
    kubeconfig =
        ServiceAccountKubeconfig.write(
            cluster, ns, SA, Path.of("target", "kubeconfig-" + ns + ".yaml"));
  }

  /**
   * What the controller reads and writes in its namespace for a canary without traffic routing,
   * plus what its analysis and experiment informers need to start (AnalysisRuns, AnalysisTemplates,
   * Experiments; no ClusterAnalysisTemplates, which a Role cannot grant; Jobs and Secrets for the
   * Job provider and Secret arguments).
   */
  static List<PolicyRule> controllerRules() {
    return List.of(
        rule(
            "argoproj.io",
            List.of("rollouts", "rollouts/status"),
            "get",
            "list",
            "watch",
            "update",
            "patch"),
        rule(
            "apps",
            List.of("replicasets"),
            "get",
            "list",
            "watch",
            "create",
            "update",
            "patch",
            "delete"),
        rule("apps", List.of("deployments"), "get", "list", "watch", "update", "patch"),
        rule("", List.of("services"), "get", "list", "watch", "update", "patch"),
        rule("", List.of("pods"), "get", "list", "patch"),
        rule("", List.of("pods/eviction"), "create"),
        rule("", List.of("events"), "create", "patch"),
        rule(
            "argoproj.io",
            List.of("analysisruns"),
            "get",
            "list",
            "watch",
            "update",
            "patch",
            "delete"),
        rule("argoproj.io", List.of("analysistemplates"), "list", "watch"),
        rule(
            "argoproj.io",
            List.of("experiments"),
            "get",
            "list",
            "watch",
            "create",
            "patch",
            "delete"),
        rule("batch", List.of("jobs"), "get", "list", "watch", "create", "delete"),
        rule("", List.of("secrets"), "get"),
        // The plugin registry argo-rollouts-config, read by the controller's plugin host.
        rule("", List.of("configmaps"), "get", "list", "watch"));
  }

  static PolicyRule rule(String group, List<String> resources, String... verbs) {
    return new PolicyRuleBuilder()
        .withApiGroups(group)
        .withResources(resources)
        .withVerbs(verbs)
        .build();
  }

  @AfterAll
  static void tearDown() {
    if (ns != null) {
      cluster.deleteNamespace(ns);
    }
  }

  @Test
  void withOnlyANamespacedRole_theControllerWatchesTheContextNamespaceAndRollsOut() {
    try (ControllerProcess controller =
        ControllerProcess.start(kubeconfig, "ops-namespaced", "--namespaced")) {
      ControllerLog.of(controller).awaitLine(0, ControllerLog.SYNCED, TIMEOUT);
      assertFalse(
          ControllerLog.of(controller).linesContaining(0, "namespace=" + ns).isEmpty(),
          "the start line names the watched namespace");
      rollouts.create(
          "canary/rollout.yaml",
          Map.of(
              "NAME",
              "web",
              "REPLICAS",
              "3",
              "WEIGHT",
              "34",
              "SURGE",
              "1",
              "UNAVAILABLE",
              "0",
              "PAUSE",
              "5s"));
      Rollout healthy =
          rollouts.await(
              "web",
              "web Healthy",
              TIMEOUT,
              r -> r.getStatus() != null && "Healthy".equals(r.getStatus().getPhase()));
      rollouts.setImage("web", "registry.example/app:v2");
      Rollout paused =
          rollouts.await(
              "web",
              "web paused at step 1",
              TIMEOUT,
              r ->
                  r.getStatus() != null
                      && "Paused".equals(r.getStatus().getPhase())
                      && Integer.valueOf(1).equals(r.getStatus().getCurrentStepIndex()));
      assertNotEquals(healthy.getStatus().getStableRS(), paused.getStatus().getCurrentPodHash());
      assertEquals(2, rollouts.replicaSets("web").size(), rollouts.describeReplicaSets("web"));
    }
  }

  @Test
  void withoutTheFlag_theSameCredentialsCannotWatchAllNamespaces() {
    try (ControllerProcess controller =
        ControllerProcess.start(kubeconfig, "ops-namespaced-cluster")) {
      // Missing RBAC is reported at start and the process exits, so the Pod's restarts point at it.
      ControllerLog.of(controller).awaitLine(0, "controller failed to start", TIMEOUT);
      assertFalse(ControllerLog.of(controller).linesContaining(0, "namespace=<all>").isEmpty());
      assertFalse(ControllerLog.of(controller).linesContaining(0, "is forbidden").isEmpty());
      assertEquals(0, ControllerLog.of(controller).linesContaining(0, ControllerLog.SYNCED).size());
      Awaitility.await("the controller exits").atMost(TIMEOUT).until(() -> !controller.isAlive());
    }
  }
}
