package io.rollgate.controller.plugin;

import com.fasterxml.jackson.databind.JsonNode;
import io.rollgate.api.ModelJson;
import io.rollgate.plugin.PluginEntry;
import io.rollgate.plugin.sdk.PluginProtocol;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An executable plugin ({@code location: file://} or {@code http(s)://}) and its process supervisor
 * (docs/plugins.md, "Executable plugins"): fetched and verified once, started lazily on the first
 * call with {@code args} and the {@code ROLLGATE_PLUGIN_*} environment, its handshake line (the
 * first line on standard output that starts with {@code rollgate-plugin}; earlier lines, such as a
 * logging library's start-up output, are logged) read within the handshake timeout (10 s by
 * default), then {@code init} sent once. A process that exits, fails to start, or stops answering
 * ({@value #MAX_TRANSPORT_FAILURES} transport failures in a row) is started again after a {@link
 * RestartBackoff} delay (a Vert.x timer); meanwhile calls fail at once with {@code plugin <name> is
 * not running: <why>}. Later lines on standard output and standard error go to the controller's
 * log, prefixed with the plugin name.
 *
 * <p>Go plugins of Argo Rollouts (docs/plugins.md, "Go plugins of Argo Rollouts"): the first start
 * also carries Argo Rollouts' magic cookie ({@code ARGO_ROLLOUTS_RPC_PLUGIN=<kind>}); when the
 * first line is a go-plugin handshake line instead, the process is stopped, the binary's SHA-256 is
 * remembered as go-plugin, and it is started through {@code rollgate-plugin-bridge}, which speaks
 * protocol v1 to the controller. Supervision, timeouts and restarts then apply to the bridge, which
 * exits when its plugin does.
 *
 * <p>State lives on the host's Vert.x context. The process is started on a worker; its two output
 * streams are read by two daemon threads (a pipe has no non-blocking reader in the JDK), which hand
 * each line to the context.
 */
final class ExecutablePlugin implements PluginInstance {

  /** How long the controller waits for the handshake line by default (docs/plugins.md). */
  static final Duration HANDSHAKE_TIMEOUT = Duration.ofSeconds(10);

  /** Transport failures in a row after which the process is considered hung and restarted. */
  static final int MAX_TRANSPORT_FAILURES = 3;

  private static final Logger LOG = LoggerFactory.getLogger(ExecutablePlugin.class);
  private static final Logger PLUGIN_LOG = LoggerFactory.getLogger("io.rollgate.plugin.output");
  private static final SecureRandom RANDOM = new SecureRandom();

  /** A line a process marks as debug output: "[DEBUG]" or "level=debug" near its start. */
  private static final java.util.regex.Pattern DEBUG_LINE =
      java.util.regex.Pattern.compile("^.{0,40}(\\[DEBUG\\]|level=debug\\b)");

  private static final long KILL_GRACE_MILLIS = 5_000;

  private enum State {
    IDLE,
    STARTING,
    RUNNING,
    DOWN,
    CLOSED
  }

  /**
   * A started process and how to reach it; {@code bridged} when it is the bridge in front of a
   * go-plugin binary.
   */
  private record Running(
      Process process, String baseUrl, String cookie, Instant startedAt, boolean bridged) {}

  /**
   * The first line of a process started directly was a go-plugin handshake line: it needs the
   * bridge.
   */
  private static final class GoPluginDetected extends IllegalStateException {
    private final String line;

    GoPluginDetected(String line) {
      super("speaks go-plugin (Argo Rollouts' plugin protocol)");
      this.line = line;
    }
  }

  private final Vertx vertx;
  private final Context context;
  private final String kind;
  private final PluginEntry entry;
  private final PluginFetcher fetcher;
  private final PluginHttpClient http;
  private final Clock clock;
  private final RestartBackoff backoff = new RestartBackoff();
  private final Consumer<String> onDown;
  private final Duration handshakeTimeout;
  private final PluginBridge bridge;
  private final Map<String, Boolean> goPluginBySha;
  private final java.util.function.Supplier<Map<String, String>> extraEnv;

  /**
   * Where the executable comes from: fetched and verified from the registration, or located (the
   * bridge's modes).
   */
  private final java.util.function.Supplier<Future<PluginFetcher.Fetched>> source;

  /**
   * The last lines (at most {@value #LAST_LINES}) a process printed before its handshake, joined
   * with a space.
   */
  private volatile String lastOutput;

  private final java.util.ArrayDeque<String> lastLines = new java.util.ArrayDeque<>();
  private static final int LAST_LINES = 3;
  private volatile boolean handshaking;
  private State state = State.IDLE;
  private Future<Running> starting;
  private Running running;
  private Process process;
  private PluginFetcher.Fetched executable;
  private String downReason;
  private Instant nextStart;
  private long restartTimer = -1;
  private int transportFailures;

  /**
   * Creates the supervisor (nothing starts until the first call).
   *
   * @param vertx the Vert.x instance
   * @param context the host's context
   * @param kind {@code step} or {@code trafficrouter}
   * @param entry the registration
   * @param fetcher the fetcher
   * @param http the HTTP client
   * @param clock the clock
   * @param handshakeTimeout how long to wait for the handshake line
   * @param bridge where the plugin bridge is, for go-plugin binaries
   * @param goPluginBySha what the host learnt so far: SHA-256 of an executable to whether it speaks
   *     go-plugin (shared by every plugin of the host, written on its context)
   * @param extraEnv variables the process gets on top of the controller's environment
   * @param onDown told the reason each time the plugin goes down (for logs and events)
   */
  ExecutablePlugin(
      Vertx vertx,
      Context context,
      String kind,
      PluginEntry entry,
      PluginFetcher fetcher,
      PluginHttpClient http,
      Clock clock,
      Duration handshakeTimeout,
      PluginBridge bridge,
      Map<String, Boolean> goPluginBySha,
      java.util.function.Supplier<Map<String, String>> extraEnv,
      Consumer<String> onDown) {
    this(
        vertx,
        context,
        kind,
        entry,
        fetcher,
        http,
        clock,
        handshakeTimeout,
        bridge,
        goPluginBySha,
        extraEnv,
        onDown,
        null);
  }

  /**
   * Creates the supervisor of a program the controller locates itself rather than fetching it from
   * a registration (the plugin bridge in one of its own modes); otherwise as the other constructor.
   *
   * @param source finds the executable at each first start; a failed Future says why it cannot be
   *     found. Null means fetched and verified from {@code entry}
   */
  ExecutablePlugin(
      Vertx vertx,
      Context context,
      String kind,
      PluginEntry entry,
      PluginFetcher fetcher,
      PluginHttpClient http,
      Clock clock,
      Duration handshakeTimeout,
      PluginBridge bridge,
      Map<String, Boolean> goPluginBySha,
      java.util.function.Supplier<Map<String, String>> extraEnv,
      Consumer<String> onDown,
      java.util.function.Supplier<Future<PluginFetcher.Fetched>> source) {
    this.source = source != null ? source : () -> fetcher.fetchVerified(kind, entry);
    this.extraEnv = extraEnv;
    this.handshakeTimeout = handshakeTimeout;
    this.bridge = bridge;
    this.goPluginBySha = goPluginBySha;
    this.vertx = vertx;
    this.context = context;
    this.kind = kind;
    this.entry = entry;
    this.fetcher = fetcher;
    this.http = http;
    this.clock = clock;
    this.onDown = onDown;
  }

  @Override
  public Future<JsonNode> call(String path, JsonNode body, Duration timeout) {
    Future<Running> ready;
    switch (state) {
      case CLOSED:
        return unavailable("was unregistered");
      case RUNNING:
        ready = Future.succeededFuture(running);
        break;
      case STARTING:
        ready = starting;
        break;
      case DOWN:
        if (nextStart != null && clock.instant().isBefore(nextStart)) {
          return unavailable(downReason);
        }
        ready = start();
        break;
      default:
        ready = start();
        break;
    }
    return ready.compose(
        r ->
            http.post(entry.name(), r.baseUrl(), path, body, r.cookie(), timeout)
                .onSuccess(a -> transportFailures = 0)
                .onFailure(err -> transportFailed(r, err)));
  }

  private <T> Future<T> unavailable(String why) {
    return Future.failedFuture(
        new PluginCallException(
            PluginCallException.Reason.UNAVAILABLE,
            "plugin " + entry.name() + " is not running: " + why));
  }

  private void transportFailed(Running r, Throwable err) {
    PluginCallException.Reason reason = PluginCallException.reasonOf(err);
    if (reason == PluginCallException.Reason.BAD_ANSWER || running != r) {
      return;
    }
    transportFailures++;
    if (transportFailures >= MAX_TRANSPORT_FAILURES) {
      down(
          "stopped answering ("
              + transportFailures
              + " failed calls in a row, last: "
              + err.getMessage()
              + ")");
    }
  }

  private Future<Running> start() {
    cancelRestartTimer();
    state = State.STARTING;
    Future<PluginFetcher.Fetched> fetched =
        executable != null
            ? Future.succeededFuture(executable)
            : source.get().onSuccess(p -> executable = p);
    Future<Running> f =
        fetched
            .recover(
                err ->
                    Future.failedFuture(
                        new IllegalStateException("cannot be fetched: " + err.getMessage(), err)))
            .compose(this::launch)
            .compose(this::init);
    starting =
        f.transform(
            ar -> {
              if (state == State.CLOSED) {
                if (ar.succeeded()) {
                  kill(ar.result().process(), 0);
                }
                return unavailable("was unregistered");
              }
              if (ar.succeeded()) {
                running = ar.result();
                state = State.RUNNING;
                transportFailures = 0;
                LOG.info(
                    "plugin {} ({}) started pid={} url={}{}",
                    entry.name(),
                    kind,
                    running.process().pid(),
                    running.baseUrl(),
                    running.bridged()
                        ? " (go-plugin, through " + PluginBridge.FILE_NAME + ")"
                        : "");
                return Future.succeededFuture(running);
              }
              down(ar.cause().getMessage());
              return Future.failedFuture(
                  new PluginCallException(
                      PluginCallException.Reason.UNAVAILABLE,
                      "plugin " + entry.name() + " is not running: " + ar.cause().getMessage(),
                      ar.cause()));
            });
    return starting;
  }

  /**
   * Starts the executable: directly, with both the protocol v1 environment and Argo Rollouts'
   * go-plugin magic cookie, unless it is already known to speak go-plugin; a go-plugin handshake
   * line as its first line means it does, so it is stopped, remembered by its SHA-256, and started
   * again through the bridge.
   */
  private Future<Running> launch(PluginFetcher.Fetched exe) {
    if (Boolean.TRUE.equals(goPluginBySha.get(exe.sha256()))) {
      return spawnBridged(exe.path());
    }
    List<String> cmd = new ArrayList<>();
    cmd.add(exe.path().toString());
    cmd.addAll(entry.args());
    return spawn(cmd, exe.path(), false)
        .recover(
            err -> {
              if (!(err instanceof GoPluginDetected detected)) {
                return Future.failedFuture(err);
              }
              goPluginBySha.put(exe.sha256(), true);
              LOG.info(
                  "plugin {} ({}) speaks go-plugin (handshake '{}'): starting it through {}",
                  entry.name(),
                  kind,
                  excerpt(detected.line),
                  PluginBridge.FILE_NAME);
              removeProbeSocket(detected.line);
              return spawnBridged(exe.path());
            })
        .onSuccess(r -> goPluginBySha.putIfAbsent(exe.sha256(), false));
  }

  private Future<Running> spawnBridged(Path exe) {
    Optional<Path> found = bridge.locate();
    if (found.isEmpty()) {
      return Future.failedFuture(
          new IllegalStateException(
              "speaks go-plugin (Argo Rollouts' plugin protocol), but " + bridge.notFound()));
    }
    long startMillis = Math.max(1000, handshakeTimeout.toMillis() - 1000);
    List<String> cmd = new ArrayList<>();
    cmd.add(found.get().toString());
    cmd.add("--kind");
    cmd.add(kind);
    cmd.add("--start-timeout");
    cmd.add(startMillis + "ms");
    cmd.add("--");
    cmd.add(exe.toString());
    cmd.addAll(entry.args());
    return spawn(cmd, exe, true)
        .recover(
            err ->
                Future.failedFuture(
                    new IllegalStateException(
                        "through " + PluginBridge.FILE_NAME + ": " + err.getMessage(), err)));
  }

  /**
   * A go-plugin server stopped during detection leaves its unix socket behind ({@code
   * <tmp>/plugin<digits>}): remove it.
   */
  private void removeProbeSocket(String handshakeLine) {
    String[] parts = handshakeLine.trim().split("\\|");
    if (parts.length > 3 && "unix".equals(parts[2]) && parts[3].startsWith("/")) {
      Path socket = Path.of(parts[3]);
      if (socket.getFileName() == null || !socket.getFileName().toString().startsWith("plugin")) {
        return; // not a name go-plugin gives its sockets: leave it alone
      }
      vertx.setTimer(
          1000,
          t ->
              vertx
                  .executeBlocking(() -> java.nio.file.Files.deleteIfExists(socket), false)
                  .onFailure(
                      e ->
                          LOG.debug(
                              "plugin {}: cannot remove {}: {}",
                              entry.name(),
                              socket,
                              e.toString())));
    }
  }

  private Future<Running> spawn(List<String> cmd, Path exe, boolean bridged) {
    String cookie = HexFormat.of().formatHex(randomBytes());
    return vertx
        .executeBlocking(
            () -> {
              ProcessBuilder pb = new ProcessBuilder(cmd).directory(exe.getParent().toFile());
              Map<String, String> env = pb.environment();
              env.putAll(extraEnv.get());
              env.put(PluginProtocol.ENV_PROTOCOL, String.valueOf(PluginProtocol.VERSION));
              env.put(PluginProtocol.ENV_KIND, kind);
              env.put(PluginProtocol.ENV_NAME, entry.name());
              env.put(PluginProtocol.ENV_COOKIE, cookie);
              if (bridged) {
                env.remove(PluginBridge.MAGIC_COOKIE_KEY);
              } else {
                env.put(PluginBridge.MAGIC_COOKIE_KEY, kind);
              }
              return pb.start();
            },
            false)
        .recover(
            err ->
                Future.failedFuture(
                    new IllegalStateException("cannot be started: " + err.getMessage(), err)))
        .compose(p -> handshake(p, cookie, bridged));
  }

  private Future<Running> handshake(Process p, String cookie, boolean bridged) {
    process = p;
    Promise<String> firstLine = Promise.promise();
    Promise<Void> stderrEnd = Promise.promise();
    lastOutput = null;
    synchronized (lastLines) {
      lastLines.clear();
    }
    handshaking = true;
    long timer =
        vertx.setTimer(
            handshakeTimeout.toMillis(),
            t ->
                firstLine.tryFail(
                    new IllegalStateException(
                        "no handshake line within "
                            + handshakeTimeout.toSeconds()
                            + "s"
                            + (lastOutput == null
                                ? ""
                                : " (last output: '" + excerpt(lastOutput, 300) + "')"))));
    readLines(
        p.getInputStream(),
        "stdout",
        line ->
            context.runOnContext(
                v -> {
                  if (line != null) {
                    firstLine.tryComplete(line);
                  } else {
                    endedBeforeHandshake(p, stderrEnd.future()).onFailure(firstLine::tryFail);
                  }
                }),
        null);
    readLines(
        p.getErrorStream(),
        "stderr",
        null,
        () -> context.runOnContext(v -> stderrEnd.tryComplete()));
    Future.fromCompletionStage(p.onExit(), context)
        .onSuccess(
            exited -> {
              try {
                // The plugin's stdin pipe: closing it releases the descriptor (the SDK exits when
                // it closes).
                exited.getOutputStream().close();
              } catch (IOException e) {
                LOG.debug("plugin {} stdin close: {}", entry.name(), e.toString());
              }
              String why = "exited with code " + exited.exitValue();
              endedBeforeHandshake(p, stderrEnd.future()).onFailure(firstLine::tryFail);
              if (running != null && running.process() == exited) {
                down(why);
              }
            });
    return firstLine
        .future()
        .eventually(
            () -> {
              vertx.cancelTimer(timer);
              handshaking = false;
              return Future.succeededFuture();
            })
        .compose(
            line ->
                !bridged && PluginBridge.isGoPluginHandshake(line)
                    ? Future.<String>failedFuture(new GoPluginDetected(line))
                    : parseHandshake(line))
        .map(url -> new Running(p, url, cookie, clock.instant(), bridged))
        .onFailure(err -> kill(p, 0));
  }

  /**
   * The failure of a process whose output ended, or which exited, before its handshake line: waits
   * briefly (1 s) for its exit and for its standard error to be read to the end, so the message has
   * the exit code and what it printed last (the bridge prints there why a go-plugin binary did not
   * start).
   */
  private Future<Void> endedBeforeHandshake(Process p, Future<Void> stderrEnd) {
    Future<Process> exited = Future.fromCompletionStage(p.onExit(), context);
    return Future.join(exited, stderrEnd)
        .timeout(1, java.util.concurrent.TimeUnit.SECONDS)
        .transform(
            x -> {
              String what =
                  p.isAlive() ? "closed its standard output" : "exited with code " + p.exitValue();
              return Future.failedFuture(
                  new IllegalStateException(
                      what
                          + " before its handshake line"
                          + (lastOutput == null
                              ? ""
                              : " (last output: '" + excerpt(lastOutput, 300) + "')")));
            });
  }

  private Future<String> parseHandshake(String line) {
    String expected =
        "expected '"
            + PluginProtocol.HANDSHAKE_PREFIX
            + " "
            + PluginProtocol.VERSION
            + " http://127.0.0.1:<port>'";
    if (line == null) {
      return Future.failedFuture(
          new IllegalStateException("closed its standard output before its handshake line"));
    }
    String[] parts = line.trim().split("\\s+");
    if (parts.length != 3 || !parts[0].equals(PluginProtocol.HANDSHAKE_PREFIX)) {
      return Future.failedFuture(
          new IllegalStateException("bad handshake line '" + excerpt(line) + "': " + expected));
    }
    if (!parts[1].equals(String.valueOf(PluginProtocol.VERSION))) {
      return Future.failedFuture(
          new IllegalStateException(
              "speaks protocol "
                  + excerpt(parts[1])
                  + ", the controller speaks "
                  + PluginProtocol.VERSION));
    }
    try {
      URI uri = URI.create(parts[2]);
      String host = uri.getHost();
      boolean loopback =
          "127.0.0.1".equals(host) || "localhost".equals(host) || "[::1]".equals(host);
      if (!"http".equals(uri.getScheme()) || !loopback || uri.getPort() <= 0) {
        return Future.failedFuture(
            new IllegalStateException(
                "handshake URL "
                    + excerpt(parts[2])
                    + " must be http:// on the loopback interface with a port"));
      }
      String url = parts[2].endsWith("/") ? parts[2].substring(0, parts[2].length() - 1) : parts[2];
      return Future.succeededFuture(url);
    } catch (IllegalArgumentException e) {
      return Future.failedFuture(
          new IllegalStateException("bad handshake URL '" + excerpt(parts[2]) + "': " + expected));
    }
  }

  private Future<Running> init(Running r) {
    return http.post(
            entry.name(),
            r.baseUrl(),
            "init",
            ModelJson.mapper().createObjectNode(),
            r.cookie(),
            handshakeTimeout)
        .recover(
            err -> {
              kill(r.process(), 0);
              return Future.failedFuture(
                  new IllegalStateException("init failed: " + err.getMessage(), err));
            })
        .compose(
            answer -> {
              String error = answer.path("error").asText("");
              if (!error.isEmpty()) {
                kill(r.process(), 0);
                return Future.failedFuture(new IllegalStateException("init failed: " + error));
              }
              return Future.succeededFuture(r);
            });
  }

  /** Marks the plugin down, kills the process if any, and schedules the next start. */
  private void down(String why) {
    if (state == State.CLOSED) {
      return;
    }
    Duration ranFor =
        running == null ? Duration.ZERO : Duration.between(running.startedAt(), clock.instant());
    if (process != null) {
      kill(process, KILL_GRACE_MILLIS);
    }
    running = null;
    process = null;
    state = State.DOWN;
    downReason = why;
    Duration delay = backoff.failed(ranFor);
    nextStart = clock.instant().plus(delay);
    LOG.warn(
        "plugin {} ({}) is down: {}; next start in {}s",
        entry.name(),
        kind,
        why,
        delay.toSeconds());
    onDown.accept(why);
    cancelRestartTimer();
    restartTimer =
        vertx.setTimer(
            delay.toMillis(),
            t -> {
              restartTimer = -1;
              if (state == State.DOWN) {
                start()
                    .onFailure(
                        err ->
                            LOG.debug(
                                "plugin {} restart failed: {}", entry.name(), err.getMessage()));
              }
            });
  }

  private void cancelRestartTimer() {
    if (restartTimer >= 0) {
      vertx.cancelTimer(restartTimer);
      restartTimer = -1;
    }
  }

  @Override
  public Future<Void> close() {
    state = State.CLOSED;
    cancelRestartTimer();
    if (process != null) {
      LOG.info("plugin {} ({}) stopping pid={}", entry.name(), kind, process.pid());
      kill(process, KILL_GRACE_MILLIS);
    }
    running = null;
    process = null;
    return Future.succeededFuture();
  }

  /** Kills the process now (forcibly, with its children). For the controller's shutdown. */
  void killNow() {
    state = State.CLOSED;
    cancelRestartTimer();
    if (process != null) {
      kill(process, 0);
    }
  }

  /**
   * Sends SIGTERM to the process and its descendants, then SIGKILL after the grace period (a
   * timer).
   */
  private void kill(Process p, long graceMillis) {
    if (!p.isAlive()) {
      return;
    }
    if (graceMillis <= 0) {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
      return;
    }
    p.descendants().forEach(ProcessHandle::destroy);
    p.destroy();
    vertx.setTimer(
        graceMillis,
        t -> {
          if (p.isAlive()) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
          }
        });
  }

  /**
   * Reads a process stream line by line on a daemon thread. The first stdout line that starts with
   * the handshake prefix goes to {@code first} (null at end of stream when none came); every other
   * line is logged with the plugin name.
   */
  private void readLines(InputStream in, String stream, Consumer<String> first, Runnable onEnd) {
    Thread t =
        new Thread(
            () -> {
              boolean firstSeen = first == null;
              try (BufferedReader r =
                  new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                  if (!firstSeen
                      && (line.startsWith(PluginProtocol.HANDSHAKE_PREFIX)
                          || PluginBridge.isGoPluginHandshake(line))) {
                    firstSeen = true;
                    first.accept(line);
                  } else {
                    if (handshaking && !line.isBlank()) {
                      // A message can span lines (go-plugin's refusal does): keep the last few
                      // together.
                      synchronized (lastLines) {
                        lastLines.addLast(line.strip());
                        if (lastLines.size() > LAST_LINES) {
                          lastLines.removeFirst();
                        }
                        lastOutput = String.join(" ", lastLines);
                      }
                    }
                    if (DEBUG_LINE.matcher(line).find()) {
                      // A library's own debug output (Go's retryablehttp prints "[DEBUG] GET <url>"
                      // per request).
                      PLUGIN_LOG.debug("plugin={} {}: {}", entry.name(), stream, line);
                    } else {
                      PLUGIN_LOG.info("plugin={} {}: {}", entry.name(), stream, line);
                    }
                  }
                }
              } catch (IOException e) {
                LOG.debug("plugin {} {} closed: {}", entry.name(), stream, e.toString());
              }
              if (!firstSeen) {
                first.accept(null);
              }
              if (onEnd != null) {
                onEnd.run();
              }
            },
            "plugin-" + entry.name().replace('/', '-') + "-" + stream);
    t.setDaemon(true);
    t.start();
  }

  private static String excerpt(String s) {
    return excerpt(s, 120);
  }

  private static String excerpt(String s, int max) {
    String one = s.replaceAll("\\p{Cntrl}", "?");
    return one.length() > max ? one.substring(0, max) + "..." : one;
  }

  private static byte[] randomBytes() {
    byte[] b = new byte[32];
    RANDOM.nextBytes(b);
    return b;
  }
}
