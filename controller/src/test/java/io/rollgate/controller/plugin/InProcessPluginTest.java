package io.rollgate.controller.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rollgate.controller.traffic.TrafficRouter;
import io.rollgate.plugin.PluginRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code location: java:<class>}: a TrafficRouterPlugin provider loaded with ServiceLoader, init
 * once.
 */
// Plugin processes are JVMs: on a busy machine a start takes far longer than the default 30 s
// budget.
@io.vertx.junit5.Timeout(value = 3, timeUnit = java.util.concurrent.TimeUnit.MINUTES)
@ExtendWith(VertxExtension.class)
class InProcessPluginTest {

  @TempDir Path dir;
  PluginHost host;

  @AfterEach
  void tearDown(VertxTestContext t) {
    (host == null ? Future.<Void>succeededFuture() : host.close())
        .onComplete(ar -> t.completeNow());
  }

  private TrafficRouter router(Vertx vertx, String location) {
    host =
        new PluginHost(
            vertx,
            dir,
            Duration.ofSeconds(5),
            Duration.ofSeconds(30),
            "test/argo-rollouts-config",
            null,
            null,
            Clock.systemUTC());
    host.update(
        PluginRegistry.fromConfigMapData(
            Map.of("trafficRouterPlugins", "- name: test/inproc\n  location: " + location + "\n")));
    return host.router("test/inproc");
  }

  @Test
  void loadsTheProviderAndInitialisesItOnce(Vertx vertx, VertxTestContext t) {
    InProcessTestRouter.CALLS.clear();
    TrafficRouter r = router(vertx, "java:" + InProcessTestRouter.class.getName());
    r.setWeight(PluginHostTest.request("web"), 10, List.of())
        .compose(v -> r.setWeight(PluginHostTest.request("web"), 20, List.of()))
        .compose(v -> r.setWeight(PluginHostTest.request("web"), 99, List.of()))
        .onComplete(
            t.failing(
                err ->
                    t.verify(
                        () -> {
                          assertEquals(
                              "failed to set weight via plugin: plugin test/inproc: weight 99 refused",
                              err.getMessage());
                          assertEquals(
                              List.of(
                                  "init",
                                  "setWeight web 10",
                                  "setWeight web 20",
                                  "setWeight web 99"),
                              InProcessTestRouter.CALLS);
                          t.completeNow();
                        })));
  }

  @Test
  void unknownClassIsNamed(Vertx vertx, VertxTestContext t) {
    router(vertx, "java:com.example.Missing")
        .setWeight(PluginHostTest.request("web"), 10, List.of())
        .onComplete(
            t.failing(
                err ->
                    t.verify(
                        () -> {
                          assertEquals(
                              "failed to set weight via plugin: plugin test/inproc is not running: no TrafficRouterPlugin"
                                  + " provider com.example.Missing on the controller's classpath (it must be listed in"
                                  + " META-INF/services/io.rollgate.plugin.sdk.TrafficRouterPlugin)",
                              err.getMessage());
                          t.completeNow();
                        })));
  }

  @Test
  void bothLocationAndEndpointIsABadRegistration(Vertx vertx, VertxTestContext t) {
    host =
        new PluginHost(
            vertx,
            dir,
            Duration.ofSeconds(5),
            Duration.ofSeconds(30),
            "test/argo-rollouts-config",
            null,
            null,
            Clock.systemUTC());
    host.update(
        PluginRegistry.fromConfigMapData(
            Map.of(
                "trafficRouterPlugins",
                "- name: test/both\n  location: file:///bin/true\n  endpoint: http://127.0.0.1:1\n")));
    host.router("test/both")
        .setWeight(PluginHostTest.request("web"), 10, List.of())
        .onComplete(
            t.failing(
                err ->
                    t.verify(
                        () -> {
                          assertEquals(
                              "failed to set weight via plugin: plugin test/both is not available: bad registration in"
                                  + " test/argo-rollouts-config: exactly one of location and endpoint must be set",
                              err.getMessage());
                          t.completeNow();
                        })));
  }
}
