package io.rollgate.controller.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(VertxExtension.class)
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
class EnqueueHandlerTest {

  private static final String SENTINEL = "x/sentinel";

  @Test
  void selfEnqueuesItsOwnKey_resyncWhenTheResourceVersionIsUnchanged(
      Vertx vertx, VertxTestContext test) {
    List<String> forgotten = new CopyOnWriteArrayList<>();
    expect(
        vertx,
        test,
        queue -> {
          EnqueueHandler<ConfigMap> handler =
              EnqueueHandler.self(queue, (ns, name) -> forgotten.add(ns + "/" + name));
          handler.onAdd(cm("a", "1"));
          handler.onUpdate(cm("b", "1"), cm("b", "1"));
          handler.onUpdate(cm("c", "1"), cm("c", "2"));
          handler.onDelete(cm("d", "1"), false);
          handler.alsoOnDelete().onDelete(cm("e", "1"), false);
        },
        List.of("shop/a watch", "shop/b resync", "shop/c watch", "shop/e watch"),
        () -> assertEquals(List.of("shop/d", "shop/e"), forgotten));
  }

  @Test
  void controllerOwnerEnqueuesTheControllingOwnerOfTheKind_onNewResourceVersionsAndDeletes(
      Vertx vertx, VertxTestContext test) {
    List<String> forgotten = new CopyOnWriteArrayList<>();
    expect(
        vertx,
        test,
        queue -> {
          EnqueueHandler<ConfigMap> handler =
              EnqueueHandler.controllerOwner(
                  queue, "Rollout", (ns, name) -> forgotten.add(ns + "/" + name));
          handler.onAdd(owned("rs-a", "1", "Rollout", "a", true));
          handler.onAdd(owned("rs-x", "1", "Rollout", "x", false));
          handler.onAdd(owned("rs-y", "1", "Experiment", "y", true));
          handler.onAdd(cm("rs-z", "1"));
          handler.onUpdate(
              owned("rs-b", "1", "Rollout", "b", true), owned("rs-b", "1", "Rollout", "b", true));
          handler.onUpdate(
              owned("rs-c", "1", "Rollout", "c", true), owned("rs-c", "2", "Rollout", "c", true));
          handler.onDelete(owned("rs-d", "1", "Rollout", "d", true), true);
        },
        List.of("shop/a watch", "shop/c watch", "shop/d watch"),
        () -> assertEquals(List.of("shop/rs-d"), forgotten));
  }

  @Test
  void mappedEnqueuesTheMappedKeys_withItsUpdateRules(Vertx vertx, VertxTestContext test) {
    expect(
        vertx,
        test,
        queue -> {
          EnqueueHandler<ConfigMap> byData =
              EnqueueHandler.<ConfigMap>mapped(
                      queue, obj -> List.of("shop/" + obj.getData().get("ref")), (ns, name) -> {})
                  .updatesWhen((before, after) -> true)
                  .alsoBeforeWhen((before, after) -> !before.getData().equals(after.getData()));
          // an update counts even without a new resourceVersion, and the old reference is
          // enqueued too when it changed
          byData.onUpdate(ref("s1", "1", "a"), ref("s1", "1", "a"));
          byData.onUpdate(ref("s2", "1", "b"), ref("s2", "2", "c"));
          EnqueueHandler<ConfigMap> byDefault =
              EnqueueHandler.mapped(
                  queue, obj -> List.of("shop/" + obj.getData().get("ref")), (ns, name) -> {});
          byDefault.onUpdate(ref("s3", "1", "d"), ref("s3", "1", "d"));
          byDefault.onDelete(ref("s4", "1", "e"), false);
        },
        List.of("shop/a watch", "shop/c watch", "shop/b watch", "shop/e watch"),
        () -> {});
  }

  /**
   * Runs {@code events} against a one-worker queue whose reconciler records "key trigger", then a
   * sentinel key: FIFO, so when the sentinel runs every key enqueued before it has run.
   */
  private static void expect(
      Vertx vertx,
      VertxTestContext test,
      Consumer<WorkQueue> events,
      List<String> expected,
      Runnable moreChecks) {
    List<String> runs = new CopyOnWriteArrayList<>();
    WorkQueue queue =
        WorkQueue.withDefaultBackoff(
            vertx,
            "Test",
            ctx -> {
              if (ctx.key().equals(SENTINEL)) {
                test.verify(
                    () -> {
                      assertEquals(expected, runs);
                      moreChecks.run();
                    });
                test.completeNow();
              } else {
                runs.add(ctx.key() + " " + ctx.trigger());
              }
              return Future.succeededFuture(ReconcileOutcome.done());
            },
            1,
            Duration.ofSeconds(30),
            Clock.systemUTC());
    queue.hold();
    events.accept(queue);
    queue.add(SENTINEL, "watch");
    queue.resume();
  }

  private static ConfigMap cm(String name, String resourceVersion) {
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withNamespace("shop")
        .withName(name)
        .withResourceVersion(resourceVersion)
        .endMetadata()
        .build();
  }

  private static ConfigMap ref(String name, String resourceVersion, String ref) {
    ConfigMap cm = cm(name, resourceVersion);
    cm.setData(java.util.Map.of("ref", ref));
    return cm;
  }

  private static ConfigMap owned(
      String name, String resourceVersion, String ownerKind, String owner, boolean controller) {
    ConfigMap cm = cm(name, resourceVersion);
    cm.getMetadata()
        .setOwnerReferences(
            List.of(
                new OwnerReferenceBuilder()
                    .withKind(ownerKind)
                    .withName(owner)
                    .withController(controller)
                    .build()));
    return cm;
  }
}
