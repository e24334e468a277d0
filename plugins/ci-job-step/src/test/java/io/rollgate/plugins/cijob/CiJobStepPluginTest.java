package io.rollgate.plugins.cijob;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.rollgate.api.Rollout;
import io.rollgate.plugin.sdk.StepContext;
import io.rollgate.plugin.sdk.StepPhase;
import io.rollgate.plugin.sdk.StepResult;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.client.WebClient;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The {@code ci-job} plugin against a small CI server on loopback. */
class CiJobStepPluginTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private Vertx vertx;
  private HttpServer server;
  private CiJobStepPlugin plugin;

  /** Answers by "METHOD path": status and body. */
  private final Map<String, Object[]> answers = new ConcurrentHashMap<>();

  private final List<String> requests = new CopyOnWriteArrayList<>();

  @BeforeEach
  void start() throws Exception {
    vertx = Vertx.vertx();
    server =
        vertx
            .createHttpServer()
            .requestHandler(
                req ->
                    req.body()
                        .onSuccess(
                            body -> {
                              String key = req.method() + " " + req.path();
                              requests.add(key + " " + req.getHeader("Authorization") + " " + body);
                              Object[] a = answers.getOrDefault(key, new Object[] {404, "{}"});
                              req.response().setStatusCode((Integer) a[0]).end((String) a[1]);
                            }))
            .listen(0, "127.0.0.1")
            .await(10, TimeUnit.SECONDS);
    plugin =
        new CiJobStepPlugin(
            WebClient.create(vertx),
            (ns, name, key) ->
                "ci".equals(name) && "token".equals(key)
                    ? Future.succeededFuture("t0k")
                    : Future.failedFuture("Secret " + ns + "/" + name + " not found"));
  }

  @AfterEach
  void stop() throws Exception {
    vertx.close().await(10, TimeUnit.SECONDS);
  }

  private JsonNode config(String extra) throws Exception {
    return JSON.readTree(
        "{\"url\":\"http://127.0.0.1:"
            + server.actualPort()
            + "\",\"job\":\"smoke\""
            + extra
            + "}");
  }

  private static Rollout rollout() {
    Rollout r = new Rollout();
    r.setMetadata(new ObjectMetaBuilder().withNamespace("shop").withName("web").build());
    return r;
  }

  private static JsonNode status(String id) {
    return JSON.createObjectNode().put("jobId", id).put("job", "smoke");
  }

  private StepResult run(JsonNode config, JsonNode status) throws Exception {
    return plugin
        .run(rollout(), new StepContext("example/ci-job", 2, config, status))
        .await(10, TimeUnit.SECONDS);
  }

  @Test
  void startsAJobWithTheTokenAndKeepsItsId() throws Exception {
    answers.put("POST /jobs", new Object[] {201, "{\"id\":\"42\",\"state\":\"queued\"}"});
    StepResult r =
        run(
            config(
                ",\"parameters\":{\"env\":\"qa\"},\"tokenSecret\":{\"name\":\"ci\"},\"pollIntervalSeconds\":20"),
            null);
    assertEquals(StepPhase.Running, r.phase());
    assertEquals(20L, r.requeueAfterSeconds());
    assertEquals(status("42"), r.status());
    assertEquals(1, requests.size());
    String req = requests.get(0);
    assertTrue(req.startsWith("POST /jobs Bearer t0k "), req);
    JsonNode body = JSON.readTree(req.substring("POST /jobs Bearer t0k ".length()));
    assertEquals("smoke", body.path("job").asText());
    assertEquals("qa", body.path("parameters").path("env").asText());
    assertEquals("shop/web", body.path("rollout").asText());
    assertEquals(2, body.path("stepIndex").asInt());
  }

  @Test
  void pollsTheStoredJobInsteadOfStartingAnother() throws Exception {
    answers.put("GET /jobs/42", new Object[] {200, "{\"id\":\"42\",\"state\":\"running\"}"});
    assertEquals(StepPhase.Running, run(config(""), status("42")).phase());
    answers.put(
        "GET /jobs/42",
        new Object[] {200, "{\"id\":\"42\",\"state\":\"succeeded\",\"message\":\"green\"}"});
    StepResult done = run(config(""), status("42"));
    assertEquals(StepPhase.Successful, done.phase());
    assertEquals("job 42 (smoke) succeeded: green", done.message());
    answers.put(
        "GET /jobs/42",
        new Object[] {200, "{\"id\":\"42\",\"state\":\"failed\",\"message\":\"red\"}"});
    StepResult failed = run(config(""), status("42"));
    assertEquals(StepPhase.Failed, failed.phase());
    assertEquals("job 42 (smoke) failed: red", failed.message());
    assertTrue(requests.stream().noneMatch(r -> r.startsWith("POST /jobs ")), requests.toString());
  }

  @Test
  void serverErrorsAndUnreachableServersArePluginErrors() throws Exception {
    answers.put("GET /jobs/42", new Object[] {500, "boom"});
    StepResult r = run(config(""), status("42"));
    assertNull(r.phase());
    assertEquals(
        "CI server answered 500 to GET http://127.0.0.1:" + server.actualPort() + "/jobs/42: boom",
        r.error());
    StepResult missingSecret = run(config(",\"tokenSecret\":{\"name\":\"other\"}"), null);
    assertEquals("Secret shop/other not found", missingSecret.error());
  }

  @Test
  void aBadConfigFailsTheStepNamingTheField() throws Exception {
    StepResult r = run(JSON.readTree("{\"url\":\"http://ci\"}"), null);
    assertEquals(StepPhase.Failed, r.phase());
    assertEquals("config.job: required", r.message());
    assertTrue(requests.isEmpty());
  }

  @Test
  void abortAndTerminateCancelTheJob() throws Exception {
    answers.put("POST /jobs/42/cancel", new Object[] {200, "{}"});
    StepResult aborted =
        plugin
            .abort(rollout(), new StepContext("example/ci-job", 2, config(""), status("42")))
            .await(10, TimeUnit.SECONDS);
    assertEquals(StepPhase.Successful, aborted.phase());
    assertEquals("job 42 (smoke) cancelled", aborted.message());
    answers.put("POST /jobs/42/cancel", new Object[] {409, "{}"});
    StepResult terminated =
        plugin
            .terminate(rollout(), new StepContext("example/ci-job", 2, config(""), status("42")))
            .await(10, TimeUnit.SECONDS);
    assertEquals(StepPhase.Successful, terminated.phase());
    assertEquals("job 42 (smoke) had already ended", terminated.message());
    StepResult nothing =
        plugin
            .abort(rollout(), new StepContext("example/ci-job", 2, config(""), null))
            .await(10, TimeUnit.SECONDS);
    assertEquals("no job was started", nothing.message());
    assertEquals(2, requests.size());
  }
}
