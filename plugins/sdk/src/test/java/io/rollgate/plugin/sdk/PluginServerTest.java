package io.rollgate.plugin.sdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.rollgate.api.ModelJson;
import io.rollgate.api.Rollout;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The SDK's HTTP server: cookie check, protocol header, paths, bodies and the answers of a step
 * plugin.
 */
class PluginServerTest {

  static final String COOKIE = "c".repeat(64);
  Vertx vertx;
  PluginServer server;
  final HttpClient http = HttpClient.newHttpClient();

  static final class EchoStep implements StepPlugin {
    @Override
    public JsonNode configSchema() {
      return ModelJson.mapper().createObjectNode().put("type", "object");
    }

    @Override
    public Future<StepResult> run(Rollout rollout, StepContext context) {
      if (context.config() != null && context.config().path("fail").asBoolean()) {
        throw new IllegalStateException("config says fail");
      }
      return Future.succeededFuture(
          StepResult.running(
              rollout.getMetadata().getName() + " step " + context.stepIndex(),
              15,
              TextNode.valueOf("job-7")));
    }

    @Override
    public Future<StepResult> terminate(Rollout rollout, StepContext context) {
      return Future.succeededFuture(
          StepResult.successful("terminated " + context.status().asText(), null));
    }

    @Override
    public Future<StepResult> abort(Rollout rollout, StepContext context) {
      return Future.succeededFuture(StepResult.error("cannot abort"));
    }
  }

  @BeforeEach
  void setUp() throws Exception {
    vertx = Vertx.vertx();
    server =
        PluginServer.start(
                vertx,
                PluginDispatcher.of(new EchoStep()),
                new PluginServer.Options("127.0.0.1", 0, COOKIE, null, null))
            .toCompletionStage()
            .toCompletableFuture()
            .get(10, TimeUnit.SECONDS);
  }

  @AfterEach
  void tearDown() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  HttpResponse<String> post(String path, String body, String cookie) throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(server.baseUrl() + path))
            .header(PluginProtocol.HEADER_PROTOCOL, "1")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (cookie != null) {
      b.header("Authorization", "Bearer " + cookie);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  static final String ROLLOUT =
      "{\"apiVersion\":\"argoproj.io/v1alpha1\",\"kind\":\"Rollout\",\"metadata\":{\"name\":\"web\"}}";

  @Test
  void answersRunWithPhaseMessageRequeueAndStatus() throws Exception {
    HttpResponse<String> r =
        post(
            "/v1/step/run",
            "{\"rollout\":" + ROLLOUT + ",\"context\":{\"pluginName\":\"a/b\",\"stepIndex\":2}}",
            COOKIE);
    assertEquals(200, r.statusCode());
    JsonNode a = ModelJson.mapper().readTree(r.body());
    assertEquals("Running", a.get("phase").asText());
    assertEquals("web step 2", a.get("message").asText());
    assertEquals(15, a.get("requeueAfterSeconds").asInt());
    assertEquals("job-7", a.get("status").asText());
    assertEquals("", a.get("error").asText());
  }

  @Test
  void sendsTheStoredStatusBackAndReportsPluginErrors() throws Exception {
    JsonNode t =
        ModelJson.mapper()
            .readTree(
                post(
                        "/v1/step/terminate",
                        "{\"rollout\":"
                            + ROLLOUT
                            + ",\"context\":{\"stepIndex\":0,\"status\":\"job-7\"}}",
                        COOKIE)
                    .body());
    assertEquals("Successful", t.get("phase").asText());
    assertEquals("terminated job-7", t.get("message").asText());
    JsonNode a =
        ModelJson.mapper()
            .readTree(
                post(
                        "/v1/step/abort",
                        "{\"rollout\":" + ROLLOUT + ",\"context\":{\"stepIndex\":0}}",
                        COOKIE)
                    .body());
    assertEquals("cannot abort", a.get("error").asText());
    JsonNode thrown =
        ModelJson.mapper()
            .readTree(
                post(
                        "/v1/step/run",
                        "{\"rollout\":"
                            + ROLLOUT
                            + ",\"context\":{\"stepIndex\":0,\"config\":{\"fail\":true}}}",
                        COOKIE)
                    .body());
    assertEquals("config says fail", thrown.get("error").asText());
  }

  @Test
  void refusesRequestsWithoutTheCookie() throws Exception {
    assertEquals(401, post("/v1/init", "{}", null).statusCode());
    assertEquals(401, post("/v1/init", "{}", "d".repeat(64)).statusCode());
    assertEquals(200, post("/v1/init", "{}", COOKIE).statusCode());
  }

  @Test
  void badRequestsNameTheProblem() throws Exception {
    HttpResponse<String> garbage = post("/v1/step/run", "{not json", COOKIE);
    assertEquals(400, garbage.statusCode());
    assertTrue(garbage.body().contains("body is not JSON"), garbage.body());
    HttpResponse<String> noRollout = post("/v1/step/run", "{\"context\":{}}", COOKIE);
    assertEquals(400, noRollout.statusCode());
    assertTrue(noRollout.body().contains("rollout: must be an object"), noRollout.body());
    assertEquals(404, post("/v1/trafficrouter/setWeight", "{}", COOKIE).statusCode());
    assertEquals(404, post("/v2/init", "{}", COOKIE).statusCode());
  }

  @Test
  void infoGivesTypeAndSchema() throws Exception {
    JsonNode info = ModelJson.mapper().readTree(post("/v1/info", "{}", COOKIE).body());
    assertEquals("EchoStep", info.get("type").asText());
    assertEquals("object", info.get("configSchema").get("type").asText());
  }

  @Test
  void serveRefusesAnEnvironmentThatIsNotTheControllers() {
    IllegalStateException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            IllegalStateException.class,
            () -> PluginServer.serve(PluginDispatcher.of(new EchoStep()), java.util.Map.of()));
    assertTrue(e.getMessage().contains("started by the Rollgate controller"), e.getMessage());
    IllegalStateException kind =
        org.junit.jupiter.api.Assertions.assertThrows(
            IllegalStateException.class,
            () ->
                PluginServer.serve(
                    PluginDispatcher.of(new EchoStep()),
                    java.util.Map.of(
                        PluginProtocol.ENV_PROTOCOL,
                        "1",
                        PluginProtocol.ENV_COOKIE,
                        COOKIE,
                        PluginProtocol.ENV_KIND,
                        "trafficrouter")));
    assertEquals(
        "registered as a trafficrouter plugin, but this is a step plugin", kind.getMessage());
  }
}
