package io.rollgate.controller.notify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.rollgate.api.AnalysisRun;
import io.rollgate.api.ModelJson;
import io.rollgate.api.Rollout;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NotificationsTest {

  static Rollout rollout(String annotationsJson, String podHash) throws Exception {
    return ModelJson.mapper()
        .readValue(
            "{\"apiVersion\":\"argoproj.io/v1alpha1\",\"kind\":\"Rollout\",\"metadata\":{\"name\":\"web\",\"namespace\":\"shop\","
                + "\"annotations\":"
                + annotationsJson
                + "},\"status\":{\"currentPodHash\":\""
                + podHash
                + "\"}}",
            Rollout.class);
  }

  static AnalysisRun run(String name, String hash, String revision, String created)
      throws Exception {
    return ModelJson.mapper()
        .readValue(
            "{\"metadata\":{\"name\":\""
                + name
                + "\",\"namespace\":\"shop\",\"creationTimestamp\":\""
                + created
                + "\","
                + "\"labels\":{\"rollouts-pod-template-hash\":\""
                + hash
                + "\"},"
                + "\"annotations\":{\"rollout.argoproj.io/revision\":\""
                + revision
                + "\"}}}",
            AnalysisRun.class);
  }

  @Test
  void analysisRunsAreThoseOfTheCurrentHashAndRevision_newestFirst() throws Exception {
    Rollout r = rollout("{\"rollout.argoproj.io/revision\":\"3\"}", "abc");
    List<AnalysisRun> cached =
        List.of(
            run("old-hash", "zzz", "3", "2026-01-01T00:00:00Z"),
            run("old-revision", "abc", "2", "2026-01-01T00:00:01Z"),
            run("first", "abc", "3", "2026-01-01T00:00:02Z"),
            run("second", "abc", "3", "2026-01-01T00:00:03Z"));
    Notifications n = new Notifications(null, null, ns -> cached, null, () -> true);
    assertEquals(
        List.of("second", "first"),
        n.currentRevisionRuns(r).stream().map(a -> a.getMetadata().getName()).toList());
  }

  @Test
  void onlyASubscriptionAnnotationOrGlobalSubscriptionsCanHaveSubscribers() throws Exception {
    NotificationConfigs.Config plain =
        new NotificationConfigs.Config(
            new ConfigMapBuilder().withData(Map.of("service.slack", "token: x")).build(), null);
    NotificationConfigs.Config global =
        new NotificationConfigs.Config(
            new ConfigMapBuilder()
                .withData(Map.of("subscriptions", "- recipients: [slack]"))
                .build(),
            null);
    Rollout none = rollout("{\"other\":\"x\"}", "abc");
    Rollout subscribed =
        rollout("{\"notifications.argoproj.io/subscribe.on-rollout-paused.slack\":\"c\"}", "abc");
    assertFalse(Notifications.mayHaveSubscribers(none, List.of(plain)));
    assertTrue(Notifications.mayHaveSubscribers(subscribed, List.of(plain)));
    assertTrue(Notifications.mayHaveSubscribers(none, List.of(plain, global)));
  }
}
