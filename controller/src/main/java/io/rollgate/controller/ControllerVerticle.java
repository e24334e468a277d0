package io.rollgate.controller;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.rollgate.controller.events.EventRecorder;
import io.rollgate.controller.kube.KubeApi;
import io.rollgate.controller.rollout.RolloutController;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import java.time.Clock;

/** Wires the controller on one Vert.x context: the API facade, the event recorder and the per-kind controllers. */
public final class ControllerVerticle extends VerticleBase {

  private final ControllerOptions options;
  private final KubernetesClient client;
  private final Clock clock;
  private KubeApi api;
  private RolloutController rollouts;

  /**
   * Creates the verticle.
   *
   * @param options the process settings
   * @param client the fabric8 client, built on this verticle's Vert.x instance
   * @param clock the clock every time decision uses
   */
  public ControllerVerticle(ControllerOptions options, KubernetesClient client, Clock clock) {
    this.options = options;
    this.client = client;
    this.clock = clock;
  }

  @Override
  public Future<?> start() {
    api = new KubeApi(vertx, client, options.kubeApiThreads(), options.apiTimeout());
    EventRecorder events = new EventRecorder(api, clock);
    rollouts = new RolloutController(vertx, api, events, options, clock);
    return rollouts.start();
  }

  /**
   * Fails when the controller can no longer work from its caches (an informer stopped for good); the process should
   * then exit so that it is restarted clean.
   *
   * @return a Future that only ever fails
   */
  public Future<Void> fatal() {
    return rollouts == null ? Future.failedFuture("not started") : rollouts.lost();
  }

  /**
   * Stops taking work and completes once the reconciles in flight have finished.
   *
   * @return a Future completing when drained
   */
  public Future<Void> shutdown() {
    if (rollouts == null) {
      return Future.succeededFuture();
    }
    return rollouts.stop().eventually(() -> api.close());
  }
}
