package io.rollgate.controller.plugin;

import io.rollgate.api.Rollout;
import io.rollgate.api.SetHeaderRoute;
import io.rollgate.api.SetMirrorRoute;
import io.rollgate.api.WeightDestination;
import io.rollgate.plugin.sdk.PluginServer;
import io.rollgate.plugin.sdk.TrafficRouterPlugin;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * A traffic-router plugin run as a real process by the tests: appends each call to the file named
 * by its first argument and never answers while the file named by its second argument exists.
 */
final class TestRouterPlugin implements TrafficRouterPlugin {

  private final Path log;
  private final Path hang;

  TestRouterPlugin(Path log, Path hang) {
    this.log = log;
    this.hang = hang;
  }

  public static void main(String[] args) {
    TestRouterPlugin p =
        new TestRouterPlugin(Path.of(args[0]), args.length > 1 ? Path.of(args[1]) : null);
    p.record("started " + ProcessHandle.current().pid());
    PluginServer.serve(p);
  }

  private <T> Future<T> record(String line, T value) {
    record(line);
    if (hang != null && Files.exists(hang)) {
      return Promise.<T>promise().future();
    }
    return Future.succeededFuture(value);
  }

  private void record(String line) {
    try {
      Files.writeString(
          log,
          line + "\n",
          StandardCharsets.UTF_8,
          StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public Future<Void> updateHash(
      Rollout r, String canaryHash, String stableHash, List<WeightDestination> a) {
    return record("updateHash " + canaryHash + " " + stableHash, null);
  }

  @Override
  public Future<Void> setWeight(Rollout r, int desiredWeight, List<WeightDestination> a) {
    return record("setWeight " + r.getMetadata().getName() + " " + desiredWeight, null);
  }

  @Override
  public Future<Void> setHeaderRoute(Rollout r, SetHeaderRoute route) {
    return record("setHeaderRoute " + route.getName(), null);
  }

  @Override
  public Future<Void> setMirrorRoute(Rollout r, SetMirrorRoute route) {
    return record("setMirrorRoute " + route.getName(), null);
  }

  @Override
  public Future<Boolean> verifyWeight(Rollout r, int desiredWeight, List<WeightDestination> a) {
    return record("verifyWeight " + desiredWeight, desiredWeight != 13);
  }

  @Override
  public Future<Void> removeManagedRoutes(Rollout r) {
    if (r.getMetadata().getName().equals("broken")) {
      return Future.failedFuture("route table is locked");
    }
    return record("removeManagedRoutes", null);
  }
}
