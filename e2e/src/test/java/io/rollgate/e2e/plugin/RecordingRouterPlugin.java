package io.rollgate.e2e.plugin;

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
 * A traffic-router plugin standing in for a data plane: it "carries" the weights it is given by
 * appending every call to a file (first argument), which the tests read as a user would read their
 * router's state. While the file named by the second argument exists, calls never answer (a hung
 * router). Served over protocol v1 by the SDK's {@link PluginServer}, as an executable (its {@code
 * main}) or as an endpoint.
 */
public final class RecordingRouterPlugin implements TrafficRouterPlugin {

  private final Path log;
  private final Path hang;

  /**
   * Creates the plugin.
   *
   * @param log the file every call is appended to
   * @param hang while this file exists, calls never answer; null for never
   */
  public RecordingRouterPlugin(Path log, Path hang) {
    this.log = log;
    this.hang = hang;
  }

  /**
   * Runs the plugin as an executable started by the controller.
   *
   * @param args the call log file, then optionally the hang file
   */
  public static void main(String[] args) {
    RecordingRouterPlugin p =
        new RecordingRouterPlugin(Path.of(args[0]), args.length > 1 ? Path.of(args[1]) : null);
    p.append("started " + ProcessHandle.current().pid());
    PluginServer.serve(p);
  }

  private <T> Future<T> record(String line, T value) {
    if (hang != null && Files.exists(hang)) {
      append("hung " + line);
      return Promise.<T>promise().future();
    }
    append(line);
    return Future.succeededFuture(value);
  }

  private synchronized void append(String line) {
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
  public String type() {
    return "recording";
  }

  @Override
  public Future<Void> updateHash(
      Rollout r, String canaryHash, String stableHash, List<WeightDestination> a) {
    return record(
        "updateHash " + r.getMetadata().getName() + " " + canaryHash + " " + stableHash, null);
  }

  @Override
  public Future<Void> setWeight(Rollout r, int desiredWeight, List<WeightDestination> a) {
    return record("setWeight " + r.getMetadata().getName() + " " + desiredWeight, null);
  }

  @Override
  public Future<Void> setHeaderRoute(Rollout r, SetHeaderRoute route) {
    return record("setHeaderRoute " + r.getMetadata().getName() + " " + route.getName(), null);
  }

  @Override
  public Future<Void> setMirrorRoute(Rollout r, SetMirrorRoute route) {
    return record("setMirrorRoute " + r.getMetadata().getName() + " " + route.getName(), null);
  }

  @Override
  public Future<Boolean> verifyWeight(Rollout r, int desiredWeight, List<WeightDestination> a) {
    return record("verifyWeight " + r.getMetadata().getName() + " " + desiredWeight, Boolean.TRUE);
  }

  @Override
  public Future<Void> removeManagedRoutes(Rollout r) {
    return record("removeManagedRoutes " + r.getMetadata().getName(), null);
  }
}
