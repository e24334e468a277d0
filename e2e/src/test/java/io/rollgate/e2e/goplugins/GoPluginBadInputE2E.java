package io.rollgate.e2e.goplugins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rollgate.api.Rollout;
import io.rollgate.e2e.support.ControllerProcess;
import io.rollgate.e2e.support.GoPlugins;
import io.rollgate.e2e.support.Rollouts;
import io.rollgate.e2e.support.TestCluster;
import io.rollgate.e2e.support.TestHttpServer;
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
 * Plugins that cannot run (docs/plugins.md, "Go plugins of Argo Rollouts", "A plugin that is not
 * one"): a binary that is not a plugin, one that never prints a handshake line, a go-plugin binary
 * registered as the wrong kind (it gets another magic cookie and refuses to serve), a checksum
 * mismatch, a download that answers 404, and a plugin that panics or hangs inside a call. Each
 * Rollout that uses one gets a Warning naming the plugin and the reason, the same reason as its
 * {@code status.message}, and stays at its step, while a Rollout using a working Go plugin on the
 * same controller completes.
 */
@ExtendWith(GoPluginBadInputE2E.FailureTracker.class)
class GoPluginBadInputE2E {

  static final Duration TIMEOUT = Duration.ofSeconds(120);

  static TestCluster cluster;
  static String ns;
  static Rollouts rollouts;
  static ControllerProcess controller;
  static TestHttpServer downloads;
  static GoPluginNamespace fx;
  static boolean failed;

  @BeforeAll
  static void setUp() throws IOException {
    Path dir = Files.createDirectories(Path.of("target", "gobad-binaries").toAbsolutePath());
    Path notAPlugin =
        executable(
            dir.resolve("not-a-plugin"),
            "#!/bin/sh\necho 'usage: report-tool <file>' >&2\nexit 2\n");
    Path silent = executable(dir.resolve("silent"), "#!/bin/sh\nexec sleep 600\n");
    Path good = GoPlugins.argoTestPlugin("step-plugin-e2e");
    Path router = GoPlugins.shared("rollouts-plugin-trafficrouter-gatewayapi-v0.15.0-linux-amd64");
    Path faulty = GoPlugins.faultyStepPlugin();
    downloads =
        TestHttpServer.http()
            .route(
                "/plugins/step-plugin", r -> TestHttpServer.Response.text(404, "no such plugin"));
    String yaml =
        "- name: step/good\n  location: file://"
            + good
            + "\n"
            + "- name: step/not-a-plugin\n  location: file://"
            + notAPlugin
            + "\n"
            + "- name: step/silent\n  location: file://"
            + silent
            + "\n"
            + "- name: step/router-as-step\n  location: file://"
            + router
            + "\n"
            + "- name: step/bad-sha\n  location: file://"
            + good
            + "\n  sha256: "
            + "ab".repeat(32)
            + "\n"
            + "- name: step/gone\n  location: "
            + downloads.url("/plugins/step-plugin")
            + "\n"
            + "- name: step/panics\n  location: file://"
            + faulty
            + "\n"
            + "- name: step/hangs\n  location: file://"
            + faulty
            + "\n";
    fx =
        GoPluginNamespace.start(
            "gobad",
            Map.of("stepPlugins", yaml),
            "--plugin-handshake-timeout",
            "4",
            "--plugin-call-timeout",
            "5");
    cluster = fx.cluster;
    ns = fx.ns;
    rollouts = fx.rollouts;
    controller = fx.controller;
  }

  static Path executable(Path p, String text) throws IOException {
    Files.writeString(p, text);
    Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
    return p;
  }

  @AfterAll
  static void tearDown() {
    GoPluginNamespace.close(fx, failed);
    if (downloads != null) {
      downloads.close();
    }
  }

  static Rollout createAndUpdate(String name, String plugin) {
    return createAndUpdate(name, plugin, "{return: Successful}");
  }

  static Rollout createAndUpdate(String name, String plugin, String config) {
    rollouts.create(
        "stepplugins/rollout.yaml",
        Map.of(
            "NAME",
            name,
            "STEPS",
            "[{plugin: {name: " + plugin + ", config: " + config + "}}, {setWeight: 50}]"));
    Rollout first =
        rollouts.await(
            name,
            name + " Healthy",
            TIMEOUT,
            r ->
                r.getStatus() != null
                    && "Healthy".equals(r.getStatus().getPhase())
                    && r.getStatus().getStableRS() != null);
    rollouts.setImage(name, "registry.example/app:v2");
    return first;
  }

  /**
   * Waits for a PluginUnavailable Warning on the Rollout whose message starts with the given text.
   */
  static String awaitUnavailable(String name, String prefix) {
    String[] found = new String[1];
    Awaitility.await(name + " PluginUnavailable " + prefix)
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofSeconds(1))
        .until(
            () -> {
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

  /**
   * Waits until the Rollout is Progressing with a status message that starts with the given text.
   */
  static String awaitStatusMessage(String name, String prefix) {
    Rollout r =
        rollouts.await(
            name,
            name + " message " + prefix,
            TIMEOUT,
            x ->
                x.getStatus() != null
                    && x.getStatus().getMessage() != null
                    && x.getStatus().getMessage().startsWith(prefix));
    assertEquals("Progressing", r.getStatus().getPhase(), name);
    return r.getStatus().getMessage();
  }

  @Test
  void brokenPluginsAreNamedWithTheirReason_andARolloutWithAWorkingPluginCompletes() {
    Rollout goodFirst = createAndUpdate("good", "step/good");
    createAndUpdate("notplugin", "step/not-a-plugin");
    createAndUpdate("silent", "step/silent");
    createAndUpdate("wrongkind", "step/router-as-step");
    createAndUpdate("badsha", "step/bad-sha");

    String m = awaitUnavailable("notplugin", "plugin step/not-a-plugin is not running: ");
    assertTrue(
        m.contains(
            "exited with code 2 before its handshake line (last output: 'usage: report-tool <file>')"),
        m);
    m = awaitUnavailable("silent", "plugin step/silent is not running: ");
    assertTrue(m.contains("no handshake line within 4s"), m);
    m = awaitUnavailable("wrongkind", "plugin step/router-as-step is not running: ");
    assertTrue(m.contains("before its handshake line") && m.contains("This binary is a plugin"), m);
    m = awaitUnavailable("badsha", "plugin step/bad-sha is not running: ");
    assertTrue(
        m.contains("cannot be fetched: sha256 mismatch for file://")
            && m.contains("expected " + "ab".repeat(32)),
        m);

    // Meanwhile the Rollout whose plugin works completes, and the others wait at their plugin step.
    rollouts.await(
        "good",
        "good Healthy at revision 2",
        TIMEOUT,
        r ->
            "Healthy".equals(r.getStatus().getPhase())
                && !goodFirst.getStatus().getStableRS().equals(r.getStatus().getStableRS()));
    for (String name : List.of("notplugin", "silent", "wrongkind", "badsha")) {
      Rollout r = rollouts.get(name);
      assertEquals(0, r.getStatus().getCurrentStepIndex(), name);
      assertTrue(
          !rollouts.eventMessages(name, "ReconciliationError").isEmpty(),
          name + " has no ReconciliationError");
    }
    // The reason is also the Rollout's status message, where kubectl argo rollouts get and Argo CD
    // show it.
    m = awaitStatusMessage("notplugin", "plugin step/not-a-plugin is not running: ");
    assertTrue(m.contains("exited with code 2 before its handshake line"), m);
    m = awaitStatusMessage("silent", "plugin step/silent is not running: ");
    assertTrue(m.contains("no handshake line within 4s"), m);
    m = awaitStatusMessage("badsha", "plugin step/bad-sha is not running: ");
    assertTrue(m.contains("sha256 mismatch"), m);
  }

  @Test
  void aDownloadThat404sAndAPluginThatPanicsOrHangs_areNamedInEventsAndStatus_andOthersProgress() {
    Rollout goodFirst = createAndUpdate("good2", "step/good");
    createAndUpdate("gone", "step/gone");
    createAndUpdate("panics", "step/panics", "{do: panic}");
    createAndUpdate("hangs", "step/hangs", "{do: hang}");

    String m = awaitUnavailable("gone", "plugin step/gone is not running: ");
    assertTrue(m.contains("HTTP 404"), m);
    m = awaitStatusMessage("gone", "plugin step/gone is not running: ");
    assertTrue(m.contains("HTTP 404"), m);
    assertTrue(
        !downloads.requests("/plugins/step-plugin").isEmpty(),
        "the controller never asked for the download");

    // A panic ends the plugin's process inside the call: the step is in Error with go-plugin's
    // reason, retried.
    m = awaitStatusMessage("panics", "Step plugin step/panics (step 1) transitioned to Error: ");
    assertTrue(m.contains("unexpected EOF"), m);
    assertTrue(
        rollouts
            .eventMessages("panics", "StepPluginTransition")
            .contains("Step plugin step/panics (step 1) transitioned to Error"),
        "no StepPluginTransition to Error");

    // A hang: the call times out after --plugin-call-timeout.
    m = awaitStatusMessage("hangs", "plugin step/hangs");
    assertTrue(m.contains("5s") || m.contains("timed out"), m);

    rollouts.await(
        "good2",
        "good2 Healthy at revision 2",
        TIMEOUT,
        r ->
            "Healthy".equals(r.getStatus().getPhase())
                && !goodFirst.getStatus().getStableRS().equals(r.getStatus().getStableRS()));
    for (String name : List.of("gone", "panics", "hangs")) {
      assertEquals(0, rollouts.get(name).getStatus().getCurrentStepIndex(), name);
    }
    assertTrue(controller.isAlive(), "the controller process ended");
  }

  /** Keeps the namespace of a failed run for inspection. */
  static final class FailureTracker implements TestWatcher {
    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
      failed = true;
    }
  }
}
