package io.rollgate.plugins.haproxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rollgate.api.ModelJson;
import io.rollgate.api.Rollout;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The launcher the build writes ({@code target/haproxy-router}) run the way the controller runs an
 * executable plugin (docs/plugins.md: environment, handshake line, bearer cookie, {@code POST
 * /v1/<call>}), driving a real HAProxy.
 */
class HaproxyRouterLauncherIT {

  static final String NAME = "acme/haproxy";
  static Vertx vertx;
  static HaproxyProcess haproxy;
  static Process plugin;
  static String baseUrl;
  static String cookie;
  static final HttpClient HTTP =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  @BeforeAll
  static void start() throws Exception {
    vertx = Vertx.vertx();
    Map<String, int[]> servers = new LinkedHashMap<>();
    servers.put("stable", new int[] {backend("stable"), 100});
    servers.put("canary", new int[] {backend("canary"), 0});
    haproxy = HaproxyProcess.start("launcher-it", servers);

    Path launcher =
        Path.of(System.getProperty("rollgate.haproxy.launcher", "target/haproxy-router"));
    assertTrue(
        Files.isExecutable(launcher), "the build writes an executable launcher at " + launcher);
    byte[] secret = new byte[32];
    new SecureRandom().nextBytes(secret);
    cookie = HexFormat.of().formatHex(secret);
    ProcessBuilder pb =
        new ProcessBuilder(launcher.toString()).redirectError(ProcessBuilder.Redirect.INHERIT);
    pb.environment().put("ROLLGATE_PLUGIN_PROTOCOL", "1");
    pb.environment().put("ROLLGATE_PLUGIN_KIND", "trafficrouter");
    pb.environment().put("ROLLGATE_PLUGIN_NAME", NAME);
    pb.environment().put("ROLLGATE_PLUGIN_COOKIE", cookie);
    plugin = pb.start();
    BufferedReader out =
        new BufferedReader(new InputStreamReader(plugin.getInputStream(), StandardCharsets.UTF_8));
    String handshake =
        CompletableFuture.supplyAsync(
                () -> {
                  try {
                    return out.readLine();
                  } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                  }
                })
            .get(30, TimeUnit.SECONDS);
    assertTrue(
        handshake != null && handshake.matches("rollgate-plugin 1 http://127\\.0\\.0\\.1:\\d+"),
        handshake);
    baseUrl = handshake.substring("rollgate-plugin 1 ".length());
  }

  @AfterAll
  static void stop() throws Exception {
    if (plugin != null) {
      plugin.destroy();
      if (!plugin.waitFor(10, TimeUnit.SECONDS)) {
        plugin.destroyForcibly();
      }
    }
    if (haproxy != null) {
      haproxy.close();
    }
    if (vertx != null) {
      vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
  }

  private static int backend(String answer) throws Exception {
    HttpServer server =
        vertx
            .createHttpServer()
            .requestHandler(req -> req.response().end(answer))
            .listen(HaproxyProcess.freePort(), "127.0.0.1")
            .toCompletionStage()
            .toCompletableFuture()
            .get(30, TimeUnit.SECONDS);
    return server.actualPort();
  }

  private static HttpResponse<String> post(String call, JsonNode body, boolean withCookie)
      throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(baseUrl + "/v1/" + call))
            .timeout(Duration.ofSeconds(30))
            .header("Content-Type", "application/json")
            .header("Rollgate-Plugin-Protocol", "1")
            .POST(HttpRequest.BodyPublishers.ofString(ModelJson.toJson(body)));
    if (withCookie) {
      b.header("Authorization", "Bearer " + cookie);
    }
    return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static JsonNode call(String call, JsonNode body) throws Exception {
    HttpResponse<String> r = post(call, body, true);
    assertEquals(200, r.statusCode(), r.body());
    return ModelJson.mapper().readTree(r.body());
  }

  private static ObjectNode weightBody(Rollout rollout, int weight) {
    ObjectNode body = ModelJson.mapper().createObjectNode();
    body.set("rollout", ModelJson.toTree(rollout));
    body.put("desiredWeight", weight);
    body.putArray("additionalDestinations");
    return body;
  }

  @Test
  void servesTheRouterCallsAndMovesTheSplit() throws Exception {
    ObjectNode config =
        TestRollouts.config(haproxy.socketPath(), HaproxyProcess.BACKEND, "stable", "canary");
    Rollout rollout = TestRollouts.withPlugins("{\"" + NAME + "\":" + config + "}", null);

    assertEquals(401, post("init", ModelJson.mapper().createObjectNode(), false).statusCode());
    assertEquals("", call("init", ModelJson.mapper().createObjectNode()).path("error").asText());
    JsonNode info = call("info", ModelJson.mapper().createObjectNode());
    assertEquals("haproxy", info.path("type").asText());
    assertEquals(
        "[\"runtimeApi\",\"backend\",\"stableServer\",\"canaryServer\"]",
        info.path("configSchema").path("required").toString());

    for (int weight : new int[] {20, 60, 0}) {
      assertEquals(
          "", call("trafficrouter/setWeight", weightBody(rollout, weight)).path("error").asText());
      JsonNode verified = call("trafficrouter/verifyWeight", weightBody(rollout, weight));
      assertEquals("", verified.path("error").asText());
      assertTrue(verified.path("verified").asBoolean(), verified.toString());
      TrafficSplit.assertSplit(
          haproxy.frontendUrl(),
          weight == 0 ? Map.of("stable", 100) : Map.of("stable", 100 - weight, "canary", weight));
    }

    config.put("canaryServer", "canary-v2");
    Rollout wrong = TestRollouts.withPlugins("{\"" + NAME + "\":" + config + "}", null);
    assertEquals(
        "HAProxy backend \"web\" at "
            + haproxy.socketPath()
            + " has no server \"canary-v2\" "
            + "(spec.strategy.canary.trafficRouting.plugins[\"acme/haproxy\"].canaryServer)",
        call("trafficrouter/setWeight", weightBody(wrong, 10)).path("error").asText());
  }
}
