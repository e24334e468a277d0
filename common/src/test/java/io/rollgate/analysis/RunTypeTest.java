package io.rollgate.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class RunTypeTest {

  @Test
  void abortMessagesAreArgos() {
    assertEquals(
        "Step-based analysis phase failed: Metric \"m\" assessed Failed",
        RunType.STEP.abortMessage("Failed", "Metric \"m\" assessed Failed"));
    assertEquals("Background analysis phase error", RunType.BACKGROUND.abortMessage("Error", null));
    assertEquals(
        "Blue/green pre-promotion analysis phase failed",
        RunType.PRE_PROMOTION.abortMessage("Failed", ""));
    assertEquals(
        "Blue/green post-promotion analysis phase error: x",
        RunType.POST_PROMOTION.abortMessage("Error", "x"));
  }

  @Test
  void eventMessagesNameTypeRunAndPhases() {
    assertEquals(
        "Step Analysis Run 'r' Status New: 'Running' Previous: 'NoPreviousStatus'",
        RunType.STEP.eventMessage("r", "Running", null));
    assertEquals(
        "PostPromotion Analysis Run 'r' Status New: 'Failed' Previous: 'Running'",
        RunType.POST_PROMOTION.eventMessage("r", "Failed", "Running"));
    assertEquals("PrePromotion", RunType.PRE_PROMOTION.label());
  }
}
