package io.rollgate.controller.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.rollgate.api.ModelJson;
import io.rollgate.plugin.sdk.StepPhase;
import io.rollgate.plugin.sdk.StepResult;
import io.vertx.core.Future;
import org.junit.jupiter.api.Test;

/** Decoding of step plugin answers (docs/plugins.md, "Step plugins"). */
class HostedStepPluginsTest {

  static Future<StepResult> decode(String json) throws Exception {
    JsonNode a = ModelJson.mapper().readTree(json);
    return HostedStepPlugins.decode("acme/ci", "step/run", a);
  }

  @Test
  void decodesARunningAnswer() throws Exception {
    StepResult r =
        decode(
                "{\"phase\":\"Running\",\"message\":\"job 7\",\"requeueAfterSeconds\":20,\"status\":{\"id\":7},\"error\":\"\"}")
            .result();
    assertEquals(StepPhase.Running, r.phase());
    assertEquals("job 7", r.message());
    assertEquals(20L, r.requeueAfterSeconds());
    assertEquals(7, r.status().get("id").asInt());
    assertNull(r.error());
  }

  @Test
  void emptyPhaseKeepsThePreviousOne() throws Exception {
    StepResult r = decode("{\"phase\":\"\",\"status\":null}").result();
    assertNull(r.phase());
    assertNull(r.status());
  }

  @Test
  void pluginErrorIsAResultNotAFailure() throws Exception {
    StepResult r = decode("{\"phase\":\"Running\",\"error\":\"CI unreachable\"}").result();
    assertEquals("CI unreachable", r.error());
  }

  @Test
  void unknownPhaseFailsNamingThePluginAndTheValue() throws Exception {
    Future<StepResult> f = decode("{\"phase\":\"Done\"}");
    assertTrue(f.failed());
    assertEquals(
        "plugin acme/ci: step/run answered a bad phase 'Done' is not one of Running, Successful, Failed, Error",
        f.cause().getMessage());
    assertEquals(PluginCallException.Reason.BAD_ANSWER, PluginCallException.reasonOf(f.cause()));
  }

  @Test
  void requeueMustBeANumber() throws Exception {
    Future<StepResult> f = decode("{\"phase\":\"Running\",\"requeueAfterSeconds\":\"30s\"}");
    assertTrue(f.failed());
    assertTrue(
        f.cause()
            .getMessage()
            .contains("requeueAfterSeconds must be a number of seconds, got \"30s\""));
  }
}
