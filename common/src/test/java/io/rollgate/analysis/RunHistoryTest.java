package io.rollgate.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rollgate.api.AnalysisRun;
import io.rollgate.api.ModelJson;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RunHistoryTest {

  static AnalysisRun run(String name, String hash, String created, String phase) {
    String labels = hash == null ? "{}" : "{\"rollouts-pod-template-hash\":\"" + hash + "\"}";
    String status = phase == null ? "" : ",\"status\":{\"phase\":\"" + phase + "\"}";
    return ModelJson.fromJson(
        "{\"metadata\":{\"name\":\""
            + name
            + "\",\"creationTimestamp\":\""
            + created
            + "\",\"labels\":"
            + labels
            + "}"
            + status
            + "}",
        AnalysisRun.class);
  }

  static List<String> names(List<AnalysisRun> runs) {
    return runs.stream().map(r -> r.getMetadata().getName()).sorted().toList();
  }

  @Test
  void runsWithoutHashOrReplicaSetAreDeleted() {
    var runs =
        List.of(
            run("nolabel", null, "2026-01-01T00:00:00Z", "Successful"),
            run("gone", "x", "2026-01-01T00:00:01Z", "Successful"),
            run("kept", "a", "2026-01-01T00:00:02Z", "Successful"));
    assertEquals(List.of("gone", "nolabel"), names(RunHistory.toDelete(runs, Set.of("a"), 5, 5)));
  }

  @Test
  void keepsTheNewestSuccessfulAndUnsuccessfulRunsUpToTheirLimits() {
    var runs =
        List.of(
            run("ok1", "a", "2026-01-01T00:00:01Z", "Successful"),
            run("ok2", "a", "2026-01-01T00:00:02Z", "Successful"),
            run("ok3", "a", "2026-01-01T00:00:03Z", "Successful"),
            run("bad1", "a", "2026-01-01T00:00:04Z", "Failed"),
            run("bad2", "a", "2026-01-01T00:00:05Z", "Inconclusive"),
            run("bad3", "a", "2026-01-01T00:00:06Z", "Error"),
            run("running", "a", "2026-01-01T00:00:00Z", "Running"),
            run("new", "a", "2026-01-01T00:00:00Z", null));
    assertEquals(List.of("bad1", "ok1"), names(RunHistory.toDelete(runs, Set.of("a"), 2, 2)));
    assertEquals(
        List.of("bad1", "bad2", "bad3", "ok1", "ok2", "ok3"),
        names(RunHistory.toDelete(runs, Set.of("a"), 0, 0)));
  }
}
