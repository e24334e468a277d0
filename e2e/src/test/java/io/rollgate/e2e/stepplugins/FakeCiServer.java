package io.rollgate.e2e.stepplugins;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A local CI server speaking the job API of the {@code ci-job} step plugin ({@code POST /jobs},
 * {@code GET /jobs/<id>}, {@code POST /jobs/<id>/cancel}), whose jobs do what the test says per job
 * name: succeed or fail (at once or after some polls), run until released, answer 500, or not
 * answer polls at all. Every start and cancel is logged in order.
 */
final class FakeCiServer implements AutoCloseable {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** What the jobs of one name do. */
  static final class Script {
    /** The state a job ends in: {@code succeeded} or {@code failed}. */
    volatile String finalState = "succeeded";

    /** Polls before the job ends (0: it has ended when the start is answered). */
    volatile int polls;

    /** The message of an ended job. */
    volatile String message = "";

    /** While true, jobs keep running whatever the polls. */
    volatile boolean hold;

    /** While true, polls of running jobs get no answer (the connection is left open). */
    volatile boolean hangPolls;

    /** While non-zero, every request about these jobs is answered with this HTTP status. */
    volatile int failWith;
  }

  /** One job. */
  static final class Job {
    final String id;
    final String name;
    final String rollout;
    final int stepIndex;
    final String authorization;
    volatile int polls;
    volatile boolean cancelled;

    Job(String id, String name, String rollout, int stepIndex, String authorization) {
      this.id = id;
      this.name = name;
      this.rollout = rollout;
      this.stepIndex = stepIndex;
      this.authorization = authorization;
    }
  }

  private final HttpServer server;
  private final ExecutorService executor;
  private final Map<String, Script> scripts = new ConcurrentHashMap<>();
  private final Map<String, Job> jobs = new ConcurrentHashMap<>();
  private final List<String> log = new CopyOnWriteArrayList<>();
  private final List<HttpExchange> pending = new CopyOnWriteArrayList<>();
  private final AtomicInteger ids = new AtomicInteger();

  FakeCiServer() {
    try {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    executor =
        Executors.newCachedThreadPool(
            r -> {
              Thread t = new Thread(r, "fake-ci");
              t.setDaemon(true);
              return t;
            });
    server.setExecutor(executor);
    server.createContext("/", this::dispatch);
    server.start();
  }

  /** The base URL of the job API. */
  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** The script of a job name (created with the defaults: succeeds at once). */
  Script script(String jobName) {
    return scripts.computeIfAbsent(jobName, k -> new Script());
  }

  /**
   * Every start ({@code start <job> <rollout> <step index> <id>}) and cancel ({@code cancel <job>
   * <id>}), in order.
   */
  List<String> log() {
    return List.copyOf(log);
  }

  /** The log lines about the jobs of one Rollout ({@code namespace/name}). */
  List<String> log(String rollout) {
    List<String> out = new ArrayList<>();
    for (String line : log) {
      String[] f = line.split(" ");
      Job j = jobs.get(f[f.length - 1]);
      if (j != null && j.rollout.equals(rollout)) {
        out.add(line);
      }
    }
    return out;
  }

  /** The jobs started for one Rollout. */
  List<Job> jobs(String rollout) {
    return jobs.values().stream().filter(j -> j.rollout.equals(rollout)).toList();
  }

  private String state(Job job, Script s) {
    if (job.cancelled) {
      return "cancelled";
    }
    if (s.hold || job.polls < s.polls) {
      return "running";
    }
    return s.finalState;
  }

  private void dispatch(HttpExchange ex) throws IOException {
    try {
      String path = ex.getRequestURI().getPath();
      String method = ex.getRequestMethod();
      String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      if (method.equals("POST") && path.equals("/jobs")) {
        JsonNode req = JSON.readTree(body);
        String name = req.path("job").asText();
        Script s = script(name);
        if (s.failWith != 0) {
          answer(ex, s.failWith, JSON.createObjectNode().put("error", "CI is down"));
          return;
        }
        String id = "job-" + ids.incrementAndGet();
        Job job =
            new Job(
                id,
                name,
                req.path("rollout").asText(),
                req.path("stepIndex").asInt(-1),
                ex.getRequestHeaders().getFirst("Authorization"));
        jobs.put(id, job);
        log.add("start " + name + " " + job.rollout + " " + job.stepIndex + " " + id);
        answer(ex, 201, view(job, s));
        return;
      }
      String[] parts = path.split("/");
      Job job = parts.length >= 3 && parts[1].equals("jobs") ? jobs.get(parts[2]) : null;
      if (job == null) {
        answer(ex, 404, JSON.createObjectNode().put("error", "no such job"));
        return;
      }
      Script s = script(job.name);
      if (s.failWith != 0) {
        answer(ex, s.failWith, JSON.createObjectNode().put("error", "CI is down"));
        return;
      }
      if (method.equals("GET") && parts.length == 3) {
        if (s.hangPolls && "running".equals(state(job, s))) {
          pending.add(ex);
          return;
        }
        job.polls++;
        answer(ex, 200, view(job, s));
        return;
      }
      if (method.equals("POST") && parts.length == 4 && parts[3].equals("cancel")) {
        log.add("cancel " + job.name + " " + job.id);
        if (!"running".equals(state(job, s))) {
          answer(ex, 409, JSON.createObjectNode().put("error", "job already ended"));
          return;
        }
        job.cancelled = true;
        answer(ex, 200, view(job, s));
        return;
      }
      answer(ex, 404, JSON.createObjectNode().put("error", "no route"));
    } catch (RuntimeException e) {
      answer(ex, 500, JSON.createObjectNode().put("error", String.valueOf(e)));
    }
  }

  private ObjectNode view(Job job, Script s) {
    String state = state(job, s);
    ObjectNode n =
        JSON.createObjectNode().put("id", job.id).put("job", job.name).put("state", state);
    if (!"running".equals(state)) {
      n.put("message", job.cancelled ? "cancelled by request" : s.message);
    }
    return n;
  }

  private static void answer(HttpExchange ex, int status, JsonNode body) throws IOException {
    byte[] bytes = body.toString().getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().set("Content-Type", "application/json");
    ex.sendResponseHeaders(status, bytes.length);
    ex.getResponseBody().write(bytes);
    ex.close();
  }

  /** Answers nothing more to the polls left waiting (closes them). */
  void releaseHungPolls() {
    for (HttpExchange e : pending) {
      e.close();
    }
    pending.clear();
  }

  @Override
  public void close() {
    releaseHungPolls();
    server.stop(0);
    executor.shutdownNow();
  }
}
