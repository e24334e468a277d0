package io.rollgate.controller.rollout.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rollgate.controller.rollout.model.BlueGreenReplicas.OldReplicaSet;
import io.rollgate.controller.rollout.model.BlueGreenReplicas.ScaleDown;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class BlueGreenReplicasTest {

  static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

  static int desired(
      Integer preview,
      String active,
      boolean activeExists,
      String current,
      boolean full,
      boolean paused,
      boolean checkpoint) {
    return BlueGreenReplicas.newReplicaSetReplicas(
        5, preview, active, activeExists, "new", current, full, paused, checkpoint);
  }

  @Test
  void newReplicaSetRunsFullSizeWithoutPreviewReplicaCount() {
    assertEquals(5, desired(null, "old", true, "new", false, true, false));
  }

  @Test
  void previewReplicaCountAppliesOnlyWhileAnotherReplicaSetIsActive() {
    assertEquals(
        5, desired(1, null, false, "new", false, false, false), "first deploy: no active hash");
    assertEquals(
        5, desired(1, "gone", false, "new", false, false, false), "active ReplicaSet missing");
    assertEquals(5, desired(1, "new", true, "new", false, false, false), "already active");
    assertEquals(5, desired(1, "old", true, "new", true, true, false), "promoteFull");
    assertEquals(
        1,
        desired(1, "old", true, "older", false, false, true),
        "brand-new update ignores a stale checkpoint");
    assertEquals(1, desired(1, "old", true, "new", false, false, false), "before the checkpoint");
    assertEquals(1, desired(1, "old", true, "new", false, true, true), "checkpoint but paused");
    assertEquals(
        5, desired(1, "old", true, "new", false, false, true), "checkpoint reached and not paused");
  }

  @Test
  void readyForPauseAndSaturated() {
    assertTrue(BlueGreenReplicas.readyForPause(1, 1, 1));
    assertFalse(BlueGreenReplicas.readyForPause(3, 1, 1));
    assertFalse(BlueGreenReplicas.readyForPause(3, 3, 2));
    assertTrue(BlueGreenReplicas.saturated(3, 3, "3", 3));
    assertFalse(BlueGreenReplicas.saturated(3, 3, "2", 3), "scaled for another spec.replicas");
    assertFalse(BlueGreenReplicas.saturated(3, 3, null, 3));
    assertFalse(BlueGreenReplicas.saturated(3, 3, "3", 2));
  }

  @Test
  void previousActiveGetsADeadlineFirstThenGoesToZeroWhenItPasses() {
    List<ScaleDown> first =
        BlueGreenReplicas.planScaleDown(
            List.of(new OldReplicaSet("v1", 1, 3, null, false)), NOW, 30, Integer.MAX_VALUE);
    assertEquals(
        List.of(new ScaleDown("v1", NOW.plusSeconds(30), 3, Duration.ofSeconds(30))), first);

    List<ScaleDown> waiting =
        BlueGreenReplicas.planScaleDown(
            List.of(new OldReplicaSet("v1", 1, 3, NOW.plusSeconds(10), true)),
            NOW,
            30,
            Integer.MAX_VALUE);
    assertEquals(List.of(new ScaleDown("v1", null, 3, Duration.ofSeconds(10))), waiting);

    List<ScaleDown> due =
        BlueGreenReplicas.planScaleDown(
            List.of(new OldReplicaSet("v1", 1, 3, NOW, true)), NOW, 30, Integer.MAX_VALUE);
    assertEquals(List.of(new ScaleDown("v1", null, 0, null)), due);
  }

  @Test
  void zeroDelayScalesDownAtOnceWithoutDeadline() {
    List<ScaleDown> plan =
        BlueGreenReplicas.planScaleDown(
            List.of(new OldReplicaSet("v1", 1, 3, null, false)), NOW, 0, Integer.MAX_VALUE);
    assertEquals(List.of(new ScaleDown("v1", null, 0, null)), plan);
  }

  @Test
  void revisionLimitKeepsOnlyTheNewestUnderADeadline() {
    List<ScaleDown> plan =
        BlueGreenReplicas.planScaleDown(
            List.of(
                new OldReplicaSet("v1", 1, 3, NOW.plusSeconds(20), true),
                new OldReplicaSet("v3", 3, 3, null, false),
                new OldReplicaSet("v2", 2, 3, NOW.plusSeconds(20), true),
                new OldReplicaSet("v0", 0, 0, null, false)),
            NOW,
            30,
            2);
    assertEquals(3, plan.size(), "ReplicaSets already at 0 are left alone");
    assertEquals(new ScaleDown("v3", NOW.plusSeconds(30), 3, Duration.ofSeconds(30)), plan.get(0));
    assertEquals(new ScaleDown("v2", null, 3, Duration.ofSeconds(20)), plan.get(1));
    assertEquals(new ScaleDown("v1", null, 0, null), plan.get(2));
    assertNull(plan.get(2).annotateDeadline());
  }

  @Test
  void unparsableDeadlineCountsAsDue() {
    List<ScaleDown> plan =
        BlueGreenReplicas.planScaleDown(
            List.of(new OldReplicaSet("v1", 1, 2, null, true)), NOW, 30, Integer.MAX_VALUE);
    assertEquals(0, plan.get(0).replicas());
  }
}
