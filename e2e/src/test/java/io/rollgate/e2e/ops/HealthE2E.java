package io.rollgate.e2e.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rollgate.e2e.support.ControllerProcess;
import io.rollgate.e2e.support.TestCluster;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * {@code /healthz} and {@code /readyz}: readiness follows the informers' sync, liveness the event
 * loop.
 */
class HealthE2E {

  @Test
  void readyzIs503UntilTheInformersSync_whileHealthzIs200() throws Exception {
    // An "API server" that accepts connections and never answers: the informers' first list hangs,
    // so the caches stay unsynced for as long as this test looks.
    List<Socket> held = new CopyOnWriteArrayList<>();
    try (ServerSocket silent = new ServerSocket(0)) {
      Thread acceptor =
          new Thread(
              () -> {
                while (!silent.isClosed()) {
                  try {
                    held.add(silent.accept());
                  } catch (IOException e) {
                    return;
                  }
                }
              },
              "silent-apiserver");
      acceptor.setDaemon(true);
      acceptor.start();
      Path kubeconfig = Files.createTempFile("silent-kubeconfig", ".yaml");
      Files.writeString(
          kubeconfig,
          "apiVersion: v1\nkind: Config\nclusters:\n- name: silent\n  cluster:\n    server: http://127.0.0.1:"
              + silent.getLocalPort()
              + "\ncontexts:\n- name: silent\n  context:\n    cluster: silent\n    user: u\n    namespace: default\n"
              + "current-context: silent\nusers:\n- name: u\n  user:\n    token: t\n");
      try (ControllerProcess unsynced =
          ControllerProcess.start(kubeconfig, "ops-health-unsynced", "--namespace", "x")) {
        Awaitility.await("/healthz answers 200")
            .atMost(Duration.ofSeconds(30))
            .pollInterval(Duration.ofMillis(200))
            .until(() -> OpsHttp.get(unsynced.healthzPort(), "/healthz").status() == 200);
        OpsHttp.Response ready = OpsHttp.get(unsynced.healthzPort(), "/readyz");
        assertEquals(503, ready.status(), ready.body());
        assertTrue(unsynced.isAlive(), "still waiting for its caches");
      } finally {
        for (Socket s : held) {
          s.close();
        }
        Files.deleteIfExists(kubeconfig);
      }
    }

    TestCluster cluster = TestCluster.get();
    String ns = cluster.createNamespace("ops-health");
    try (ControllerProcess synced =
        ControllerProcess.start(cluster, "ops-health", "--namespace", ns)) {
      Awaitility.await("/readyz answers 200 once synced")
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(200))
          .until(() -> OpsHttp.get(synced.healthzPort(), "/readyz").status() == 200);
      assertTrue(
          OpsHttp.get(synced.healthzPort(), "/readyz").body().contains("role=leader"),
          "no election: leads");
      OpsHttp.Response live = OpsHttp.get(synced.healthzPort(), "/healthz");
      assertEquals(200, live.status(), live.body());
      assertEquals(404, OpsHttp.get(synced.healthzPort(), "/nope").status());
    } finally {
      cluster.deleteNamespace(ns);
    }
  }
}
