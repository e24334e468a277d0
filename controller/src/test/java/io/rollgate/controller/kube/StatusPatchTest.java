package io.rollgate.controller.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.rollgate.api.ModelJson;
import io.rollgate.api.Rollout;
import io.rollgate.api.RolloutStatus;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class StatusPatchTest {

  private final StatusPatch<Rollout> writer =
      new StatusPatch<>(null, Rollout.class, "status", r -> {});

  private static Rollout read() {
    Rollout r = new Rollout();
    r.setMetadata(
        new ObjectMetaBuilder()
            .withNamespace("shop")
            .withName("web")
            .withResourceVersion("42")
            .build());
    return r;
  }

  private static RolloutStatus status(String phase, String message) {
    RolloutStatus s = new RolloutStatus();
    s.setPhase(phase);
    s.setMessage(message);
    return s;
  }

  @Test
  void anUnchangedStatusSendsNothing() {
    assertTrue(writer.diff(read(), status("Healthy", null), status("Healthy", null)).isEmpty());
  }

  @Test
  void aChangeCarriesTheResourceVersionReadAndOnlyTheChangedFields() {
    Optional<ObjectNode> patch =
        writer.diff(read(), status("Paused", "waiting"), status("Healthy", null));

    assertEquals(
        ModelJson.mapper().createObjectNode().put("phase", "Healthy").putNull("message"),
        patch.orElseThrow().get("status"));
    assertEquals("42", patch.get().at("/metadata/resourceVersion").asText());
  }

  @Test
  void noStatusYetIsAnEmptyOne() {
    Optional<ObjectNode> patch = writer.diff(read(), null, status("Progressing", null));

    assertEquals("{\"phase\":\"Progressing\"}", patch.orElseThrow().get("status").toString());
  }
}
