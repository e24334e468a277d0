package io.rollgate.controller.rollout.replicasets;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SelectorsTest {

  @Test
  void formatsMatchLabelsSortedByKey() {
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put("tier", "front");
    labels.put("app", "web");
    labels.put("rollouts-pod-template-hash", "6f8b9c");
    assertEquals(
        "app=web,rollouts-pod-template-hash=6f8b9c,tier=front",
        Selectors.format(new LabelSelectorBuilder().withMatchLabels(labels).build()));
  }

  @Test
  void formatsInWithSortedValues() {
    assertEquals(
        "env in (dev,prod,qa)", Selectors.format(selector(req("env", "In", "prod", "dev", "qa"))));
  }

  @Test
  void formatsNotIn() {
    assertEquals("env notin (a,b)", Selectors.format(selector(req("env", "NotIn", "b", "a"))));
  }

  @Test
  void formatsExistsAsBareKey() {
    assertEquals("gpu", Selectors.format(selector(req("gpu", "Exists"))));
  }

  @Test
  void formatsDoesNotExistWithBang() {
    assertEquals("!legacy", Selectors.format(selector(req("legacy", "DoesNotExist"))));
  }

  @Test
  void sortsLabelsAndExpressionsTogetherByKey() {
    LabelSelector s =
        new LabelSelectorBuilder()
            .withMatchLabels(Map.of("zone", "a", "app", "web"))
            .withMatchExpressions(
                req("tier", "NotIn", "db"),
                req("legacy", "DoesNotExist"),
                req("env", "In", "prod"),
                req("gpu", "Exists"))
            .build();
    assertEquals("app=web,env in (prod),gpu,!legacy,tier notin (db),zone=a", Selectors.format(s));
  }

  @Test
  void returnsEmptyString_whenSelectorIsNullOrEmpty() {
    assertEquals("", Selectors.format(null));
    assertEquals("", Selectors.format(new LabelSelector()));
    assertEquals(
        "", Selectors.format(new LabelSelectorBuilder().withMatchLabels(Map.of()).build()));
  }

  private static LabelSelector selector(LabelSelectorRequirement... requirements) {
    return new LabelSelectorBuilder().withMatchExpressions(requirements).build();
  }

  private static LabelSelectorRequirement req(String key, String operator, String... values) {
    return new LabelSelectorRequirement(key, operator, values.length == 0 ? null : List.of(values));
  }
}
