package io.rollgate.controller.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rollgate.api.ModelJson;
import io.rollgate.api.Rollout;
import java.util.List;
import org.junit.jupiter.api.Test;

class RolloutSeriesTest {

  static Rollout rollout(String name, String strategy, String conditions) {
    String json =
        "{\"apiVersion\":\"argoproj.io/v1alpha1\",\"kind\":\"Rollout\","
            + "\"metadata\":{\"namespace\":\"shop\",\"name\":\""
            + name
            + "\"},"
            + "\"spec\":{\"replicas\":5,\"strategy\":"
            + strategy
            + "},"
            + "\"status\":{\"replicas\":6,\"availableReplicas\":4,\"updatedReplicas\":2,\"phase\":\"Healthy\","
            + "\"conditions\":["
            + conditions
            + "]}}";
    return ModelJson.fromJson(json, Rollout.class);
  }

  static String progressing(String reason) {
    return "{\"type\":\"Progressing\",\"status\":\"True\",\"reason\":\"" + reason + "\"}";
  }

  static String phase(String... conditions) {
    return RolloutSeries.phase(rollout("r", "{\"canary\":{}}", String.join(",", conditions)));
  }

  @Test
  void phaseLabelIsDerivedFromTheProgressingReason_notFromStatusPhase() {
    assertEquals("Progressing", phase());
    assertEquals("Progressing", phase(progressing("ReplicaSetUpdated")));
    assertEquals("Completed", phase(progressing("NewReplicaSetAvailable")));
    assertEquals("Paused", phase(progressing("RolloutPaused")));
    assertEquals("Error", phase(progressing("ReplicaSetCreateError")));
    assertEquals("Timeout", phase(progressing("ProgressDeadlineExceeded")));
    assertEquals("Abort", phase(progressing("RolloutAborted")));
  }

  @Test
  void anyInvalidSpecConditionWins() {
    assertEquals(
        "InvalidSpec",
        phase(
            progressing("NewReplicaSetAvailable"),
            "{\"type\":\"InvalidSpec\",\"status\":\"True\",\"reason\":\"x\"}"));
  }

  @Test
  void reasonsOfOtherConditionsAreIgnored() {
    assertEquals(
        "Progressing",
        phase("{\"type\":\"Paused\",\"status\":\"True\",\"reason\":\"RolloutPaused\"}"));
  }

  @Test
  void strategyAndTrafficRouterLabels() {
    assertEquals(
        "blueGreen",
        RolloutSeries.strategy(rollout("b", "{\"blueGreen\":{\"activeService\":\"a\"}}", "")));
    assertEquals("canary", RolloutSeries.strategy(rollout("c", "{\"canary\":{}}", "")));
    assertEquals("none", RolloutSeries.strategy(rollout("n", "{}", "")));
    assertEquals("", RolloutSeries.trafficRouter(rollout("c", "{\"canary\":{}}", "")));
    Rollout both =
        rollout(
            "t",
            "{\"canary\":{\"trafficRouting\":{\"alb\":{\"ingress\":\"i\",\"servicePort\":80},"
                + "\"nginx\":{\"stableIngress\":\"s\"}}}}",
            "");
    assertEquals(
        "Nginx", RolloutSeries.trafficRouter(both), "last configured wins in Argo's order");
  }

  @Test
  void writesArgoFamiliesWithReplicaArithmetic() {
    StringBuilder out = new StringBuilder();
    RolloutSeries.write(
        out, List.of(rollout("web", "{\"canary\":{}}", progressing("RolloutPaused"))));
    String text = out.toString();
    assertTrue(
        text.contains(
            "rollout_info{namespace=\"shop\",name=\"web\",strategy=\"canary\",traffic_router=\"\",phase=\"Paused\"} 1\n"),
        text);
    assertTrue(
        text.contains("rollout_info_replicas_available{namespace=\"shop\",name=\"web\"} 4\n"),
        text);
    assertTrue(
        text.contains("rollout_info_replicas_unavailable{namespace=\"shop\",name=\"web\"} 2\n"),
        text);
    assertTrue(
        text.contains("rollout_info_replicas_desired{namespace=\"shop\",name=\"web\"} 5\n"), text);
    assertTrue(
        text.contains("rollout_info_replicas_updated{namespace=\"shop\",name=\"web\"} 2\n"), text);
    assertTrue(
        text.contains(
            "rollout_phase{namespace=\"shop\",name=\"web\",strategy=\"canary\",phase=\"Paused\"} 1\n"));
    assertTrue(
        text.contains(
            "rollout_phase{namespace=\"shop\",name=\"web\",strategy=\"canary\",phase=\"Completed\"} 0\n"));
    assertTrue(text.contains("# TYPE rollout_info gauge\n"));
  }

  @Test
  void escapesLabelValues() {
    StringBuilder out = new StringBuilder();
    RolloutSeries.constant(out, "m", "help", "version", "a\"b\\c\nd");
    assertTrue(out.toString().contains("m{version=\"a\\\"b\\\\c\\nd\"} 1\n"), out.toString());
  }
}
