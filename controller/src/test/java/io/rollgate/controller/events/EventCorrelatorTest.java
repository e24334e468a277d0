package io.rollgate.controller.events;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rollgate.controller.events.EventCorrelator.Action;
import io.rollgate.controller.events.EventCorrelator.Decision;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class EventCorrelatorTest {

  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  private final EventCorrelator c = new EventCorrelator();

  private Decision record(String message, Instant at) {
    Decision d = c.correlate("uid-1", "Normal", "ScalingReplicaSet", message, at);
    if (d.action() == Action.CREATE) {
      c.created(d.key(), "ns", "ev-" + d.key().hashCode());
    }
    return d;
  }

  @Test
  void createsTheFirstEventAndCountsItsRepeats() {
    Decision first = record("Scaled up to 1", T0);
    assertEquals(Action.CREATE, first.action());
    assertEquals(1, first.count());
    Decision again = record("Scaled up to 1", T0.plusSeconds(5));
    assertEquals(Action.PATCH, again.action());
    assertEquals(2, again.count());
    assertEquals("ev-" + first.key().hashCode(), again.name());
    assertEquals("Scaled up to 1", again.message());
  }

  @Test
  void aRepeatAfterTheWindowCreatesANewEvent() {
    record("Scaled up to 1", T0);
    Decision later =
        record("Scaled up to 1", T0.plusSeconds(EventCorrelator.DEDUP_WINDOW_SECONDS + 1));
    assertEquals(Action.CREATE, later.action());
    assertEquals(1, later.count());
  }

  @Test
  void combinesSimilarEventsFromTheTenthDistinctMessage() {
    for (int i = 1; i < EventCorrelator.AGGREGATE_MAX_EVENTS; i++) {
      Decision d = record("Scaled up to " + i, T0.plusSeconds(i));
      assertEquals(Action.CREATE, d.action(), "message " + i);
      assertEquals("Scaled up to " + i, d.message());
    }
    Decision tenth = record("Scaled up to 10", T0.plusSeconds(10));
    assertEquals(Action.CREATE, tenth.action());
    assertEquals("(combined from similar events): Scaled up to 10", tenth.message());
    Decision eleventh = record("Scaled up to 11", T0.plusSeconds(11));
    assertEquals(Action.PATCH, eleventh.action());
    assertEquals(2, eleventh.count());
    assertEquals("(combined from similar events): Scaled up to 11", eleventh.message());
  }

  @Test
  void otherReasonsAndObjectsAreNotCombined() {
    for (int i = 1; i <= 12; i++) {
      record("Scaled up to " + i, T0.plusSeconds(i));
    }
    Decision other =
        c.correlate(
            "uid-1",
            "Normal",
            "RolloutUpdated",
            "Rollout updated to revision 2",
            T0.plusSeconds(13));
    assertEquals(Action.CREATE, other.action());
    assertEquals("Rollout updated to revision 2", other.message());
    Decision otherObject =
        c.correlate("uid-2", "Normal", "ScalingReplicaSet", "Scaled up to 12", T0.plusSeconds(13));
    assertEquals("Scaled up to 12", otherObject.message());
  }

  @Test
  void everyEventIsWrittenHoweverManyAnObjectHas() {
    for (int i = 0; i < 100; i++) {
      Decision d = c.correlate("uid-1", "Normal", "Reason" + i, "m", T0.plusSeconds(i % 3));
      assertEquals(Action.CREATE, d.action(), "event " + i);
    }
  }

  @Test
  void aForgottenEventIsCreatedAgain() {
    Decision first = record("m", T0);
    c.forget(first.key());
    Decision again = c.correlate("uid-1", "Normal", "ScalingReplicaSet", "m", T0.plusSeconds(1));
    assertEquals(Action.CREATE, again.action());
    assertEquals(2, again.count());
  }
}
