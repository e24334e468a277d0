package io.rollgate.e2e.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.rollgate.api.Rollout;
import io.rollgate.api.TrafficWeights;
import io.rollgate.e2e.support.ControllerLog;
import io.rollgate.e2e.support.ControllerProcess;
import io.rollgate.e2e.support.Rollouts;
import io.rollgate.e2e.support.TestCluster;
import io.rollgate.e2e.support.TestHttpServer;
import io.rollgate.plugin.sdk.PluginDispatcher;
import io.rollgate.plugin.sdk.PluginServer;
import io.vertx.core.Vertx;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * Traffic-router plugins run by the controller's plugin host, registered in {@code
 * argo-rollouts-config} as a user registers them: an executable ({@code file://} and {@code
 * http://} with {@code sha256}) launching a Java plugin served by the SDK's {@code PluginServer},
 * and an {@code endpoint}. The plugin stands in for a data plane: it records the weights it is told
 * to carry, and the tests check them at each step along with the Rollout's status, events, {@code
 * /metrics} and the audit log; then the registry is edited without a restart, the checksum is
 * wrong, the plugin process is killed, and the plugin hangs past {@code --plugin-call-timeout}.
 */
@ExtendWith(PluginRouterE2E.FailureTracker.class)
class PluginRouterE2E {

  static final Duration TIMEOUT = Duration.ofSeconds(120);
  static final int CALL_TIMEOUT_SECONDS = 8;

  static TestCluster cluster;
  static KubernetesClient client;
  static String ns;
  static Rollouts rollouts;
  static ControllerProcess controller;
  static Path work;
  static Path script;
  static final Map<String, String> registry = new LinkedHashMap<>();
  static boolean failed;

  @BeforeAll
  static void setUp() throws IOException {
    cluster = TestCluster.get();
    client = cluster.client();
    ns = cluster.createNamespace("plugins");
    rollouts = new Rollouts(client, ns);
    work = Files.createDirectories(Path.of("target", "plugin-e2e-" + ns).toAbsolutePath());
    script = launcher(work.resolve("recording-router"));
    writeRegistry();
    controller =
        ControllerProcess.start(
            cluster,
            "plugins",
            "--namespace",
            ns,
            "--plugin-config-namespace",
            ns,
            "--plugin-dir",
            work.resolve("plugin-bin").toString(),
            "--plugin-call-timeout",
            String.valueOf(CALL_TIMEOUT_SECONDS),
            // A JVM plugin on a busy shared machine can take longer than the default 10 s to start.
            "--plugin-handshake-timeout",
            "60");
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

  /**
   * The executable a user would install: a launcher script that runs {@link RecordingRouterPlugin}.
   */
  static Path launcher(Path path) throws IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String text =
        "#!/bin/sh\n"
            + "exec '"
            + java
            + "' -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xmx96m -cp '"
            + System.getProperty("java.class.path")
            + "' "
            + RecordingRouterPlugin.class.getName()
            + " \"$@\"\n";
    Files.writeString(path, text);
    Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rwxr-xr-x"));
    return path;
  }

  // -------------------------------------------------------------------------------------------------------------
  // Fixtures

  /**
   * The registry entry of a plugin launched from {@link #script}, recording to {@code calls(name)}.
   */
  static String fileEntry(String name, String extra) {
    return "- name: "
        + name
        + "\n  location: file://"
        + script
        + "\n  args: ['"
        + calls(name)
        + "', '"
        + hangFile(name)
        + "']\n"
        + extra;
  }

  static Path calls(String plugin) {
    return work.resolve(plugin.replace('/', '_') + ".calls");
  }

  static Path hangFile(String plugin) {
    return work.resolve(plugin.replace('/', '_') + ".hang");
  }

  static void register(String name, String entry) {
    registry.put(name, entry);
    writeRegistry();
  }

  static void unregister(String name) {
    registry.remove(name);
    writeRegistry();
  }

  static void writeRegistry() {
    String data = String.join("", registry.values());
    client
        .configMaps()
        .inNamespace(ns)
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName("argo-rollouts-config")
                .withNamespace(ns)
                .endMetadata()
                .addToData("trafficRouterPlugins", data)
                .build())
        .createOr(c -> c.update());
  }

  static String read(String resource) {
    try (InputStream in = PluginRouterE2E.class.getClassLoader().getResourceAsStream(resource)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Creates the Services and a 2-replica canary Rollout routed by {@code plugin}, and waits until
   * it is Healthy.
   */
  static void createRollout(String name, String plugin) {
    String yaml = read("traffic/services.yaml").replace("${NAME}", name);
    for (HasMetadata item :
        client.load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8))).items()) {
      client.resource(item).inNamespace(ns).create();
    }
    String canary =
        "{\"stableService\":\""
            + name
            + "-stable\",\"canaryService\":\""
            + name
            + "-canary\","
            + "\"trafficRouting\":{\"plugins\":{\""
            + plugin
            + "\":{\"backend\":\""
            + name
            + "\"}}},"
            + "\"steps\":[{\"setWeight\":20},{\"pause\":{}},{\"setWeight\":50},{\"pause\":{}}]}";
    rollouts.create(
        "traffic/rollout.yaml", Map.of("NAME", name, "REPLICAS", "2", "CANARY", canary));
  }

  static Rollout awaitHealthy(String name) {
    return rollouts.await(
        name,
        name + " Healthy",
        TIMEOUT,
        r ->
            r.getStatus() != null
                && "Healthy".equals(r.getStatus().getPhase())
                && r.getStatus().getCurrentPodHash() != null
                && r.getStatus().getCurrentPodHash().equals(r.getStatus().getStableRS())
                && String.valueOf(r.getMetadata().getGeneration())
                    .equals(r.getStatus().getObservedGeneration()));
  }

  static Rollout awaitPausedAt(String name, int step, int weight) {
    return rollouts.await(
        name,
        name + " paused at step " + step + " with canary weight " + weight,
        TIMEOUT,
        r ->
            r.getStatus() != null
                && "Paused".equals(r.getStatus().getPhase())
                && Integer.valueOf(step).equals(r.getStatus().getCurrentStepIndex())
                && canaryWeight(r) == weight);
  }

  static int canaryWeight(Rollout r) {
    TrafficWeights w =
        r.getStatus() == null || r.getStatus().getCanary() == null
            ? null
            : r.getStatus().getCanary().getWeights();
    return w == null || w.getCanary() == null || w.getCanary().getWeight() == null
        ? -1
        : w.getCanary().getWeight();
  }

  static List<String> callsOf(String plugin) {
    try {
      Path p = calls(plugin);
      return Files.exists(p) ? Files.readAllLines(p) : List.of();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static List<Long> pids(String plugin) {
    return callsOf(plugin).stream()
        .filter(l -> l.startsWith("started "))
        .map(l -> Long.parseLong(l.substring(8)))
        .toList();
  }

  /** The weights the plugin was told to set for a Rollout, in order. */
  static List<Integer> weightsSet(List<String> calls, String rollout) {
    String prefix = "setWeight " + rollout + " ";
    return calls.stream()
        .filter(l -> l.startsWith(prefix))
        .map(l -> Integer.parseInt(l.substring(prefix.length())))
        .toList();
  }

  static <T> T await(String what, Supplier<T> read, java.util.function.Predicate<T> ok) {
    Object[] last = new Object[1];
    try {
      Awaitility.await(what)
          .atMost(TIMEOUT)
          .pollInterval(Duration.ofMillis(250))
          .ignoreExceptions()
          .until(
              () -> {
                T v = read.get();
                last[0] = v;
                return ok.test(v);
              });
    } catch (ConditionTimeoutException e) {
      throw new AssertionError("timed out waiting for " + what + "; last seen: " + last[0], e);
    }
    @SuppressWarnings("unchecked")
    T v = (T) last[0];
    return v;
  }

  static String awaitEvent(String rollout, String reason, String... contains) {
    List<String> messages =
        await(
            reason + " event on " + rollout + " containing " + List.of(contains),
            () -> rollouts.eventMessages(rollout, reason),
            ms -> ms.stream().anyMatch(m -> List.of(contains).stream().allMatch(m::contains)));
    return messages.stream()
        .filter(m -> List.of(contains).stream().allMatch(m::contains))
        .findFirst()
        .orElseThrow();
  }

  static void setImage(String name, String image) {
    rollouts.setImage(name, image);
  }

  static String metrics() throws IOException, InterruptedException {
    HttpResponse<String> r =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + controller.metricsPort() + "/metrics"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    return r.body();
  }

  static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  // -------------------------------------------------------------------------------------------------------------
  // Scenarios

  @Test
  void pluginRouterCarriesTheWeightOfEachStep() throws Exception {
    String plugin = "e2e/recorder";
    register(plugin, fileEntry(plugin, ""));
    createRollout("web", plugin);
    Rollout healthy = awaitHealthy("web");
    String stableHash = healthy.getStatus().getStableRS();

    setImage("web", "registry.example/app:v2");
    Rollout paused = awaitPausedAt("web", 1, 20);
    String canaryHash = paused.getStatus().getCurrentPodHash();
    List<String> calls = callsOf(plugin);
    assertTrue(calls.contains("setWeight web 20"), calls.toString());
    assertTrue(calls.contains("updateHash web " + canaryHash + " " + stableHash), calls.toString());
    assertTrue(calls.contains("verifyWeight web 20"), calls.toString());
    assertEquals(Boolean.TRUE, paused.getStatus().getCanary().getWeights().getVerified());

    rollouts.promote("web");
    awaitPausedAt("web", 3, 50);
    assertTrue(callsOf(plugin).contains("setWeight web 50"), callsOf(plugin).toString());

    rollouts.promote("web");
    awaitHealthy("web");
    List<Integer> weights =
        await(
            "the plugin told to send everything to the new stable",
            () -> weightsSet(callsOf(plugin), "web"),
            w -> !w.isEmpty() && w.get(w.size() - 1) == 0);
    int at20 = weights.indexOf(20);
    int at50 = weights.indexOf(50);
    assertTrue(at20 >= 0 && at50 > at20, "weights in order: " + weights);
    assertTrue(pids(plugin).size() >= 1, callsOf(plugin).toString());

    String exposition = metrics();
    assertTrue(
        exposition
            .lines()
            .anyMatch(
                l ->
                    l.startsWith("rollgate_plugin_calls_total{")
                        && l.contains("plugin=\"e2e/recorder\"")
                        && l.contains("call=\"trafficrouter/setWeight\"")
                        && l.contains("outcome=\"success\"")
                        && l.contains("kind=\"trafficrouter\"")),
        "rollgate_plugin_calls_total for setWeight in:\n" + exposition);
    assertTrue(
        exposition
            .lines()
            .anyMatch(
                l ->
                    l.startsWith("rollgate_plugin_call_duration_seconds_count{")
                        && l.contains("plugin=\"e2e/recorder\"")),
        "rollgate_plugin_call_duration_seconds in:\n" + exposition);
    assertTrue(
        ControllerLog.of(controller).lines().stream()
            .anyMatch(
                l ->
                    l.contains(
                            "plugin call plugin=e2e/recorder kind=trafficrouter"
                                + " call=trafficrouter/setWeight rollout="
                                + ns
                                + "/web")
                        && l.contains("outcome=success")),
        "audit line in the controller log");
  }

  @Test
  void registryEditsApplyWithoutRestart() {
    String plugin = "e2e/reload";
    register(plugin, fileEntry(plugin, ""));
    createRollout("reload", plugin);
    awaitHealthy("reload");
    setImage("reload", "registry.example/app:v2");
    awaitPausedAt("reload", 1, 20);
    long firstPid = pids(plugin).get(0);

    unregister(plugin);
    await(
        "the unregistered plugin's process to be stopped",
        () -> ProcessHandle.of(firstPid).map(ProcessHandle::isAlive).orElse(false),
        alive -> !alive);
    rollouts.promote("reload");
    String msg =
        awaitEvent(
            "reload",
            "TrafficRoutingError",
            "plugin e2e/reload is not available: not registered in "
                + ns
                + "/argo-rollouts-config (trafficRouterPlugins)");
    assertTrue(msg.startsWith("e2e/reload: failed to ") && msg.contains(" via plugin: "), msg);
    assertEquals(
        20, canaryWeight(rollouts.get("reload")), "the weight stays where the router last put it");

    register(plugin, fileEntry(plugin, ""));
    awaitPausedAt("reload", 3, 50);
    assertTrue(
        pids(plugin).size() >= 2, "a new process for the new registration: " + callsOf(plugin));
    rollouts.promote("reload");
    awaitHealthy("reload");
  }

  @Test
  void checksumMismatchWarnsTheRolloutAndOthersProceed() throws IOException {
    String bad = "e2e/tampered";
    String zeros = "0".repeat(64);
    register(bad, fileEntry(bad, "  sha256: \"" + zeros + "\"\n"));
    String good = "e2e/bystander";
    register(good, fileEntry(good, ""));
    createRollout("tampered", bad);
    createRollout("bystander", good);

    String warning =
        awaitEvent(
            "tampered",
            "PluginUnavailable",
            "plugin e2e/tampered",
            "sha256 mismatch",
            "expected " + zeros);
    assertTrue(warning.contains("got " + sha256(Files.readAllBytes(script))), warning);
    awaitEvent("tampered", "TrafficRoutingError", "e2e/tampered", "sha256 mismatch");
    assertEquals(List.of(), pids(bad), "a plugin that fails its checksum never runs");

    awaitHealthy("bystander");
    setImage("bystander", "registry.example/app:v2");
    awaitPausedAt("bystander", 1, 20);

    register(bad, fileEntry(bad, "  sha256: \"" + sha256(Files.readAllBytes(script)) + "\"\n"));
    awaitHealthy("tampered");
    assertTrue(pids(bad).size() >= 1, "the plugin runs once its checksum matches");
  }

  @Test
  void downloadsTheExecutableOverHttpAndVerifiesIt() throws IOException {
    String plugin = "e2e/downloaded";
    byte[] bytes = Files.readAllBytes(script);
    try (TestHttpServer server = TestHttpServer.http()) {
      server.route(
          "/plugins/recording-router",
          req -> TestHttpServer.Response.text(200, new String(bytes, StandardCharsets.UTF_8)));
      register(
          plugin,
          "- name: "
              + plugin
              + "\n  location: "
              + server.url("/plugins/recording-router")
              + "\n  sha256: \""
              + sha256(bytes)
              + "\"\n  args: ['"
              + calls(plugin)
              + "']\n");
      createRollout("fetched", plugin);
      awaitHealthy("fetched");
      setImage("fetched", "registry.example/app:v2");
      awaitPausedAt("fetched", 1, 20);
      assertTrue(callsOf(plugin).contains("setWeight fetched 20"), callsOf(plugin).toString());
      assertEquals(1, server.requests("/plugins/recording-router").size(), "downloaded once");
      Path installed = work.resolve("plugin-bin/trafficrouter/e2e/downloaded");
      assertEquals(sha256(bytes), sha256(Files.readAllBytes(installed)));
      assertTrue(Files.isExecutable(installed));
    }
  }

  @Test
  void endpointPluginIsCalledWhereItRuns() throws Exception {
    String plugin = "e2e/remote";
    Vertx vertx = Vertx.vertx();
    try {
      PluginServer server =
          PluginServer.start(
                  vertx,
                  PluginDispatcher.of(new RecordingRouterPlugin(calls(plugin), null)),
                  PluginServer.Options.endpoint("127.0.0.1", 0))
              .toCompletionStage()
              .toCompletableFuture()
              .get(30, TimeUnit.SECONDS);
      register(plugin, "- name: " + plugin + "\n  endpoint: " + server.baseUrl() + "\n");
      createRollout("remote", plugin);
      awaitHealthy("remote");
      setImage("remote", "registry.example/app:v2");
      awaitPausedAt("remote", 1, 20);
      assertTrue(callsOf(plugin).contains("setWeight remote 20"), callsOf(plugin).toString());
      rollouts.promote("remote");
      awaitPausedAt("remote", 3, 50);
    } finally {
      vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
  }

  @Test
  void killedPluginProcessIsStartedAgainAndTheRolloutCompletes() {
    String plugin = "e2e/crashy";
    register(plugin, fileEntry(plugin, ""));
    createRollout("crashy", plugin);
    awaitHealthy("crashy");
    setImage("crashy", "registry.example/app:v2");
    awaitPausedAt("crashy", 1, 20);
    long pid = pids(plugin).get(0);
    ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
    await(
        "plugin process " + pid + " gone",
        () -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false),
        alive -> !alive);

    rollouts.promote("crashy");
    awaitPausedAt("crashy", 3, 50);
    rollouts.promote("crashy");
    awaitHealthy("crashy");
    List<Long> all = pids(plugin);
    assertTrue(all.size() >= 2, "started again after the kill: " + callsOf(plugin));
    assertTrue(
        ProcessHandle.of(all.get(1)).map(ProcessHandle::isAlive).orElse(false),
        "the new process runs");
  }

  @Test
  void hangingPluginTimesOutWithoutHoldingOtherRollouts() throws IOException {
    String plugin = "e2e/hanging";
    register(plugin, fileEntry(plugin, ""));
    String other = "e2e/steady";
    register(other, fileEntry(other, ""));
    createRollout("slow", plugin);
    createRollout("steady", other);
    awaitHealthy("slow");
    awaitHealthy("steady");
    setImage("slow", "registry.example/app:v2");
    awaitPausedAt("slow", 1, 20);

    Files.writeString(hangFile(plugin), "");
    rollouts.promote("slow");
    awaitEvent(
        "slow",
        "TrafficRoutingError",
        "plugin e2e/hanging: trafficrouter/",
        "timed out after " + CALL_TIMEOUT_SECONDS + "s");

    setImage("steady", "registry.example/app:v2");
    awaitPausedAt("steady", 1, 20);
    assertTrue(canaryWeight(rollouts.get("slow")) == 20, "the hung router's Rollout has not moved");

    Files.delete(hangFile(plugin));
    awaitPausedAt("slow", 3, 50);
  }

  @Test
  void pluginProcessesDoNotOutliveAKilledController() {
    String plugin = "e2e/orphan";
    register(plugin, fileEntry(plugin, ""));
    createRollout("orphan", plugin);
    awaitHealthy("orphan");
    setImage("orphan", "registry.example/app:v2");
    awaitPausedAt("orphan", 1, 20);
    long pid = pids(plugin).get(0);
    assertTrue(
        ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "plugin process runs");

    controller.kill();
    await(
        "plugin process " + pid + " to exit after the controller was killed with SIGKILL",
        () -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false),
        alive -> !alive);

    controller.restart();
    rollouts.promote("orphan");
    awaitPausedAt("orphan", 3, 50);
    List<Long> all = pids(plugin);
    assertTrue(
        all.size() >= 2,
        "the restarted controller started its own plugin process: " + callsOf(plugin));
    assertTrue(
        ProcessHandle.of(all.get(all.size() - 1)).map(ProcessHandle::isAlive).orElse(false),
        "the new process runs");
  }

  /** Keeps the namespace of a failed run for inspection. */
  static final class FailureTracker implements TestWatcher {
    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
      failed = true;
    }
  }
}
