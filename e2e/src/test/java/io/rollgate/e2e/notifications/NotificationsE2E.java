package io.rollgate.e2e.notifications;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.rollgate.api.Rollout;
import io.rollgate.e2e.support.ControllerProcess;
import io.rollgate.e2e.support.GoPlugins;
import io.rollgate.e2e.support.Rollouts;
import io.rollgate.e2e.support.SmtpServer;
import io.rollgate.e2e.support.TestCluster;
import io.rollgate.e2e.support.TestHttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Argo Rollouts notifications (docs/notifications.md) as a migrating team has them: upstream's own
 * notification catalog (the ConfigMap its install manifests ship, read from the argo-rollouts
 * module), a webhook service and Slack pointed at a local HTTP receiver, e-mail to a real SMTP
 * server, and subscriptions by annotation on the Rollouts. Each test asserts the messages received:
 * their rendered text, their order, and that each arrives once.
 */
class NotificationsE2E {

  static final Duration TIMEOUT = Duration.ofSeconds(90);

  static TestCluster cluster;
  static String ns;
  static Rollouts rollouts;
  static ControllerProcess controller;
  static TestHttpServer receiver;
  static SmtpServer smtp;

  @BeforeAll
  static void setUp() throws IOException {
    cluster = TestCluster.get();
    ns = cluster.createNamespace("notify");
    rollouts = new Rollouts(cluster.client(), ns);
    receiver =
        TestHttpServer.http()
            .route("/hook", r -> TestHttpServer.Response.text(200, "ok"))
            .route(
                "/slack/chat.postMessage",
                r ->
                    TestHttpServer.Response.json(
                        200, "{\"ok\":true,\"channel\":\"C1\",\"ts\":\"1.0\"}"));
    smtp = SmtpServer.start();
    Map<String, String> data = new LinkedHashMap<>(catalog());
    data.put("service.webhook.hook", "url: " + receiver.url("/hook") + "\n");
    data.put("service.slack", "token: $slack-token\napiURL: " + receiver.url("/slack/") + "\n");
    data.put(
        "service.email",
        "host: 127.0.0.1\nport: " + smtp.port() + "\nfrom: rollouts@example.test\n");
    applyConfig(ns, data, Map.of("slack-token", "xoxb-e2e"));
    cluster.client().resource(load("notifications/template-fail.yaml")).inNamespace(ns).create();
    controller = startController(ns, "notify");
  }

  @AfterAll
  static void tearDown() {
    if (controller != null) {
      controller.close();
    }
    if (receiver != null) {
      receiver.close();
    }
    if (smtp != null) {
      smtp.close();
    }
    if (ns != null) {
      cluster.deleteNamespace(ns);
    }
  }

  static ControllerProcess startController(String namespace, String name) {
    return ControllerProcess.start(
        cluster, name, "--namespace", namespace, "--plugin-bridge", GoPlugins.bridge().toString());
  }

  /**
   * Upstream's notification catalog: the data of the ConfigMap in its {@code
   * manifests/notifications-install.yaml}.
   */
  static Map<String, String> catalog() throws IOException {
    String dir = System.getenv("ROLLGATE_ARGO_ROLLOUTS_MODULE");
    Path module = dir == null || dir.isBlank() ? moduleDir() : Path.of(dir);
    try (InputStream in =
        Files.newInputStream(module.resolve("manifests/notifications-install.yaml"))) {
      ConfigMap cm = cluster.client().getKubernetesSerialization().unmarshal(in, ConfigMap.class);
      return cm.getData();
    }
  }

  private static Path moduleDir() throws IOException {
    Process p =
        new ProcessBuilder(
                Path.of("..", "bridge", "build").toAbsolutePath().normalize().toString(),
                "--module-dir")
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    return Path.of(out.substring(out.lastIndexOf('\n') + 1));
  }

  static void applyConfig(String namespace, Map<String, String> data, Map<String, String> secret) {
    KubernetesClient client = cluster.client();
    client
        .configMaps()
        .inNamespace(namespace)
        .resource(
            new io.fabric8.kubernetes.api.model.ConfigMapBuilder()
                .withNewMetadata()
                .withName("argo-rollouts-notification-configmap")
                .endMetadata()
                .withData(data)
                .build())
        .serverSideApply();
    client
        .secrets()
        .inNamespace(namespace)
        .resource(
            new SecretBuilder()
                .withNewMetadata()
                .withName("argo-rollouts-notification-secret")
                .endMetadata()
                .withStringData(secret)
                .build())
        .serverSideApply();
  }

  static HasMetadata load(String resource) {
    try (InputStream in = NotificationsE2E.class.getClassLoader().getResourceAsStream(resource)) {
      return cluster.client().getKubernetesSerialization().unmarshal(in, HasMetadata.class);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static Rollout createRollout(
      Rollouts in, String name, Map<String, String> subscriptions, String stepsJson) {
    StringBuilder json = new StringBuilder("{");
    subscriptions.forEach(
        (k, v) ->
            json.append(json.length() > 1 ? "," : "")
                .append("\"notifications.argoproj.io/subscribe.")
                .append(k)
                .append("\":\"")
                .append(v)
                .append('"'));
    json.append('}');
    return in.create(
        "notifications/canary.yaml",
        Map.of("NAME", name, "SUBSCRIPTIONS", json.toString(), "STEPS", stepsJson));
  }

  static Rollout awaitPhase(Rollouts in, String name, String phase) {
    return in.await(
        name,
        name + " " + phase,
        TIMEOUT,
        r ->
            r.getStatus() != null
                && phase.equals(r.getStatus().getPhase())
                && String.valueOf(r.getMetadata().getGeneration())
                    .equals(r.getStatus().getObservedGeneration()));
  }

  /** The bodies the webhook service delivered that mention a Rollout, in arrival order. */
  static List<String> hookMessages(String rollout) {
    List<String> out = new ArrayList<>();
    for (TestHttpServer.Request r : receiver.requests("/hook")) {
      if (r.body().contains("Rollout " + rollout + " ")
          || r.body().contains("Rollout " + rollout + "'")) {
        out.add(r.body());
      }
    }
    return out;
  }

  /** The form fields of each Slack chat.postMessage call for a Rollout, in arrival order. */
  static List<Map<String, String>> slackMessages(String rollout) {
    List<Map<String, String>> out = new ArrayList<>();
    for (TestHttpServer.Request r : receiver.requests("/slack/chat.postMessage")) {
      Map<String, String> form = new LinkedHashMap<>();
      for (String pair : r.body().split("&")) {
        int eq = pair.indexOf('=');
        if (eq > 0) {
          form.put(
              URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
              URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
      }
      if (form.getOrDefault("text", "").contains("Rollout " + rollout + " ")) {
        out.add(form);
      }
    }
    return out;
  }

  static <T> List<T> awaitCount(String what, int n, Supplier<List<T>> source) {
    Awaitility.await(what + " (" + n + ")")
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(250))
        .until(() -> source.get().size() >= n);
    return source.get();
  }

  /** Polls for a few seconds and fails if more than n arrive: each notification is sent once. */
  static <T> void staysAt(String what, int n, Supplier<List<T>> source) {
    Awaitility.await(what + " stays at " + n)
        .during(Duration.ofSeconds(4))
        .atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(250))
        .until(() -> source.get().size() == n);
  }

  static String scrape(ControllerProcess c) throws Exception {
    HttpResponse<String> r =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + c.metricsPort() + "/metrics"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    return r.body();
  }

  @Test
  void canaryPausePromoteAndCompleteNotifyEachSubscriberOnceInOrderWithUpstreamsCatalogText()
      throws Exception {
    Map<String, String> subs = new LinkedHashMap<>();
    subs.put("on-rollout-completed.hook", "");
    subs.put("on-rollout-step-completed.hook", "");
    subs.put("on-rollout-paused.slack", "deploys");
    subs.put("on-rollout-paused.email", "team@example.test");
    createRollout(rollouts, "shop", subs, "[{\"setWeight\": 50}, {\"pause\": {}}]");
    awaitPhase(rollouts, "shop", "Healthy");
    rollouts.setImage("shop", "registry.example/app:v2");
    awaitPhase(rollouts, "shop", "Paused");
    awaitCount("slack messages for shop", 1, () -> slackMessages("shop"));
    rollouts.promote("shop");
    awaitPhase(rollouts, "shop", "Healthy");

    List<String> expectedHook =
        List.of(
            "Rollout shop has been completed.",
            "Rollout shop step number 1/2 has been completed.",
            "Rollout shop step number 2/2 has been completed.",
            "Rollout shop has been completed.");
    assertEquals(
        expectedHook, awaitCount("webhook messages for shop", 4, () -> hookMessages("shop")));
    staysAt("webhook messages for shop", 4, () -> hookMessages("shop"));

    List<Map<String, String>> slack = slackMessages("shop");
    assertEquals(1, slack.size(), slack.toString());
    Map<String, String> paused = slack.get(0);
    assertEquals("deploys", paused.get("channel"));
    assertEquals("Rollout shop has been paused.", paused.get("text"));
    assertEquals("xoxb-e2e", paused.get("token"), "the token comes from the Secret's slack-token");
    String attachments = paused.get("attachments");
    assertTrue(
        attachments.contains("\"title\":\"shop\"")
            && attachments.contains("\"value\":\"Canary\"")
            && attachments.contains("\"title\":\"app\"")
            && attachments.contains("\"value\":\"registry.example/app:v2\"")
            && attachments.contains("\"color\":\"#18be52\""),
        attachments);

    List<SmtpServer.Mail> mails = awaitCount("e-mails", 1, smtp::messages);
    assertEquals(1, mails.size(), mails.toString());
    SmtpServer.Mail mail = mails.get(0);
    assertEquals("Rollout shop has been paused.", mail.header("Subject"));
    assertTrue(mail.header("To").contains("team@example.test"), mail.headers().toString());
    assertTrue(mail.header("From").contains("rollouts@example.test"), mail.headers().toString());
    assertEquals("Rollout shop has been paused.", mail.body().strip());

    String metrics = scrape(controller);
    String labels =
        "namespace=\"" + ns + "\",name=\"shop\",type=\"Normal\",reason=\"RolloutPaused\"";
    assertTrue(metrics.contains("notification_send_success{" + labels + "} 2"), metrics);
    assertTrue(
        metrics.contains("notification_send_count{namespace=\"" + ns + "\",name=\"shop\"}"),
        metrics);
  }

  @Test
  void aFailedAnalysisNotifiesTheFailureAndTheAbort() {
    Map<String, String> subs = new LinkedHashMap<>();
    subs.put("on-analysis-run-failed.hook", "");
    subs.put("on-rollout-aborted.slack", "deploys");
    createRollout(
        rollouts,
        "checkout",
        subs,
        "[{\"setWeight\": 50}, {\"analysis\": {\"templates\": [{\"templateName\": \"never-passes\"}]}}]");
    awaitPhase(rollouts, "checkout", "Healthy");
    rollouts.setImage("checkout", "registry.example/app:v2");
    awaitPhase(rollouts, "checkout", "Degraded");

    assertEquals(
        List.of("Rollout checkout's analysis run failed."),
        awaitCount("webhook messages for checkout", 1, () -> hookMessages("checkout")));
    List<Map<String, String>> slack =
        awaitCount("slack messages for checkout", 1, () -> slackMessages("checkout"));
    assertEquals("Rollout checkout has been aborted.", slack.get(0).get("text"));
    assertTrue(
        slack.get(0).get("attachments").contains("\"color\":\"#E01E5A\""),
        slack.get(0).get("attachments"));
    staysAt("webhook messages for checkout", 1, () -> hookMessages("checkout"));
    assertEquals(1, slackMessages("checkout").size());
  }

  @Test
  void aRestartedControllerNeitherRepeatsNorLosesANotification() {
    Map<String, String> subs = new LinkedHashMap<>();
    subs.put("on-rollout-step-completed.hook", "");
    subs.put("on-rollout-paused.hook", "");
    createRollout(
        rollouts,
        "restart",
        subs,
        "[{\"setWeight\": 25}, {\"pause\": {}}, {\"setWeight\": 75}, {\"pause\": {}}]");
    awaitPhase(rollouts, "restart", "Healthy");
    rollouts.setImage("restart", "registry.example/app:v2");
    awaitPhase(rollouts, "restart", "Paused");
    List<String> first =
        List.of(
            "Rollout restart step number 1/4 has been completed.",
            "Rollout restart has been paused.");
    assertEquals(
        first, awaitCount("webhook messages for restart", 2, () -> hookMessages("restart")));

    controller.restart();
    // The new process reads the paused Rollout again; it must not announce that pause a second
    // time.
    staysAt("webhook messages for restart after the restart", 2, () -> hookMessages("restart"));
    rollouts.promote("restart");
    List<String> all = new ArrayList<>(first);
    all.add("Rollout restart step number 2/4 has been completed.");
    all.add("Rollout restart step number 3/4 has been completed.");
    all.add("Rollout restart has been paused.");
    assertEquals(all, awaitCount("webhook messages for restart", 5, () -> hookMessages("restart")));
    staysAt("webhook messages for restart", 5, () -> hookMessages("restart"));
  }

  @Test
  void aBrokenConfigurationIsNamedAndTheRestKeepsFlowing() throws Exception {
    String other = cluster.createNamespace("notify-bad");
    Rollouts in = new Rollouts(cluster.client(), other);
    ControllerProcess c = null;
    try {
      Map<String, String> data = new LinkedHashMap<>();
      data.put("service.webhook.hook", "url: " + receiver.url("/hook") + "\n");
      data.put("service.slack", "token: $no-such-key\napiURL: " + receiver.url("/slack/") + "\n");
      data.put("template.broken", "message: 'Rollout {{.rollout.metadata.name has been paused.'\n");
      data.put(
          "template.good",
          "message: 'Rollout {{.rollout.metadata.name}} is complete ({{.serviceType}}).'\n");
      data.put("trigger.on-rollout-paused", "- send: [broken]\n");
      data.put("trigger.on-rollout-completed", "- send: [good]\n");
      applyConfig(other, data, Map.of());
      c = startController(other, "notify-bad");
      Map<String, String> subs = new LinkedHashMap<>();
      subs.put("on-rollout-paused.hook", "");
      subs.put("on-rollout-completed.hook", "");
      subs.put("on-rollout-completed.pager", "oncall");
      createRollout(in, "broken", subs, "[{\"pause\": {}}]");
      awaitPhase(in, "broken", "Healthy");
      in.setImage("broken", "registry.example/app:v2");
      awaitPhase(in, "broken", "Paused");
      in.promote("broken");
      awaitPhase(in, "broken", "Healthy");

      assertEquals(
          List.of("Rollout broken is complete (hook).", "Rollout broken is complete (hook)."),
          awaitCount("webhook messages for broken", 2, () -> hookMessages("broken")));
      ControllerProcess started = c;
      Awaitility.await("the controller log names each problem")
          .atMost(TIMEOUT)
          .pollInterval(Duration.ofMillis(250))
          .until(
              () -> {
                String log = Files.readString(started.log());
                return log.contains("key template.broken:")
                    && log.contains(
                        "refers to $no-such-key, but Secret "
                            + other
                            + "/argo-rollouts-notification-secret has no key no-such-key")
                    && log.contains(
                        "notification failed ns="
                            + other
                            + " name=broken trigger=on-rollout-paused destination=hook")
                    && log.contains(
                        "template.broken in "
                            + other
                            + "/argo-rollouts-notification-configmap is invalid")
                    && log.contains("destination=pager:oncall")
                    && log.contains("service pager is not defined");
              });
      String metrics = scrape(c);
      assertTrue(
          metrics.contains(
              "notification_send_error{namespace=\""
                  + other
                  + "\",name=\"broken\",type=\"Normal\",reason=\"RolloutPaused\"} 1"),
          metrics);
      assertTrue(
          metrics.contains(
              "notification_send_success{namespace=\""
                  + other
                  + "\",name=\"broken\",type=\"Normal\",reason=\"RolloutCompleted\"} 2"),
          metrics);
      assertTrue(c.isAlive(), "the controller keeps running");
    } finally {
      if (c != null) {
        c.close();
      }
      cluster.deleteNamespace(other);
    }
  }

  @Test
  void selfServiceAlsoReadsTheRolloutsOwnNamespace() {
    String home = cluster.createNamespace("notify-home");
    String team = cluster.createNamespace("notify-team");
    Rollouts in = new Rollouts(cluster.client(), team);
    ControllerProcess c = null;
    try {
      Map<String, String> homeConfig = new LinkedHashMap<>();
      homeConfig.put("service.webhook.hook", "url: " + receiver.url("/hook") + "\n");
      homeConfig.put("trigger.on-rollout-completed", "- send: [home]\n");
      homeConfig.put(
          "template.home", "message: 'home: Rollout {{.rollout.metadata.name}} done.'\n");
      applyConfig(home, homeConfig, Map.of());
      Map<String, String> teamConfig = new LinkedHashMap<>();
      teamConfig.put("service.webhook.teamhook", "url: " + receiver.url("/hook") + "\n");
      teamConfig.put("trigger.on-rollout-completed", "- send: [team]\n");
      teamConfig.put(
          "template.team", "message: 'team: Rollout {{.rollout.metadata.name}} done.'\n");
      applyConfig(team, teamConfig, Map.of());
      Map<String, String> subs = new LinkedHashMap<>();
      subs.put("on-rollout-completed.hook", "");
      subs.put("on-rollout-completed.teamhook", "");

      c =
          ControllerProcess.start(
              cluster,
              "notify-home",
              "--namespace",
              team,
              "--plugin-config-namespace",
              home,
              "--plugin-bridge",
              GoPlugins.bridge().toString());
      createRollout(in, "solo", subs, "[{\"setWeight\": 50}]");
      awaitPhase(in, "solo", "Healthy");
      assertEquals(
          List.of("home: Rollout solo done."),
          awaitCount("messages for solo", 1, () -> hookMessages("solo")));
      c.close();

      c =
          ControllerProcess.start(
              cluster,
              "notify-self-service",
              "--namespace",
              team,
              "--plugin-config-namespace",
              home,
              "--self-service-notification-enabled",
              "--plugin-bridge",
              GoPlugins.bridge().toString());
      createRollout(in, "both", subs, "[{\"setWeight\": 50}]");
      awaitPhase(in, "both", "Healthy");
      List<String> both = awaitCount("messages for both", 2, () -> hookMessages("both"));
      assertEquals(
          List.of("home: Rollout both done.", "team: Rollout both done."),
          both.stream().sorted().toList(),
          both.toString());
      staysAt("messages for solo", 1, () -> hookMessages("solo"));
    } finally {
      if (c != null) {
        c.close();
      }
      cluster.deleteNamespace(team);
      cluster.deleteNamespace(home);
    }
  }
}
