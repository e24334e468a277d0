package io.rollgate.plugins.cijob;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rollgate.api.Rollout;
import io.rollgate.plugin.sdk.StepContext;
import io.rollgate.plugin.sdk.StepPlugin;
import io.rollgate.plugin.sdk.StepResult;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A step plugin that starts a job on an HTTP CI server and polls it until it ends (the reference
 * step plugin, docs/plugins.md). The job id is kept in the step's plugin status, so a restarted
 * controller polls the same job instead of starting another one.
 *
 * <p>The CI server's API (JSON over HTTP, optional {@code Authorization: Bearer <token>}):
 *
 * <ul>
 *   <li>{@code POST <url>/jobs} with {@code {"job", "parameters", "rollout", "stepIndex"}}: starts
 *       a job, answers {@code 200} or {@code 201} with {@code {"id": "<job id>"}};
 *   <li>{@code GET <url>/jobs/<id>}: answers {@code {"id", "state", "message"}}, {@code state} one
 *       of {@code queued}, {@code running}, {@code succeeded}, {@code failed}, {@code cancelled};
 *   <li>{@code POST <url>/jobs/<id>/cancel}: cancels it ({@code 200}; {@code 409} when it had
 *       already ended).
 * </ul>
 *
 * <p>{@code run}: no job yet ⇒ start one, {@code Running}; then {@code succeeded} ⇒ {@code
 * Successful}, {@code failed}/{@code cancelled} ⇒ {@code Failed} (the Rollout aborts), else {@code
 * Running} again after {@code pollIntervalSeconds}. An unreachable server or an error status is a
 * plugin error (the controller retries after 30 s, keeping the job id). {@code terminate} and
 * {@code abort} cancel the job.
 */
public final class CiJobStepPlugin implements StepPlugin {

  private static final Logger LOG = LoggerFactory.getLogger(CiJobStepPlugin.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final WebClient http;
  private final TokenSource tokens;

  /**
   * Creates the plugin.
   *
   * @param http the HTTP client for the CI server
   * @param tokens where bearer tokens come from
   */
  public CiJobStepPlugin(WebClient http, TokenSource tokens) {
    this.http = http;
    this.tokens = tokens;
  }

  @Override
  public String type() {
    return "ci-job";
  }

  @Override
  public JsonNode configSchema() {
    try {
      return JSON.readTree(CiJobConfig.SCHEMA);
    } catch (IOException e) {
      throw new IllegalStateException("bad built-in schema", e);
    }
  }

  @Override
  public Future<StepResult> run(Rollout rollout, StepContext context) {
    CiJobConfig config;
    try {
      config = CiJobConfig.parse(context.config());
    } catch (IllegalArgumentException e) {
      return Future.succeededFuture(StepResult.failed(e.getMessage(), null));
    }
    String jobId = jobId(context.status());
    return token(rollout, config)
        .compose(
            token ->
                jobId == null ? start(rollout, context, config, token) : poll(config, token, jobId))
        .recover(err -> Future.succeededFuture(StepResult.error(message(err))));
  }

  @Override
  public Future<StepResult> terminate(Rollout rollout, StepContext context) {
    return cancel(rollout, context, "terminated");
  }

  @Override
  public Future<StepResult> abort(Rollout rollout, StepContext context) {
    return cancel(rollout, context, "aborted");
  }

  private Future<StepResult> start(
      Rollout rollout, StepContext context, CiJobConfig config, String token) {
    ObjectNode body = JSON.createObjectNode();
    body.put("job", config.job());
    ObjectNode params = body.putObject("parameters");
    config.parameters().forEach(params::put);
    body.put(
        "rollout", rollout.getMetadata().getNamespace() + "/" + rollout.getMetadata().getName());
    body.put("stepIndex", context.stepIndex());
    return send(config, token, HttpMethod.POST, "/jobs", body)
        .map(
            resp -> {
              if (resp.statusCode() != 200 && resp.statusCode() != 201) {
                return StepResult.error(unexpected("POST", config, "/jobs", resp));
              }
              JsonNode answer = parse(resp);
              String id = answer == null ? null : answer.path("id").asText(null);
              if (id == null || id.isEmpty()) {
                return StepResult.error(
                    "CI server started job " + config.job() + " but answered no job id");
              }
              LOG.info(
                  "started job {} ({}) for {}/{} step {}",
                  id,
                  config.job(),
                  rollout.getMetadata().getNamespace(),
                  rollout.getMetadata().getName(),
                  context.stepIndex() + 1);
              String state = answer.path("state").asText("");
              if (state.isEmpty() || "queued".equals(state) || "running".equals(state)) {
                return StepResult.running(
                    "job " + id + " (" + config.job() + ") started",
                    config.pollIntervalSeconds(),
                    status(id, config));
              }
              // The server may report a job that ended at once.
              return result(config, id, state, answer.path("message").asText(""));
            });
  }

  private Future<StepResult> poll(CiJobConfig config, String token, String id) {
    String path = "/jobs/" + encode(id);
    return send(config, token, HttpMethod.GET, path, null)
        .map(
            resp -> {
              if (resp.statusCode() == 404) {
                return StepResult.failed(
                    "job " + id + " (" + config.job() + ") no longer exists on the CI server",
                    status(id, config));
              }
              if (resp.statusCode() != 200) {
                return StepResult.error(unexpected("GET", config, path, resp));
              }
              JsonNode answer = parse(resp);
              String state = answer == null ? "" : answer.path("state").asText("");
              String detail = answer == null ? "" : answer.path("message").asText("");
              return result(config, id, state, detail);
            });
  }

  /**
   * The step result for a job state: succeeded, failed or cancelled end the step; queued and
   * running poll again.
   */
  private static StepResult result(CiJobConfig config, String id, String state, String detail) {
    String what =
        "job " + id + " (" + config.job() + ") " + state + (detail.isEmpty() ? "" : ": " + detail);
    switch (state) {
      case "succeeded":
        return StepResult.successful(what, status(id, config));
      case "failed":
      case "cancelled":
        return StepResult.failed(what, status(id, config));
      case "queued":
      case "running":
        return StepResult.running(what, config.pollIntervalSeconds(), status(id, config));
      default:
        return StepResult.error(
            "CI server answered an unknown state \"" + state + "\" for job " + id);
    }
  }

  private Future<StepResult> cancel(Rollout rollout, StepContext context, String why) {
    String id = jobId(context.status());
    if (id == null) {
      return Future.succeededFuture(StepResult.successful("no job was started", context.status()));
    }
    CiJobConfig config;
    try {
      config = CiJobConfig.parse(context.config());
    } catch (IllegalArgumentException e) {
      return Future.succeededFuture(StepResult.failed(e.getMessage(), context.status()));
    }
    String path = "/jobs/" + encode(id) + "/cancel";
    return token(rollout, config)
        .compose(
            token ->
                send(
                    config,
                    token,
                    HttpMethod.POST,
                    path,
                    JSON.createObjectNode().put("reason", why)))
        .map(
            resp -> {
              if (resp.statusCode() == 200
                  || resp.statusCode() == 202
                  || resp.statusCode() == 204) {
                LOG.info("cancelled job {} ({}): rollout {}", id, config.job(), why);
                return StepResult.successful(
                    "job " + id + " (" + config.job() + ") cancelled", context.status());
              }
              if (resp.statusCode() == 409 || resp.statusCode() == 404) {
                return StepResult.successful(
                    "job " + id + " (" + config.job() + ") had already ended", context.status());
              }
              return StepResult.error(unexpected("POST", config, path, resp));
            })
        .recover(err -> Future.succeededFuture(StepResult.error(message(err))));
  }

  private Future<String> token(Rollout rollout, CiJobConfig config) {
    if (config.tokenSecretName() == null) {
      return Future.succeededFuture(null);
    }
    return tokens.token(
        rollout.getMetadata().getNamespace(), config.tokenSecretName(), config.tokenSecretKey());
  }

  private Future<HttpResponse<Buffer>> send(
      CiJobConfig config, String token, HttpMethod method, String path, JsonNode body) {
    HttpRequest<Buffer> req =
        http.requestAbs(method, config.url() + path)
            .timeout(config.timeoutSeconds() * 1000)
            .putHeader("Accept", "application/json");
    if (token != null) {
      req.bearerTokenAuthentication(token);
    }
    Future<HttpResponse<Buffer>> sent =
        body == null
            ? req.send()
            : req.putHeader("Content-Type", "application/json")
                .sendBuffer(Buffer.buffer(body.toString()));
    return sent.recover(
        err ->
            Future.failedFuture(
                new IllegalStateException(
                    "cannot reach the CI server ("
                        + method
                        + " "
                        + config.url()
                        + path
                        + "): "
                        + message(err),
                    err)));
  }

  private static ObjectNode status(String id, CiJobConfig config) {
    return JSON.createObjectNode().put("jobId", id).put("job", config.job());
  }

  private static String jobId(JsonNode status) {
    if (status == null || !status.isObject()) {
      return null;
    }
    String id = status.path("jobId").asText(null);
    return id == null || id.isEmpty() ? null : id;
  }

  private static JsonNode parse(HttpResponse<Buffer> resp) {
    try {
      Buffer b = resp.body();
      return b == null || b.length() == 0 ? null : JSON.readTree(b.getBytes());
    } catch (IOException e) {
      return null;
    }
  }

  private static String unexpected(
      String method, CiJobConfig config, String path, HttpResponse<Buffer> resp) {
    String body = resp.bodyAsString();
    if (body != null && body.length() > 200) {
      body = body.substring(0, 200) + "...";
    }
    return "CI server answered "
        + resp.statusCode()
        + " to "
        + method
        + " "
        + config.url()
        + path
        + (body == null || body.isBlank() ? "" : ": " + body.trim());
  }

  private static String encode(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
  }

  private static String message(Throwable err) {
    return err.getMessage() == null ? err.toString() : err.getMessage();
  }
}
