package io.rollgate.e2e.events;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.rollgate.api.Rollout;
import io.rollgate.e2e.support.ControllerProcess;
import io.rollgate.e2e.support.Rollouts;
import io.rollgate.e2e.support.TestCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The sequence of Events a Rollout gets, as a watcher of Events sees them arrive (notification
 * tools and the {@code kubectl argo rollouts} plugin read them that way): the same reasons in the
 * same order as Argo Rollouts records them, each one there by the time the status shows the state
 * it announces.
 */
class RolloutEventsE2E {

  static final Duration TIMEOUT = Duration.ofSeconds(90);

  static TestCluster cluster;
  static String ns;
  static Rollouts rollouts;
  static ControllerProcess controller;

  @BeforeAll
  static void setUp() {
    cluster = TestCluster.get();
    ns = cluster.createNamespace("events");
    rollouts = new Rollouts(cluster.client(), ns);
    controller = ControllerProcess.start(cluster, "events", "--namespace", ns);
  }

  @AfterAll
  static void tearDown() {
    if (controller != null) {
      controller.close();
    }
    if (ns != null) {
      cluster.deleteNamespace(ns);
    }
  }

  /**
   * Every watch event (ADDED or MODIFIED) on an Event of the named Rollout, in arrival order, as
   * reasons.
   */
  static final class EventWatch implements AutoCloseable {
    private final List<Event> seen = new CopyOnWriteArrayList<>();
    private final Watch watch;

    EventWatch() {
      watch =
          cluster
              .client()
              .v1()
              .events()
              .inNamespace(ns)
              .watch(
                  new Watcher<Event>() {
                    @Override
                    public void eventReceived(Action action, Event event) {
                      if (action == Action.ADDED || action == Action.MODIFIED) {
                        seen.add(event);
                      }
                    }

                    @Override
                    public void onClose(WatcherException cause) {}
                  });
    }

    List<String> reasons(Rollout rollout) {
      List<String> out = new ArrayList<>();
      for (Event e : seen) {
        if (e.getInvolvedObject() != null
            && rollout.getMetadata().getUid().equals(e.getInvolvedObject().getUid())) {
          out.add(e.getReason());
        }
      }
      return out;
    }

    @Override
    public void close() {
      watch.close();
    }
  }

  static Rollout awaitPhase(String name, String phase) {
    return rollouts.await(
        name,
        name + " " + phase,
        TIMEOUT,
        r ->
            r.getStatus() != null
                && phase.equals(r.getStatus().getPhase())
                && String.valueOf(r.getMetadata().getGeneration())
                    .equals(r.getStatus().getObservedGeneration()));
  }

  @Test
  void canaryAbortRetryAndPromotionRecordArgosReasonsInOrder() {
    try (EventWatch watch = new EventWatch()) {
      rollouts.create("events/canary.yaml", Map.of("NAME", "canary"));
      awaitPhase("canary", "Healthy");
      rollouts.setImage("canary", "registry.example/app:v2");
      awaitPhase("canary", "Paused");
      rollouts.abort("canary");
      awaitPhase("canary", "Degraded");
      rollouts.retry("canary");
      awaitPhase("canary", "Paused");
      Rollout healthy = awaitPhase("canary", "Healthy");

      assertEquals(
          List.of(
              "RolloutAddedToInformer",
              "RolloutUpdated",
              "NewReplicaSetCreated",
              "RolloutNotCompleted",
              "ScalingReplicaSet",
              "RolloutCompleted",
              "RolloutUpdated",
              "NewReplicaSetCreated",
              "RolloutNotCompleted",
              "ScalingReplicaSet",
              "RolloutStepCompleted",
              "RolloutPaused",
              "ScalingReplicaSet",
              "RolloutAborted",
              "ScalingReplicaSet",
              "RolloutStepCompleted",
              "RolloutPaused",
              "RolloutStepCompleted",
              "RolloutResumed",
              "ScalingReplicaSet",
              "RolloutCompleted"),
          watch.reasons(healthy));
    }
  }

  @Test
  void blueGreenUpdateRecordsArgosReasonsInOrder() {
    cluster
        .client()
        .services()
        .inNamespace(ns)
        .resource(
            new ServiceBuilder()
                .withNewMetadata()
                .withName("bluegreen")
                .endMetadata()
                .withNewSpec()
                .addToSelector("app", "bluegreen")
                .addNewPort()
                .withPort(80)
                .endPort()
                .endSpec()
                .build())
        .create();
    try (EventWatch watch = new EventWatch()) {
      rollouts.create("events/bluegreen.yaml", Map.of("NAME", "bluegreen"));
      awaitPhase("bluegreen", "Healthy");
      rollouts.setImage("bluegreen", "registry.example/app:v2");
      rollouts.await(
          "bluegreen",
          "revision 2 active",
          TIMEOUT,
          r ->
              r.getStatus() != null
                  && r.getStatus().getBlueGreen() != null
                  && r.getStatus().getCurrentPodHash() != null
                  && r.getStatus()
                      .getCurrentPodHash()
                      .equals(r.getStatus().getBlueGreen().getActiveSelector()));
      Rollout healthy = awaitPhase("bluegreen", "Healthy");

      // Read as soon as the phase is Healthy: the completion event must already be there.
      assertEquals(
          List.of(
              "RolloutAddedToInformer",
              "RolloutUpdated",
              "NewReplicaSetCreated",
              "ScalingReplicaSet",
              "RolloutCompleted",
              "SwitchService",
              "RolloutUpdated",
              "NewReplicaSetCreated",
              "RolloutNotCompleted",
              "ScalingReplicaSet",
              "SwitchService",
              "RolloutCompleted"),
          watch.reasons(healthy));
    }
  }
}
