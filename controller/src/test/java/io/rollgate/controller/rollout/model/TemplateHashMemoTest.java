package io.rollgate.controller.rollout.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.rollgate.api.ModelJson;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TemplateHashMemoTest {

  private static PodTemplateSpec template(String image) {
    return new PodTemplateSpecBuilder()
        .withNewMetadata()
        .addToLabels("app", "web")
        .endMetadata()
        .withNewSpec()
        .addNewContainer()
        .withName("web")
        .withImage(image)
        .endContainer()
        .endSpec()
        .build();
  }

  private static void assertDirect(
      Map<GoKubeApiVersion, String> hashes, PodTemplateSpec template, Integer collisions) {
    for (GoKubeApiVersion v : GoKubeApiVersion.values()) {
      assertEquals(
          GoPodTemplateJson.podTemplateHash(
              template == null ? null : ModelJson.toTree(template), collisions, v),
          hashes.get(v),
          v.name());
    }
  }

  @Test
  void equalsTheHashComputedDirectly_forEveryVersion() {
    TemplateHashMemo memo = new TemplateHashMemo(8);
    PodTemplateSpec t = template("nginx:1");
    assertDirect(memo.hashes(t, null), t, null);
    assertDirect(memo.hashes(t, 3), t, 3);
    assertDirect(memo.hashes(null, null), null, null);
  }

  @Test
  void remembersAnUnchangedTemplate() {
    TemplateHashMemo memo = new TemplateHashMemo(8);
    Map<GoKubeApiVersion, String> first = memo.hashes(template("nginx:1"), null);
    assertSame(first, memo.hashes(template("nginx:1"), null));
    assertEquals(1, memo.size());
  }

  @Test
  void hashesAgain_whenTheTemplateIsChangedInPlace() {
    TemplateHashMemo memo = new TemplateHashMemo(8);
    PodTemplateSpec t = template("nginx:1");
    String before = memo.hashes(t, null).get(GoPodTemplateJson.DEFAULT_VERSION);
    t.getSpec().getContainers().get(0).setImage("nginx:2");
    Map<GoKubeApiVersion, String> after = memo.hashes(t, null);
    assertNotEquals(before, after.get(GoPodTemplateJson.DEFAULT_VERSION));
    assertDirect(after, t, null);
    t.getMetadata().getLabels().put("tier", "front");
    assertDirect(memo.hashes(t, null), t, null);
  }

  @Test
  void hashesAgain_whenTheCollisionCountChanges() {
    TemplateHashMemo memo = new TemplateHashMemo(8);
    PodTemplateSpec t = template("nginx:1");
    String none = memo.hashes(t, null).get(GoPodTemplateJson.DEFAULT_VERSION);
    String one = memo.hashes(t, 1).get(GoPodTemplateJson.DEFAULT_VERSION);
    assertNotEquals(none, one);
    assertDirect(memo.hashes(t, 1), t, 1);
    assertEquals(2, memo.size());
  }

  @Test
  void keepsAtMostItsCapacity_droppingTheLeastRecentlyUsed() {
    TemplateHashMemo memo = new TemplateHashMemo(2);
    Map<GoKubeApiVersion, String> a = memo.hashes(template("a:1"), null);
    memo.hashes(template("b:1"), null);
    assertSame(a, memo.hashes(template("a:1"), null));
    memo.hashes(template("c:1"), null);
    assertEquals(2, memo.size());
    assertSame(a, memo.hashes(template("a:1"), null));
    assertDirect(memo.hashes(template("b:1"), null), template("b:1"), null);
    assertEquals(2, memo.size());
  }

  @Test
  void refusesAnEmptyCapacity() {
    assertThrows(IllegalArgumentException.class, () -> new TemplateHashMemo(0));
  }
}
