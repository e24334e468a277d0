package io.rollgate.e2e.gc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.rollgate.api.Rollout;
import io.rollgate.e2e.support.ControllerProcess;
import io.rollgate.e2e.support.Rollouts;
import io.rollgate.e2e.support.TestCluster;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * Deleting a Rollout removes its ReplicaSets and their pods through ownerReferences and the garbage
 * collector of kube-controller-manager: nothing labelled with the app is left behind.
 */
@ExtendWith(GarbageCollectionE2E.FailureTracker.class)
class GarbageCollectionE2E {

  static final Duration TIMEOUT = Duration.ofSeconds(90);

  static TestCluster cluster;
  static String ns;
  static Rollouts rollouts;
  static ControllerProcess controller;
  static boolean failed;

  @BeforeAll
  static void setUp() {
    cluster = TestCluster.get();
    ns = cluster.createNamespace("gc");
    rollouts = new Rollouts(cluster.client(), ns);
    controller = ControllerProcess.start(cluster, "gc", "--namespace", ns);
  }

  @AfterAll
  static void tearDown() {
    if (controller != null) {
      controller.close();
    }
    if (!failed && ns != null) {
      cluster.deleteNamespace(ns);
    }
  }

  @Test
  void deletingARolloutMidUpdateLeavesNoReplicaSetsOrPods() {
    String name = "doomed";
    KubernetesClient client = cluster.client();
    rollouts.create("gc/rollout.yaml", Map.of("NAME", name));
    rollouts.await(
        name,
        "Healthy",
        TIMEOUT,
        r -> r.getStatus() != null && "Healthy".equals(r.getStatus().getPhase()));
    rollouts.setImage(name, "registry.example/app:v2");
    Rollout paused =
        rollouts.await(
            name,
            "paused mid-update with two ReplicaSets holding pods",
            TIMEOUT,
            r ->
                r.getStatus() != null
                    && "Paused".equals(r.getStatus().getPhase())
                    && rollouts.availableReplicas(name, r.getStatus().getCurrentPodHash()) > 0);
    List<ReplicaSet> rss = rollouts.replicaSets(name);
    assertEquals(2, rss.size());
    for (ReplicaSet rs : rss) {
      var owner = rs.getMetadata().getOwnerReferences().get(0);
      assertEquals(paused.getMetadata().getUid(), owner.getUid());
      assertEquals(Boolean.TRUE, owner.getController());
      assertEquals(Boolean.TRUE, owner.getBlockOwnerDeletion());
    }
    assertFalse(pods(client, name).isEmpty(), "pods exist before the deletion");

    client.resources(Rollout.class).inNamespace(ns).withName(name).delete();

    Awaitility.await("ReplicaSets and pods of " + name + " garbage-collected")
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(500))
        .until(
            () ->
                rollouts.get(name) == null
                    && client
                        .apps()
                        .replicaSets()
                        .inNamespace(ns)
                        .withLabel("app", name)
                        .list()
                        .getItems()
                        .isEmpty()
                    && pods(client, name).isEmpty());
    assertTrue(
        client.apps().replicaSets().inNamespace(ns).list().getItems().isEmpty(),
        "no orphaned ReplicaSets");
  }

  private List<?> pods(KubernetesClient client, String name) {
    return client.pods().inNamespace(ns).withLabel("app", name).list().getItems();
  }

  /** Keeps the namespace of a failed class for inspection. */
  static final class FailureTracker implements TestWatcher {
    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
      failed = true;
    }
  }
}
