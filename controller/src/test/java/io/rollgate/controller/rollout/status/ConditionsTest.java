package io.rollgate.controller.rollout.status;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rollgate.api.ConditionReason;
import io.rollgate.api.ConditionType;
import io.rollgate.api.RolloutCondition;
import io.rollgate.api.RolloutStatus;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConditionsTest {

  private static final String T0 = "2024-05-01T10:00:00Z";
  private static final String T1 = "2024-05-01T10:05:00Z";
  private static final String T2 = "2024-05-01T10:10:00Z";

  @Test
  void addsCondition_whenTypeIsAbsent() {
    RolloutStatus s = new RolloutStatus();
    assertTrue(
        set(
            s,
            "True",
            ConditionReason.NEW_REPLICA_SET_CREATED,
            "Created new replica set \"web-1\"",
            T0));
    RolloutCondition c = Conditions.get(s, ConditionType.PROGRESSING);
    assertEquals("True", c.getStatus());
    assertEquals(ConditionReason.NEW_REPLICA_SET_CREATED, c.getReason());
    assertEquals("Created new replica set \"web-1\"", c.getMessage());
    assertEquals(T0, c.getLastUpdateTime());
    assertEquals(T0, c.getLastTransitionTime());
  }

  @Test
  void isNoOp_whenTypeStatusAndReasonAreUnchanged() {
    RolloutStatus s = new RolloutStatus();
    set(s, "True", ConditionReason.REPLICA_SET_UPDATED, "ReplicaSet \"web-1\" is progressing.", T0);
    RolloutCondition before = Conditions.get(s, ConditionType.PROGRESSING);

    assertFalse(set(s, "True", ConditionReason.REPLICA_SET_UPDATED, "a different message", T1));

    RolloutCondition after = Conditions.get(s, ConditionType.PROGRESSING);
    assertEquals("ReplicaSet \"web-1\" is progressing.", after.getMessage());
    assertEquals(T0, after.getLastUpdateTime());
    assertEquals(T0, after.getLastTransitionTime());
    assertEquals(before, after);
  }

  @Test
  void keepsLastTransitionTime_whenOnlyReasonChanges() {
    RolloutStatus s = new RolloutStatus();
    set(s, "True", ConditionReason.REPLICA_SET_UPDATED, "progressing", T0);

    String available = "ReplicaSet \"web-1\" has successfully progressed.";
    assertTrue(set(s, "True", ConditionReason.NEW_REPLICA_SET_AVAILABLE, available, T1));

    RolloutCondition c = Conditions.get(s, ConditionType.PROGRESSING);
    assertEquals(ConditionReason.NEW_REPLICA_SET_AVAILABLE, c.getReason());
    assertEquals(available, c.getMessage());
    assertEquals(T1, c.getLastUpdateTime());
    assertEquals(T0, c.getLastTransitionTime());
  }

  @Test
  void movesLastTransitionTime_whenStatusChanges() {
    RolloutStatus s = new RolloutStatus();
    set(s, "True", ConditionReason.REPLICA_SET_UPDATED, "progressing", T0);

    assertTrue(
        set(
            s,
            "False",
            ConditionReason.ROLLOUT_ABORTED,
            "Rollout aborted update to revision 2",
            T1));

    RolloutCondition c = Conditions.get(s, ConditionType.PROGRESSING);
    assertEquals("False", c.getStatus());
    assertEquals(T1, c.getLastUpdateTime());
    assertEquals(T1, c.getLastTransitionTime());
  }

  @Test
  void replacesOnlyTheConditionOfTheSameType() {
    RolloutStatus s = new RolloutStatus();
    Conditions.set(s, ConditionType.AVAILABLE, "False", ConditionReason.AVAILABLE_REASON, "no", T0);
    set(s, "True", ConditionReason.REPLICA_SET_UPDATED, "progressing", T0);
    Conditions.set(s, ConditionType.AVAILABLE, "True", ConditionReason.AVAILABLE_REASON, "yes", T1);

    assertEquals(2, s.getConditions().size());
    assertEquals(
        List.of(ConditionType.PROGRESSING, ConditionType.AVAILABLE),
        s.getConditions().stream().map(RolloutCondition::getType).toList());
    assertEquals("progressing", Conditions.get(s, ConditionType.PROGRESSING).getMessage());
    assertEquals("True", Conditions.get(s, ConditionType.AVAILABLE).getStatus());
  }

  @Test
  void touchRefreshesLastUpdateTimeAndMessageOnly() {
    RolloutStatus s = new RolloutStatus();
    set(s, "True", ConditionReason.REPLICA_SET_UPDATED, "ReplicaSet \"web-1\" is progressing.", T0);

    Conditions.touch(s, ConditionType.PROGRESSING, "ReplicaSet \"web-2\" is progressing.", T2);

    RolloutCondition c = Conditions.get(s, ConditionType.PROGRESSING);
    assertEquals("True", c.getStatus());
    assertEquals(ConditionReason.REPLICA_SET_UPDATED, c.getReason());
    assertEquals("ReplicaSet \"web-2\" is progressing.", c.getMessage());
    assertEquals(T2, c.getLastUpdateTime());
    assertEquals(T0, c.getLastTransitionTime());
  }

  @Test
  void touchIgnoresAbsentCondition() {
    RolloutStatus s = new RolloutStatus();
    Conditions.touch(s, ConditionType.PROGRESSING, "m", T0);
    assertNull(Conditions.get(s, ConditionType.PROGRESSING));
    assertNull(s.getConditions());
  }

  @Test
  void removesConditionByType() {
    RolloutStatus s = new RolloutStatus();
    Conditions.set(s, ConditionType.INVALID_SPEC, "True", ConditionReason.INVALID_SPEC, "bad", T0);
    set(s, "True", ConditionReason.REPLICA_SET_UPDATED, "progressing", T0);

    assertTrue(Conditions.remove(s, ConditionType.INVALID_SPEC));

    assertNull(Conditions.get(s, ConditionType.INVALID_SPEC));
    assertEquals(1, s.getConditions().size());
  }

  @Test
  void leavesNoConditionList_whenLastConditionIsRemoved() {
    RolloutStatus s = new RolloutStatus();
    Conditions.set(s, ConditionType.INVALID_SPEC, "True", ConditionReason.INVALID_SPEC, "bad", T0);
    assertTrue(Conditions.remove(s, ConditionType.INVALID_SPEC));
    assertNull(s.getConditions());
  }

  @Test
  void reportsNothingRemoved_whenTypeIsAbsent() {
    RolloutStatus s = new RolloutStatus();
    assertFalse(Conditions.remove(s, ConditionType.INVALID_SPEC));
    set(s, "True", ConditionReason.REPLICA_SET_UPDATED, "progressing", T0);
    assertFalse(Conditions.remove(s, ConditionType.INVALID_SPEC));
    assertEquals(1, s.getConditions().size());
  }

  @Test
  void getReturnsNull_forNullStatusOrMissingType() {
    assertNull(Conditions.get(null, ConditionType.PROGRESSING));
    assertNull(Conditions.get(new RolloutStatus(), ConditionType.PROGRESSING));
  }

  private static boolean set(
      RolloutStatus s, String status, String reason, String message, String now) {
    return Conditions.set(s, ConditionType.PROGRESSING, status, reason, message, now);
  }
}
