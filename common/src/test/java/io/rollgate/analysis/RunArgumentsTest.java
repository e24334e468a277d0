package io.rollgate.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.rollgate.api.AnalysisRunArgument;
import io.rollgate.api.Argument;
import io.rollgate.api.ModelJson;
import io.rollgate.api.Rollout;
import java.util.List;
import org.junit.jupiter.api.Test;

class RunArgumentsTest {

  static final Rollout ROLLOUT =
      ModelJson.fromJson(
          "{\"apiVersion\":\"argoproj.io/v1alpha1\",\"kind\":\"Rollout\","
              + "\"metadata\":{\"name\":\"web\",\"namespace\":\"shop\",\"uid\":\"u-1\",\"labels\":{\"team\":\"pay\",\"app\":\"web\"},"
              + "\"annotations\":{\"note\":\"a \\\"b\\\"\"}},"
              + "\"spec\":{\"replicas\":3,\"template\":{\"spec\":{\"containers\":[{\"name\":\"app\",\"image\":\"img:v2\"}]}}},"
              + "\"status\":{\"stableRS\":\"abc\"}}",
          Rollout.class);

  static AnalysisRunArgument arg(String json) {
    return ModelJson.fromJson(json, AnalysisRunArgument.class);
  }

  static Argument plain(String name, String value) {
    Argument a = new Argument();
    a.setName(name);
    a.setValue(value);
    return a;
  }

  @Test
  void metadataFieldRefsFollowTheDownwardApi() throws Exception {
    assertEquals("pay", RunArguments.metadataField(ROLLOUT, "metadata.labels['team']"));
    assertEquals("", RunArguments.metadataField(ROLLOUT, "metadata.labels['absent']"));
    assertEquals("web", RunArguments.metadataField(ROLLOUT, "metadata.name"));
    assertEquals("shop", RunArguments.metadataField(ROLLOUT, "metadata.namespace"));
    assertEquals("u-1", RunArguments.metadataField(ROLLOUT, "metadata.uid"));
    assertEquals(
        "app=\"web\"\nteam=\"pay\"", RunArguments.metadataField(ROLLOUT, "metadata.labels"));
    assertEquals(
        "note=\"a \\\"b\\\"\"", RunArguments.metadataField(ROLLOUT, "metadata.annotations"));
    var e =
        assertThrows(
            AnalysisSpecException.class,
            () -> RunArguments.metadataField(ROLLOUT, "metadata.generateName"));
    assertEquals("unsupported fieldPath: metadata.generateName", e.getMessage());
  }

  @Test
  void otherFieldRefsWalkTheRolloutJson() throws Exception {
    var json = ModelJson.toTree(ROLLOUT);
    assertEquals("img:v2", RunArguments.jsonField(json, "spec.template.spec.containers[0].image"));
    assertEquals("3", RunArguments.jsonField(json, "spec.replicas"));
    assertEquals("abc", RunArguments.jsonField(json, "status.stableRS"));
    assertThrows(
        AnalysisSpecException.class,
        () -> RunArguments.jsonField(json, "spec.template.spec.containers[3].image"));
    assertThrows(AnalysisSpecException.class, () -> RunArguments.jsonField(json, "spec.template"));
  }

  @Test
  void rolloutArgsResolveHashesAndFieldRefs() throws Exception {
    var args =
        RunArguments.resolveRolloutArgs(
            List.of(
                arg("{\"name\":\"new\",\"valueFrom\":{\"podTemplateHashValue\":\"Latest\"}}"),
                arg("{\"name\":\"old\",\"valueFrom\":{\"podTemplateHashValue\":\"Stable\"}}"),
                arg(
                    "{\"name\":\"team\",\"valueFrom\":{\"fieldRef\":{\"fieldPath\":\"metadata.labels['team']\"}}}"),
                arg(
                    "{\"name\":\"image\",\"valueFrom\":{\"fieldRef\":{\"fieldPath\":\"spec.template.spec.containers[0].image\"}}}"),
                arg("{\"name\":\"v\",\"value\":\"x\"}")),
            ROLLOUT,
            "n1",
            "s1");
    assertEquals(
        List.of("n1", "s1", "pay", "img:v2", "x"), args.stream().map(Argument::getValue).toList());
  }

  @Test
  void mergeOverridesTemplateArgsByNameAndDropsUnknownOnes() throws Exception {
    Argument secret =
        ModelJson.fromJson(
            "{\"name\":\"token\",\"valueFrom\":{\"secretKeyRef\":{\"name\":\"s\",\"key\":\"k\"}}}",
            Argument.class);
    var merged =
        RunArguments.merge(
            List.of(plain("a", "rollout"), plain("extra", "dropped")),
            List.of(plain("a", "template"), plain("b", "default"), secret));
    assertEquals(List.of("a", "b", "token"), merged.stream().map(Argument::getName).toList());
    assertEquals("rollout", merged.get(0).getValue());
    assertEquals("default", merged.get(1).getValue());
    assertNull(merged.get(2).getValue());
    assertEquals("s", merged.get(2).getValueFrom().getSecretKeyRef().getName());
  }

  @Test
  void mergeRejectsAnArgumentLeftWithoutValue() {
    Argument bare = new Argument();
    bare.setName("hash");
    var e =
        assertThrows(
            AnalysisSpecException.class, () -> RunArguments.merge(List.of(), List.of(bare)));
    assertEquals("args.hash was not resolved", e.getMessage());
  }
}
