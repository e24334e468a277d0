package io.rollgate.e2e.goplugins;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.rollgate.api.Rollout;
import io.rollgate.e2e.support.ControllerProcess;
import io.rollgate.e2e.support.GoPlugins;
import io.rollgate.e2e.support.Rollouts;
import io.rollgate.e2e.support.TestCluster;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A namespace of its own for a Go plugin test: an {@code argo-rollouts-config} in it that registers
 * the plugins as a user would, and a controller that watches only that namespace, reads that
 * registry and runs go-plugin binaries through the plugin bridge (docs/plugins.md, "Go plugins of
 * Argo Rollouts").
 */
final class GoPluginNamespace {

  static final Duration TIMEOUT = Duration.ofSeconds(120);

  final TestCluster cluster;
  final KubernetesClient client;
  final String ns;
  final Rollouts rollouts;
  final ControllerProcess controller;
  final String name;

  private GoPluginNamespace(
      TestCluster cluster, String ns, String name, ControllerProcess controller) {
    this.cluster = cluster;
    this.client = cluster.client();
    this.ns = ns;
    this.name = name;
    this.rollouts = new Rollouts(client, ns);
    this.controller = controller;
  }

  /**
   * Creates the namespace and registry, then starts the controller.
   *
   * @param name the namespace prefix, also the controller's log and plugin-folder name
   * @param registry the {@code argo-rollouts-config} data ({@code stepPlugins}, {@code
   *     trafficRouterPlugins}, ...)
   * @param extraArgs more controller flags
   * @return the running fixture
   */
  static GoPluginNamespace start(String name, Map<String, String> registry, String... extraArgs) {
    TestCluster cluster = TestCluster.get();
    String ns = cluster.createNamespace(name);
    cluster
        .client()
        .configMaps()
        .inNamespace(ns)
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName("argo-rollouts-config")
                .withNamespace(ns)
                .endMetadata()
                .withData(registry)
                .build())
        .serverSideApply();
    List<String> args =
        new ArrayList<>(
            List.of(
                "--namespace",
                ns,
                "--plugin-config-namespace",
                ns,
                "--plugin-dir",
                pluginDir(name).toString(),
                "--plugin-bridge",
                GoPlugins.bridge().toString()));
    args.addAll(List.of(extraArgs));
    ControllerProcess controller =
        ControllerProcess.start(cluster, name, args.toArray(String[]::new));
    return new GoPluginNamespace(cluster, ns, name, controller);
  }

  /**
   * One registry entry for a plugin file, with its checksum.
   *
   * @param plugin the registered name
   * @param binary the plugin file
   * @return the YAML list item
   */
  static String registration(String plugin, Path binary) {
    return "- name: "
        + plugin
        + "\n  location: file://"
        + binary
        + "\n  sha256: "
        + GoPlugins.sha256(binary)
        + "\n";
  }

  /**
   * The folder the controller copies plugins into.
   *
   * @param name the fixture's name
   * @return an absolute path under {@code target}
   */
  static Path pluginDir(String name) {
    return Path.of("target", "plugins-" + name).toAbsolutePath();
  }

  /**
   * Stops the controller and deletes the namespace, unless it is kept for inspection.
   *
   * @param fixture the fixture, or null when set-up failed before it existed
   * @param keepNamespace whether a test failed
   */
  static void close(GoPluginNamespace fixture, boolean keepNamespace) {
    if (fixture == null) {
      return;
    }
    fixture.controller.close();
    if (!keepNamespace) {
      fixture.cluster.deleteNamespace(fixture.ns);
    }
  }

  /**
   * Creates the objects of a test resource file in the namespace, with {@code ${NAME}} replaced.
   *
   * @param resource the classpath resource
   * @param objectName the value of {@code ${NAME}}
   */
  void apply(String resource, String objectName) {
    String yaml;
    try (InputStream in = GoPluginNamespace.class.getClassLoader().getResourceAsStream(resource)) {
      yaml = new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("${NAME}", objectName);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    for (HasMetadata item :
        client.load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8))).items()) {
      client.resource(item).inNamespace(ns).create();
    }
  }

  /**
   * Waits until the Rollout is paused at a step.
   *
   * @param rollout the Rollout's name
   * @param step the step index
   * @return the Rollout
   */
  Rollout awaitPausedAt(String rollout, int step) {
    return rollouts.await(
        rollout,
        rollout + " paused at step " + step,
        TIMEOUT,
        r ->
            r.getStatus() != null
                && "Paused".equals(r.getStatus().getPhase())
                && Integer.valueOf(step).equals(r.getStatus().getCurrentStepIndex()));
  }

  /**
   * Waits until the Rollout is Healthy with its current pod template stable.
   *
   * @param rollout the Rollout's name
   * @param notHash a stable hash it must have left (the previous revision's), or null
   * @return the Rollout
   */
  Rollout awaitHealthy(String rollout, String notHash) {
    return rollouts.await(
        rollout,
        rollout + " Healthy",
        TIMEOUT,
        r ->
            r.getStatus() != null
                && "Healthy".equals(r.getStatus().getPhase())
                && r.getStatus().getStableRS() != null
                && r.getStatus().getStableRS().equals(r.getStatus().getCurrentPodHash())
                && !r.getStatus().getStableRS().equals(notHash));
  }
}
