package io.rollgate.controller.rollout.canary.steps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.rollgate.api.CanaryStatus;
import io.rollgate.api.ModelJson;
import io.rollgate.api.Rollout;
import io.rollgate.api.RolloutStatus;
import io.rollgate.api.StepPluginStatus;
import io.rollgate.controller.plugin.StepOperation;
import io.rollgate.controller.plugin.StepPlugins;
import io.rollgate.controller.rollout.StepConfigSchemas;
import io.rollgate.controller.rollout.pass.RolloutPass;
import io.rollgate.controller.runtime.ReconcileContext;
import io.rollgate.plugin.PluginEntry;
import io.rollgate.plugin.sdk.StepContext;
import io.rollgate.plugin.sdk.StepPhase;
import io.rollgate.plugin.sdk.StepResult;
import io.vertx.core.Future;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Canary plugin steps (docs/compatibility.md §10.3-10.6) against a fake {@link StepPlugins}. */
class CanaryStepPluginsTest {

  private static final Instant NOW = Instant.parse("2026-01-01T10:00:00Z");
  private static final String CI = "example/ci";
  private static final String GATE = "example/gate";

  private static final String ROLLOUT =
      """
      metadata: {name: web, namespace: shop, annotations: {rollout.argoproj.io/revision: "2"}}
      spec:
        replicas: 2
        selector: {matchLabels: {app: web}}
        template:
          metadata: {labels: {app: web}}
          spec: {containers: [{name: web, image: "nginx:1.25"}]}
        strategy:
          canary:
            steps:
            - plugin: {name: example/ci, config: {job: build}}
            - setWeight: 50
            - plugin: {name: example/gate, config: {url: "http://gate"}}
            - plugin: {name: example/ci, config: {job: smoke}}
            - pause: {}
      """;

  /**
   * A fake plugin host: registrations, queued answers per plugin and operation, and the calls made.
   */
  static final class FakePlugins implements StepPlugins {
    final Map<String, PluginEntry> entries = new HashMap<>();
    final Map<String, Deque<Future<StepResult>>> answers = new HashMap<>();
    final List<String> calls = new ArrayList<>();
    final List<StepContext> contexts = new ArrayList<>();

    FakePlugins register(String name, boolean disabled, JsonNode schema) {
      entries.put(
          name,
          new PluginEntry(name, "file:///bin/" + name, null, null, List.of(), disabled, schema));
      return this;
    }

    FakePlugins answer(String name, StepOperation op, Future<StepResult> result) {
      answers.computeIfAbsent(name + " " + op, k -> new ArrayDeque<>()).add(result);
      return this;
    }

    @Override
    public Optional<PluginEntry> registration(String name) {
      return Optional.ofNullable(entries.get(name));
    }

    @Override
    public Future<StepResult> call(
        String name, StepOperation operation, Rollout rollout, StepContext context) {
      calls.add(operation.statusName() + " " + name + " " + context.stepIndex());
      contexts.add(context);
      Deque<Future<StepResult>> q = answers.get(name + " " + operation);
      return q == null || q.isEmpty()
          ? Future.failedFuture("no answer queued for " + name + " " + operation)
          : q.poll();
    }
  }

  private static Rollout rollout() {
    try {
      return new YAMLMapper().readValue(ROLLOUT, Rollout.class);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static RolloutStatus status(int index, StepPluginStatus... entries) {
    RolloutStatus s = new RolloutStatus();
    s.setPhase("Progressing");
    s.setCurrentStepIndex(index);
    s.setStableRS("old");
    s.setCurrentPodHash("new");
    if (entries.length > 0) {
      s.setCanary(new CanaryStatus());
      s.getCanary().setStepPluginStatuses(List.of(entries));
    }
    return s;
  }

  private static StepPluginStatus entry(int index, String name, String op, String phase) {
    StepPluginStatus s = new StepPluginStatus();
    s.setIndex(index);
    s.setName(name);
    s.setOperation(op);
    s.setPhase(phase);
    s.setStartedAt("2026-01-01T09:00:00Z");
    s.setUpdatedAt("2026-01-01T09:00:00Z");
    s.setExecutions(1);
    return s;
  }

  private static RolloutPass pass(RolloutStatus status) {
    Rollout r = rollout();
    r.setStatus(ModelJson.deepCopy(status));
    RolloutPass p =
        new RolloutPass(new ReconcileContext("Rollout", "shop", "web", 1, "test", NOW), r, NOW);
    p.podHash = "new";
    return p;
  }

  private static RolloutPass reconcile(FakePlugins plugins, RolloutStatus status) {
    RolloutPass p = pass(status);
    Future<Void> f = new CanaryStepPlugins(plugins, new StepConfigSchemas()::check).reconcile(p);
    assertTrue(f.succeeded(), "reconcile never fails");
    return p;
  }

  private static JsonNode json(String text) {
    try {
      return ModelJson.mapper().readTree(text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static StepPluginStatus only(RolloutPass p) {
    assertEquals(1, p.stepPluginStatuses.size(), p.stepPluginStatuses.toString());
    return p.stepPluginStatuses.get(0);
  }

  private static List<String> events(RolloutPass p) {
    return p.events.stream()
        .map(e -> (e.warning() ? "Warning " : "Normal ") + e.reason() + " " + e.message())
        .toList();
  }

  @Test
  void firstRunStoresARunningEntryAndRequeuesAfterItsBackoff() {
    FakePlugins plugins = new FakePlugins().register(CI, false, null);
    plugins.answer(
        CI,
        StepOperation.RUN,
        Future.succeededFuture(StepResult.running("job 7 queued", 60, json("{\"jobId\":\"7\"}"))));
    RolloutPass p = reconcile(plugins, status(0));

    StepPluginStatus s = only(p);
    assertEquals(0, s.getIndex());
    assertEquals(CI, s.getName());
    assertEquals("Run", s.getOperation());
    assertEquals("Running", s.getPhase());
    assertEquals("job 7 queued", s.getMessage());
    assertEquals("2026-01-01T10:00:00Z", s.getStartedAt());
    assertEquals("2026-01-01T10:00:00Z", s.getUpdatedAt());
    assertNull(s.getFinishedAt());
    assertEquals(1, s.getExecutions());
    assertEquals("1m0s", s.getBackoff());
    assertEquals(json("{\"jobId\":\"7\"}"), s.getStatus());
    assertEquals(Duration.ofSeconds(65), p.requeue);
    assertNull(plugins.contexts.get(0).status(), "first call has no status");
    assertEquals(json("{\"job\":\"build\"}"), plugins.contexts.get(0).config());
    assertEquals(
        List.of(
            "Normal StepPluginTransition Step plugin example/ci (step 1) transitioned to Running"),
        events(p));
    assertFalse(CanaryStepPlugins.completed(p, 0, p.steps().get(0).getPlugin()));
  }

  @Test
  void shortOrMissingRequeueBecomesThirtySeconds() {
    assertEquals(Duration.ofSeconds(30), CanaryStepPlugins.runningBackoff(null));
    assertEquals(Duration.ofSeconds(30), CanaryStepPlugins.runningBackoff(10L));
    assertEquals(Duration.ofSeconds(30), CanaryStepPlugins.runningBackoff(0L));
    assertEquals(Duration.ofSeconds(11), CanaryStepPlugins.runningBackoff(11L));
  }

  @Test
  void noCallWhileTheBackoffRuns() {
    StepPluginStatus running = entry(0, CI, "Run", "Running");
    running.setUpdatedAt("2026-01-01T09:59:40Z");
    running.setBackoff("30s");
    FakePlugins plugins = new FakePlugins().register(CI, false, null);
    RolloutPass p = reconcile(plugins, status(0, running));

    assertTrue(plugins.calls.isEmpty());
    assertEquals(running, only(p));
    assertEquals(Duration.ofSeconds(15), p.requeue, "updatedAt + 30s + 5s - now");
    assertTrue(p.events.isEmpty());
  }

  @Test
  void laterRunSendsTheStoredStatusAndCompletesTheStepOnSuccess() {
    StepPluginStatus running = entry(0, CI, "Run", "Running");
    running.setBackoff("30s");
    running.setStatus(json("{\"jobId\":\"7\"}"));
    FakePlugins plugins = new FakePlugins().register(CI, false, null);
    plugins.answer(
        CI,
        StepOperation.RUN,
        Future.succeededFuture(
            StepResult.successful("job 7 passed", json("{\"jobId\":\"7\",\"done\":true}"))));
    RolloutPass p = reconcile(plugins, status(0, running));

    assertEquals(json("{\"jobId\":\"7\"}"), plugins.contexts.get(0).status());
    StepPluginStatus s = only(p);
    assertEquals("Successful", s.getPhase());
    assertEquals("2026-01-01T09:00:00Z", s.getStartedAt(), "startedAt kept");
    assertEquals("2026-01-01T10:00:00Z", s.getFinishedAt());
    assertEquals(2, s.getExecutions());
    assertNull(s.getBackoff());
    assertTrue(p.events.isEmpty(), "no transition event for a successful run: " + events(p));
    assertTrue(CanaryStepPlugins.completed(p, 0, p.steps().get(0).getPlugin()));
  }

  @Test
  void anEmptyPhaseKeepsThePreviousOne() {
    StepPluginStatus running = entry(0, CI, "Run", "Running");
    running.setBackoff("30s");
    FakePlugins plugins = new FakePlugins().register(CI, false, null);
    plugins.answer(
        CI,
        StepOperation.RUN,
        Future.succeededFuture(new StepResult(null, "still going", null, null, null)));
    RolloutPass p = reconcile(plugins, status(0, running));

    assertEquals("Running", only(p).getPhase());
    assertEquals("still going", only(p).getMessage());
    assertEquals("30s", only(p).getBackoff());
  }

  @Test
  void aPluginErrorKeepsTheStatusAndRetriesAfterThirtySeconds() {
    StepPluginStatus running = entry(0, CI, "Run", "Running");
    running.setBackoff("30s");
    running.setStatus(json("{\"jobId\":\"7\"}"));
    FakePlugins plugins = new FakePlugins().register(CI, false, null);
    plugins.answer(
        CI, StepOperation.RUN, Future.succeededFuture(StepResult.error("CI server answered 500")));
    RolloutPass p = reconcile(plugins, status(0, running));

    StepPluginStatus s = only(p);
    assertEquals("Error", s.getPhase());
    assertEquals("CI server answered 500", s.getMessage());
    assertEquals("30s", s.getBackoff());
    assertEquals(json("{\"jobId\":\"7\"}"), s.getStatus(), "previous plugin status kept");
    assertEquals(2, s.getExecutions());
    assertEquals(Duration.ofSeconds(35), p.requeue);
    assertEquals(
        List.of(
            "Warning StepPluginTransition Step plugin example/ci (step 1) transitioned to Error"),
        events(p));
    assertFalse(p.aborted());
    assertFalse(CanaryStepPlugins.completed(p, 0, p.steps().get(0).getPlugin()));
  }

  @Test
  void failedAbortsTheRolloutWithArgosMessage() {
    StepPluginStatus running = entry(2, GATE, "Run", "Running");
    running.setBackoff("30s");
    FakePlugins plugins = new FakePlugins().register(GATE, false, null);
    plugins.answer(
        GATE, StepOperation.RUN, Future.succeededFuture(StepResult.failed("gate closed", null)));
    RolloutPass p = reconcile(plugins, status(2, running));

    assertEquals("Failed", only(p).getPhase());
    assertEquals("2026-01-01T10:00:00Z", only(p).getFinishedAt());
    assertTrue(p.addAbort);
    assertEquals("Step Plugin 3 (example/gate) failed: gate closed", p.abortMessage);
    assertEquals(
        List.of(
            "Warning StepPluginTransition Step plugin example/gate (step 3) transitioned to Failed"),
        events(p));
  }

  @Test
  void aStepThatFailsAbortsTheExecutedStepsInTheSamePass() {
    RolloutStatus s = status(2, entry(0, CI, "Run", "Successful"));
    FakePlugins plugins = new FakePlugins().register(CI, false, null).register(GATE, false, null);
    plugins.answer(
        GATE, StepOperation.RUN, Future.succeededFuture(StepResult.failed("gate closed", null)));
    plugins.answer(
        CI,
        StepOperation.ABORT,
        Future.succeededFuture(new StepResult(null, "cancelled", null, null, null)));
    RolloutPass p = reconcile(plugins, s);

    assertEquals(List.of("Run example/gate 2", "Abort example/ci 0"), plugins.calls);
    List<StepPluginStatus> list = p.stepPluginStatuses;
    assertEquals(3, list.size());
    assertEquals("Failed", list.get(1).getPhase());
    assertEquals("Abort", list.get(2).getOperation());
    assertEquals(0, list.get(2).getIndex());
    assertEquals("Successful", list.get(2).getPhase());
    assertTrue(p.addAbort);
  }

  @Test
  void aDisabledPluginSkipsTheStep() {
    StepPluginStatus running = entry(0, CI, "Run", "Running");
    running.setBackoff("30s");
    FakePlugins plugins = new FakePlugins().register(CI, true, null);
    RolloutPass p = reconcile(plugins, status(0, running));

    assertTrue(plugins.calls.isEmpty());
    StepPluginStatus s = only(p);
    assertEquals(Boolean.TRUE, s.getDisabled());
    assertNull(s.getPhase());
    assertNull(s.getStartedAt());
    assertTrue(p.events.isEmpty());
    assertTrue(CanaryStepPlugins.completed(p, 0, p.steps().get(0).getPlugin()));
  }

  @Test
  void anUnregisteredPluginIsAHandledError() {
    FakePlugins plugins = new FakePlugins();
    RolloutPass p = reconcile(plugins, status(0));

    assertTrue(p.stepPluginStatuses.isEmpty());
    assertEquals(
        "step plugin example/ci is not registered in argo-rollouts-config", p.stepPluginError);
    assertEquals(Duration.ofSeconds(30), p.requeue);
    assertEquals(
        List.of(
            "Warning ReconciliationError Reconciliation failed with error: step plugin example/ci is not registered in"
                + " argo-rollouts-config"),
        events(p));
  }

  @Test
  void aFailedCallIsAHandledErrorThatLeavesTheStatusAlone() {
    StepPluginStatus running = entry(0, CI, "Run", "Running");
    running.setBackoff("30s");
    FakePlugins plugins = new FakePlugins().register(CI, false, null);
    plugins.answer(
        CI,
        StepOperation.RUN,
        Future.failedFuture("plugin example/ci is not running: exited with 1"));
    RolloutPass p = reconcile(plugins, status(0, running));

    assertEquals(running, only(p));
    assertEquals("plugin example/ci is not running: exited with 1", p.stepPluginError);
    assertEquals(Duration.ofSeconds(30), p.requeue);
    assertEquals(
        List.of(
            "Warning ReconciliationError Reconciliation failed with error: plugin example/ci is not running: exited with 1"),
        events(p));
  }

  @Test
  void nothingRunsUnlessThePersistedPhaseIsProgressing() {
    RolloutStatus s = status(0);
    s.setPhase("Paused");
    FakePlugins plugins = new FakePlugins().register(CI, false, null);
    RolloutPass p = reconcile(plugins, s);
    assertTrue(plugins.calls.isEmpty());
    assertTrue(p.stepPluginStatuses.isEmpty());
  }

  @Test
  void nothingRunsWhenTheCurrentStepIsNotAPlugin() {
    FakePlugins plugins = new FakePlugins().register(CI, false, null);
    RolloutPass p = reconcile(plugins, status(1, entry(0, CI, "Run", "Successful")));
    assertTrue(plugins.calls.isEmpty());
    assertEquals(1, p.stepPluginStatuses.size());
  }

  @Test
  void aSuccessfulOrFailedRunIsNotCalledAgain() {
    FakePlugins plugins = new FakePlugins().register(CI, false, null);
    reconcile(plugins, status(3, entry(3, CI, "Run", "Successful")));
    reconcile(plugins, status(3, entry(3, CI, "Run", "Failed")));
    assertTrue(plugins.calls.isEmpty());
  }

  @Test
  void aConfigThatDoesNotMatchTheSchemaFailsTheStepNamingTheField() {
    JsonNode schema =
        json(
            "{\"type\":\"object\",\"required\":[\"url\",\"token\"],\"properties\":{\"url\":{\"type\":\"string\"}}}");
    FakePlugins plugins = new FakePlugins().register(GATE, false, schema);
    RolloutPass p = reconcile(plugins, status(2));

    assertTrue(plugins.calls.isEmpty(), "no call before the config matches");
    StepPluginStatus s = only(p);
    assertEquals("Failed", s.getPhase());
    assertEquals(
        "spec.strategy.canary.steps[2].plugin.config.token: required property 'token' not found",
        s.getMessage());
    assertTrue(p.addAbort);
    assertEquals(
        "Step Plugin 3 (example/gate) failed: spec.strategy.canary.steps[2].plugin.config.token: required property 'token' not found",
        p.abortMessage);
  }

  @Test
  void aWrongTypeIsNamedByItsPath() {
    JsonNode schema = json("{\"type\":\"object\",\"properties\":{\"url\":{\"type\":\"integer\"}}}");
    Optional<String> problem =
        new StepConfigSchemas().check(schema, json("{\"url\":\"http://gate\"}"), "f");
    assertTrue(problem.isPresent());
    assertTrue(problem.get().startsWith("f.url: "), problem.get());
    assertEquals(Optional.empty(), new StepConfigSchemas().check(schema, json("{\"url\":3}"), "f"));
  }

  @Test
  void aMatchingConfigIsSent() {
    JsonNode schema = json("{\"type\":\"object\",\"required\":[\"url\"]}");
    FakePlugins plugins = new FakePlugins().register(GATE, false, schema);
    plugins.answer(
        GATE, StepOperation.RUN, Future.succeededFuture(StepResult.successful("open", null)));
    RolloutPass p = reconcile(plugins, status(2));
    assertEquals(List.of("Run example/gate 2"), plugins.calls);
    assertEquals("Successful", only(p).getPhase());
  }

  @Test
  void abortCallsExecutedStepsInReverseOrderOnce() {
    RolloutStatus s =
        status(
            0,
            entry(0, CI, "Run", "Successful"),
            entry(2, GATE, "Run", "Successful"),
            entry(3, CI, "Run", "Running"));
    s.setAbort(true);
    s.getCanary().getStepPluginStatuses().get(1).setStatus(json("{\"gate\":1}"));
    FakePlugins plugins = new FakePlugins().register(CI, false, null).register(GATE, false, null);
    plugins.answer(
        CI, StepOperation.ABORT, Future.succeededFuture(StepResult.running("cancelling", 0, null)));
    plugins.answer(
        GATE, StepOperation.ABORT, Future.succeededFuture(StepResult.error("gate API down")));
    plugins.answer(
        CI,
        StepOperation.ABORT,
        Future.succeededFuture(new StepResult(null, "cancelled", null, null, null)));
    RolloutPass p = reconcile(plugins, s);

    assertEquals(
        List.of("Abort example/ci 3", "Abort example/gate 2", "Abort example/ci 0"), plugins.calls);
    assertEquals(
        json("{\"gate\":1}"), plugins.contexts.get(1).status(), "abort gets the run's status");
    List<StepPluginStatus> list = p.stepPluginStatuses;
    assertEquals(6, list.size());
    assertEquals("Abort", list.get(3).getOperation());
    assertEquals(3, list.get(3).getIndex());
    assertEquals("Failed", list.get(3).getPhase(), "Running is coerced to Failed");
    assertEquals("Error", list.get(4).getPhase());
    assertEquals("gate API down", list.get(4).getMessage());
    assertEquals("Successful", list.get(5).getPhase(), "an empty phase means Successful");
    assertEquals("2026-01-01T10:00:00Z", list.get(5).getFinishedAt());
    assertEquals(
        List.of(
            "Warning StepPluginTransition Step plugin example/ci (step 4) aborted (Failed)",
            "Warning StepPluginTransition Step plugin example/gate (step 3) aborted (Error)",
            "Normal StepPluginTransition Step plugin example/ci (step 1) aborted (Successful)"),
        events(p));

    // Never retried: the next pass calls nothing.
    RolloutStatus after = ModelJson.deepCopy(s);
    after.getCanary().setStepPluginStatuses(list);
    FakePlugins again = new FakePlugins().register(CI, false, null).register(GATE, false, null);
    reconcile(again, after);
    assertTrue(again.calls.isEmpty());
  }

  @Test
  void abortSkipsFailedErroredAndDisabledSteps() {
    StepPluginStatus disabled = new StepPluginStatus();
    disabled.setIndex(0);
    disabled.setName(CI);
    disabled.setOperation("Run");
    disabled.setDisabled(true);
    RolloutStatus s =
        status(0, disabled, entry(2, GATE, "Run", "Failed"), entry(3, CI, "Run", "Error"));
    s.setAbort(true);
    FakePlugins plugins = new FakePlugins().register(CI, false, null).register(GATE, false, null);
    reconcile(plugins, s);
    assertTrue(plugins.calls.isEmpty());
  }

  @Test
  void promoteFullTerminatesTheRunningStepOnce() {
    RolloutStatus s = status(3, entry(0, CI, "Run", "Successful"), entry(3, CI, "Run", "Running"));
    s.setPromoteFull(true);
    s.getCanary().getStepPluginStatuses().get(1).setStatus(json("{\"jobId\":\"9\"}"));
    FakePlugins plugins = new FakePlugins().register(CI, false, null);
    plugins.answer(
        CI,
        StepOperation.TERMINATE,
        Future.succeededFuture(StepResult.successful("job 9 cancelled", null)));
    RolloutPass p = reconcile(plugins, s);

    assertEquals(List.of("Terminate example/ci 3"), plugins.calls);
    assertEquals(json("{\"jobId\":\"9\"}"), plugins.contexts.get(0).status());
    StepPluginStatus t = p.stepPluginStatuses.get(2);
    assertEquals("Terminate", t.getOperation());
    assertEquals("Successful", t.getPhase());
    assertEquals(
        List.of(
            "Normal StepPluginTransition Step plugin example/ci (step 4) terminated (Successful)"),
        events(p));
    assertTrue(
        CanaryStepPlugins.completed(p, 3, p.steps().get(3).getPlugin()),
        "a terminated running step is complete");

    RolloutStatus after = ModelJson.deepCopy(s);
    after.getCanary().setStepPluginStatuses(p.stepPluginStatuses);
    after.setStableRS("new"); // fully promoted since
    after.setPromoteFull(null);
    FakePlugins again = new FakePlugins().register(CI, false, null);
    reconcile(again, after);
    assertTrue(again.calls.isEmpty(), "terminate is called once");
  }

  @Test
  void fullyPromotedWithoutARunningStepCallsNothing() {
    RolloutStatus s =
        status(5, entry(0, CI, "Run", "Successful"), entry(3, CI, "Run", "Successful"));
    s.setStableRS("new");
    FakePlugins plugins = new FakePlugins().register(CI, false, null);
    RolloutPass p = reconcile(plugins, s);
    assertTrue(plugins.calls.isEmpty());
    assertEquals(2, p.stepPluginStatuses.size());
  }

  @Test
  void retryClearsTheLeftoversOfTheAbortedAttempt() {
    StepPluginStatus abort = entry(0, CI, "Abort", "Successful");
    RolloutStatus s =
        status(0, entry(0, CI, "Run", "Successful"), entry(2, GATE, "Run", "Failed"), abort);
    s.setAbort(false);
    FakePlugins plugins = new FakePlugins().register(CI, false, null);
    plugins.answer(
        CI,
        StepOperation.RUN,
        Future.succeededFuture(StepResult.running("job 8 queued", 30, json("{\"jobId\":\"8\"}"))));
    RolloutPass p = reconcile(plugins, s);

    assertEquals(List.of("Run example/ci 0"), plugins.calls);
    assertNull(plugins.contexts.get(0).status(), "a new attempt starts afresh");
    StepPluginStatus run = only(p);
    assertEquals("Running", run.getPhase());
    assertEquals(1, run.getExecutions());
  }

  @Test
  void stepZeroStillRunningIsNotALeftover() {
    StepPluginStatus running = entry(0, CI, "Run", "Running");
    running.setUpdatedAt("2026-01-01T09:59:50Z");
    running.setBackoff("30s");
    FakePlugins plugins = new FakePlugins().register(CI, false, null);
    RolloutPass p = reconcile(plugins, status(0, running));
    assertEquals(running, only(p));
  }

  @Test
  void aHandledErrorKeepsTheStepFromCompleting() {
    RolloutPass p = pass(status(0, entry(0, CI, "Run", "Successful")));
    p.stepPluginStatuses = new ArrayList<>(p.old.getCanary().getStepPluginStatuses());
    assertTrue(CanaryStepPlugins.completed(p, 0, p.steps().get(0).getPlugin()));
    p.stepPluginError = "plugin example/ci is not running: exited with 1";
    assertFalse(CanaryStepPlugins.completed(p, 0, p.steps().get(0).getPlugin()));
  }

  @Test
  void blockedByNamesTheHandledError_elseTheCurrentStepInError_elseNothing() {
    StepPluginStatus error = entry(0, CI, "Run", "Error");
    error.setMessage("Run rpc call error: unexpected EOF");
    RolloutPass p = pass(status(0, error));
    assertEquals(
        "Step plugin example/ci (step 1) transitioned to Error: Run rpc call error: unexpected EOF",
        CanaryStepPlugins.blockedBy(p));
    p.stepPluginError = "plugin example/ci is not running: exited with 1";
    assertEquals("plugin example/ci is not running: exited with 1", CanaryStepPlugins.blockedBy(p));
    assertNull(CanaryStepPlugins.blockedBy(pass(status(0, entry(0, CI, "Run", "Running")))));
    assertNull(CanaryStepPlugins.blockedBy(pass(status(1, error))));
  }

  @Test
  void abortIsNotCalledInThePassThatAborts() {
    RolloutStatus s = status(3, entry(0, CI, "Run", "Successful"));
    FakePlugins plugins = new FakePlugins().register(CI, false, null);
    RolloutPass p = pass(s);
    p.addAbort = true;
    new CanaryStepPlugins(plugins, new StepConfigSchemas()::check).reconcile(p);
    assertTrue(plugins.calls.isEmpty());
  }

  @Test
  void unusedFactoryKeepsJsonNodeFactoryImported() {
    assertEquals(JsonNodeFactory.instance.nullNode(), json("null"));
    assertEquals(StepPhase.Running, StepPhase.valueOf("Running"));
  }
}
