package io.rollgate.e2e.goplugins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.rollgate.api.Rollout;
import io.rollgate.e2e.support.ControllerProcess;
import io.rollgate.e2e.support.GoPlugins;
import io.rollgate.e2e.support.Rollouts;
import io.rollgate.e2e.support.TestCluster;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * Plugins that cannot run (docs/plugins.md, "Go plugins of Argo Rollouts", "A plugin that is not one"): a binary that
 * is not a plugin, one that never prints a handshake line, a go-plugin binary registered as the wrong kind (it gets
 * another magic cookie and refuses to serve), and a checksum mismatch. Each Rollout that uses one gets a
 * {@code PluginUnavailable} Warning naming the plugin and the reason and stays at its step, while a Rollout using a
 * working Go plugin on the same controller completes.
 */
@ExtendWith(GoPluginBadInputE2E.FailureTracker.class)
class GoPluginBadInputE2E {

  static final Duration TIMEOUT = Duration.ofSeconds(120);

  static TestCluster cluster;
  static String ns;
  static Rollouts rollouts;
  static ControllerProcess controller;
  static boolean failed;

  @BeforeAll
  static void setUp() throws IOException {
    cluster = TestCluster.get();
    ns = cluster.createNamespace("gobad");
    rollouts = new Rollouts(cluster.client(), ns);
    Path dir = Files.createDirectories(Path.of("target", "gobad-binaries").toAbsolutePath());
    Path notAPlugin = executable(dir.resolve("not-a-plugin"), "#!/bin/sh\necho 'usage: report-tool <file>' >&2\nexit 2\n");
    Path silent = executable(dir.resolve("silent"), "#!/bin/sh\nexec sleep 600\n");
    Path good = GoPlugins.argoTestPlugin("step-plugin-e2e");
    Path router = GoPlugins.shared("rollouts-plugin-trafficrouter-gatewayapi-v0.15.0-linux-amd64");
    String yaml =
        "- name: step/good\n  location: file://" + good + "\n"
            + "- name: step/not-a-plugin\n  location: file://" + notAPlugin + "\n"
            + "- name: step/silent\n  location: file://" + silent + "\n"
            + "- name: step/router-as-step\n  location: file://" + router + "\n"
            + "- name: step/bad-sha\n  location: file://" + good + "\n  sha256: " + "ab".repeat(32) + "\n";
    cluster.client().configMaps().inNamespace(ns).resource(
            new ConfigMapBuilder()
                .withNewMetadata().withName("argo-rollouts-config").withNamespace(ns).endMetadata()
                .withData(Map.of("stepPlugins", yaml))
                .build())
        .serverSideApply();
    controller = ControllerProcess.start(
        cluster,
        "gobad",
        "--namespace",
        ns,
        "--plugin-config-namespace",
        ns,
        "--plugin-dir",
        Path.of("target", "plugins-gobad").toAbsolutePath().toString(),
        "--plugin-handshake-timeout",
        "4",
        "--plugin-bridge",
        GoPlugins.bridge().toString());
  }

  static Path executable(Path p, String text) throws IOException {
    Files.writeString(p, text);
    Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
    return p;
  }

  @AfterAll
  static void tearDown() {
    if (controller != null) {
      controller.close();
    }
    if (!failed && ns != null) {
      cluster.deleteNamespace(ns);
    }
  }

  static Rollout createAndUpdate(String name, String plugin) {
    rollouts.create("stepplugins/rollout.yaml",
        Map.of("NAME", name, "STEPS", "[{plugin: {name: " + plugin + ", config: {return: Successful}}}, {setWeight: 50}]"));
    Rollout first = rollouts.await(name, name + " Healthy", TIMEOUT,
        r -> r.getStatus() != null && "Healthy".equals(r.getStatus().getPhase()) && r.getStatus().getStableRS() != null);
    rollouts.setImage(name, "registry.example/app:v2");
    return first;
  }

  /** Waits for a PluginUnavailable Warning on the Rollout whose message starts with the given text. */
  static String awaitUnavailable(String name, String prefix) {
    String[] found = new String[1];
    Awaitility.await(name + " PluginUnavailable " + prefix)
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofSeconds(1))
        .until(() -> {
          for (String m : rollouts.eventMessages(name, "PluginUnavailable")) {
            if (m.startsWith(prefix)) {
              found[0] = m;
              return true;
            }
          }
          return false;
        });
    return found[0];
  }

  @Test
  void brokenPluginsAreNamedWithTheirReason_andARolloutWithAWorkingPluginCompletes() {
    Rollout goodFirst = createAndUpdate("good", "step/good");
    createAndUpdate("notplugin", "step/not-a-plugin");
    createAndUpdate("silent", "step/silent");
    createAndUpdate("wrongkind", "step/router-as-step");
    createAndUpdate("badsha", "step/bad-sha");

    String m = awaitUnavailable("notplugin", "plugin step/not-a-plugin is not running: ");
    assertTrue(m.contains("exited with code 2 before its handshake line (last output: 'usage: report-tool <file>')"), m);
    m = awaitUnavailable("silent", "plugin step/silent is not running: ");
    assertTrue(m.contains("no handshake line within 4s"), m);
    m = awaitUnavailable("wrongkind", "plugin step/router-as-step is not running: ");
    assertTrue(m.contains("before its handshake line") && m.contains("This binary is a plugin"), m);
    m = awaitUnavailable("badsha", "plugin step/bad-sha is not running: ");
    assertTrue(m.contains("cannot be fetched: sha256 mismatch for file://") && m.contains("expected " + "ab".repeat(32)), m);

    // Meanwhile the Rollout whose plugin works completes, and the others wait at their plugin step.
    rollouts.await("good", "good Healthy at revision 2", TIMEOUT,
        r -> "Healthy".equals(r.getStatus().getPhase())
            && !goodFirst.getStatus().getStableRS().equals(r.getStatus().getStableRS()));
    for (String name : List.of("notplugin", "silent", "wrongkind", "badsha")) {
      Rollout r = rollouts.get(name);
      assertEquals(0, r.getStatus().getCurrentStepIndex(), name);
      assertTrue(!rollouts.eventMessages(name, "ReconciliationError").isEmpty(), name + " has no ReconciliationError");
    }
  }

  /** Keeps the namespace of a failed run for inspection. */
  static final class FailureTracker implements TestWatcher {
    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
      failed = true;
    }
  }
}
