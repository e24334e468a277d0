package io.rollgate.controller.rollout.runs;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.rollgate.analysis.AnalysisSpecException;
import io.rollgate.analysis.RunArguments;
import io.rollgate.analysis.RunFactory;
import io.rollgate.api.AnalysisPhase;
import io.rollgate.api.Annotations;
import io.rollgate.api.Argument;
import io.rollgate.api.CanaryStatus;
import io.rollgate.api.CanaryStep;
import io.rollgate.api.Experiment;
import io.rollgate.api.ExperimentAnalysisTemplateRef;
import io.rollgate.api.ExperimentSpec;
import io.rollgate.api.ExperimentTemplate;
import io.rollgate.api.Labels;
import io.rollgate.api.ModelJson;
import io.rollgate.api.PauseReason;
import io.rollgate.api.Rollout;
import io.rollgate.api.RolloutExperimentStep;
import io.rollgate.api.RolloutExperimentStepAnalysisTemplateRef;
import io.rollgate.api.RolloutExperimentTemplate;
import io.rollgate.api.RolloutStatus;
import io.rollgate.api.TemplateService;
import io.rollgate.controller.kube.KubeApi;
import io.rollgate.controller.options.ControllerOptions;
import io.rollgate.controller.rollout.cache.RolloutCache;
import io.rollgate.controller.rollout.pass.RollbackWindow;
import io.rollgate.controller.rollout.pass.RolloutPass;
import io.rollgate.controller.rollout.status.PauseConditions;
import io.rollgate.kube.KubeApiException;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The canary {@code experiment} step (docs/compatibility.md §12.2): the Experiment a Rollout
 * creates for its current step and its reaction to the Experiment's phase.
 *
 * <p>One pass: find the current step's Experiment ({@code status.canary.currentExperiment}, or by
 * name); create it when missing, once a stable ReplicaSet exists ({@code
 * <rollout>-<hash>-<revision>-<step>}, {@code -1}, {@code -2} on a name collision; {@code
 * ExperimentCreated} event); Successful completes the step, Failed/Error abort the Rollout,
 * Inconclusive pauses it ({@code InconclusiveExperiment}); every other unfinished Experiment (all
 * of them while the Rollout is aborted, fully promoted or on its first deploy) is terminated with
 * {@code {"spec":{"terminate":true}}}; completed Experiments beyond the AnalysisRun history limits
 * are deleted.
 */
public final class RolloutExperiments {

  private static final Logger LOG = LoggerFactory.getLogger(RolloutExperiments.class);
  private static final int MAX_NAME_ATTEMPTS = 100;

  private final RolloutCache cache;
  private final KubeApi api;

  /**
   * Creates the Rollout's Experiment step.
   *
   * @param cache the informer caches (owned Experiments, templates)
   * @param api the API facade (Experiment creation and patches)
   */
  public RolloutExperiments(RolloutCache cache, KubeApi api) {
    this.cache = cache;
    this.api = api;
  }

  /**
   * Creates the Rollout controller's Experiment informer: same namespace scope and instance-id
   * selector as the Rollouts, indexed by controller owner uid.
   *
   * @param client the fabric8 client
   * @param options the process settings
   * @param instanceSelector the instance-id label selector
   * @param resyncMillis the resync period, milliseconds
   * @return the informer (not started)
   */
  public static SharedIndexInformer<Experiment> informer(
      KubernetesClient client,
      ControllerOptions options,
      String instanceSelector,
      long resyncMillis) {
    var op =
        options.namespace() == null
            ? client.resources(Experiment.class).inAnyNamespace()
            : client.resources(Experiment.class).inNamespace(options.namespace());
    return io.rollgate.controller.kube.TrimmedItemStore.trim(
        op.withLabelSelector(instanceSelector)
            .withIndexers(Map.of(RolloutCache.BY_OWNER, RolloutCache::controllerOwnerUidOf))
            .runnableInformer(resyncMillis));
  }

  /**
   * An informer handler that enqueues the Rollout controlling an Experiment on every change.
   *
   * @param cache the cache (to forget deleted objects)
   * @param enqueue takes {@code namespace/name} of the Rollout
   * @return the handler
   */
  public static ResourceEventHandler<Experiment> ownerHandler(
      RolloutCache cache, Consumer<String> enqueue) {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(Experiment ex) {
        enqueueOwner(ex, enqueue);
      }

      @Override
      public void onUpdate(Experiment before, Experiment after) {
        if (!Objects.equals(
            before.getMetadata().getResourceVersion(), after.getMetadata().getResourceVersion())) {
          enqueueOwner(after, enqueue);
        }
      }

      @Override
      public void onDelete(Experiment ex, boolean unknownFinalState) {
        cache.forget("Experiment", ex.getMetadata().getNamespace(), ex.getMetadata().getName());
        enqueueOwner(ex, enqueue);
      }
    };
  }

  private static void enqueueOwner(Experiment ex, Consumer<String> enqueue) {
    for (OwnerReference ref : list(ex.getMetadata().getOwnerReferences())) {
      if (Boolean.TRUE.equals(ref.getController()) && "Rollout".equals(ref.getKind())) {
        enqueue.accept(ex.getMetadata().getNamespace() + "/" + ref.getName());
      }
    }
  }

  /**
   * docs/compatibility.md §12.2: the experiment stage of a canary pass.
   *
   * @param pass the pass, ReplicaSets classified
   * @return a Future completing when Experiments were created, terminated and pruned; fails on an
   *     API error
   */
  public Future<Void> reconcile(RolloutPass pass) {
    RolloutPass.Experiments st = pass.experiments;
    st.reconciled = true;
    List<Experiment> all = new ArrayList<>();
    for (Experiment ex : cache.ownedExperiments(pass.rollout)) {
      if (ex.getMetadata().getDeletionTimestamp() == null) {
        all.add(ex);
      }
    }
    if (all.isEmpty() && !hasExperimentStep(pass)) {
      return Future.succeededFuture();
    }
    if (cancelAll(pass)) {
      st.current = null;
      return terminate(pass, all, null).compose(v -> deleteHistory(pass, all, null));
    }
    List<CanaryStep> steps = pass.steps();
    Integer idx = pass.old.getCurrentStepIndex();
    int index = idx == null ? 0 : idx;
    CanaryStep step = index < steps.size() ? steps.get(index) : null;
    Future<Void> chain = Future.succeededFuture();
    if (step == null || step.getExperiment() == null) {
      st.current = null;
    } else {
      Experiment current = current(pass, all, index);
      if (current == null) {
        chain =
            create(pass, step.getExperiment(), index, all)
                .map(
                    ex -> {
                      st.current = ex;
                      return null;
                    });
      } else {
        st.current = current;
      }
    }
    return chain
        .onSuccess(v -> react(pass, st.current))
        .compose(v -> terminate(pass, all, st.current))
        .compose(v -> deleteHistory(pass, all, st.current));
  }

  /**
   * Whether the current experiment step's Experiment succeeded (the step then completes).
   *
   * @param pass the pass
   * @return true when this pass's Experiment is Successful
   */
  public static boolean stepSucceeded(RolloutPass pass) {
    return pass.experiments.reconciled
        && AnalysisPhase.SUCCESSFUL.equals(phase(pass.experiments.current));
  }

  /**
   * Writes {@code status.canary.currentExperiment}. No-op when the experiment stage did not run
   * this pass.
   *
   * @param pass the pass
   * @param status the status being written
   */
  public static void applyCanaryStatus(RolloutPass pass, RolloutStatus status) {
    RolloutPass.Experiments st = pass.experiments;
    if (!st.reconciled) {
      return;
    }
    String name = st.current == null ? null : st.current.getMetadata().getName();
    if (status.getCanary() == null) {
      if (name == null) {
        return;
      }
      status.setCanary(new CanaryStatus());
    }
    status.getCanary().setCurrentExperiment(name);
  }

  /**
   * The additional traffic destinations of the current experiment step (docs/compatibility.md
   * §12.2): while the step's Experiment (as stored in {@code status.canary.currentExperiment}) is
   * Running, one destination per template with a {@code weight} whose Service exists, with that
   * weight (percent), the Service name and the template's pod-template hash. Empty when the Rollout
   * is aborted, fully promoted or promoted with {@code promoteFull}.
   *
   * @param pass the pass
   * @param cache where the Experiment is read
   * @return the destinations, sorted by Service name; never null
   */
  public static List<io.rollgate.api.WeightDestination> additionalDestinations(
      RolloutPass pass, RolloutCache cache) {
    List<io.rollgate.api.WeightDestination> out = new ArrayList<>();
    CanaryStatus c = pass.old.getCanary();
    String name = c == null ? null : c.getCurrentExperiment();
    if (name == null
        || pass.aborted()
        || Boolean.TRUE.equals(pass.old.getPromoteFull())
        || pass.podHash == null
        || pass.podHash.equals(pass.old.getStableRS())) {
      return out;
    }
    List<CanaryStep> steps = pass.steps();
    Integer idx = pass.old.getCurrentStepIndex();
    int index = idx == null ? 0 : idx;
    if (index >= steps.size() || steps.get(index).getExperiment() == null) {
      return out;
    }
    Experiment ex = null;
    for (Experiment e : cache.ownedExperiments(pass.rollout)) {
      if (name.equals(e.getMetadata().getName())) {
        ex = e;
      }
    }
    if (ex == null
        || !AnalysisPhase.RUNNING.equals(phase(ex))
        || ex.getStatus().getTemplateStatuses() == null) {
      return out;
    }
    for (RolloutExperimentTemplate t : list(steps.get(index).getExperiment().getTemplates())) {
      if (t.getWeight() == null) {
        continue;
      }
      for (io.rollgate.api.TemplateStatus ts : ex.getStatus().getTemplateStatuses()) {
        if (t.getName().equals(ts.getName()) && ts.getServiceName() != null) {
          io.rollgate.api.WeightDestination d = new io.rollgate.api.WeightDestination();
          d.setWeight(t.getWeight());
          d.setServiceName(ts.getServiceName());
          d.setPodTemplateHash(ts.getPodTemplateHash());
          out.add(d);
        }
      }
    }
    out.sort(Comparator.comparing(io.rollgate.api.WeightDestination::getServiceName));
    return out;
  }

  private static boolean hasExperimentStep(RolloutPass pass) {
    return pass.steps().stream().anyMatch(s -> s.getExperiment() != null);
  }

  /**
   * As for AnalysisRuns: aborted, first deploy, already fully promoted, promoteFull or within the
   * rollback window.
   */
  private static boolean cancelAll(RolloutPass pass) {
    String stable = pass.old.getStableRS();
    return pass.aborted()
        || stable == null
        || stable.isEmpty()
        || stable.equals(pass.podHash)
        || Boolean.TRUE.equals(pass.old.getPromoteFull())
        || RollbackWindow.within(pass)
        || pass.stableRS == null
        || pass.newRS == null;
  }

  /**
   * The Experiment of this step of the current revision: the one named in {@code
   * status.canary.currentExperiment}, else the newest unfinished one with this step's name (created
   * by a pass whose status write was lost). A completed Experiment no longer named in the status
   * (the step was left, or the Rollout was aborted and retried) is history.
   */
  private static Experiment current(RolloutPass pass, List<Experiment> all, int index) {
    String base = baseName(pass, index);
    CanaryStatus c = pass.old.getCanary();
    String named = c == null ? null : c.getCurrentExperiment();
    Experiment best = null;
    for (Experiment ex : all) {
      String n = ex.getMetadata().getName();
      if (!(n.equals(base) || n.startsWith(base + "-"))) {
        continue;
      }
      if (n.equals(named)) {
        return ex;
      }
      boolean unfinished =
          !AnalysisPhase.isCompleted(phase(ex))
              && !(ex.getSpec() != null && Boolean.TRUE.equals(ex.getSpec().getTerminate()));
      if (unfinished && (best == null || newer(ex, best))) {
        best = ex;
      }
    }
    return best;
  }

  private static boolean newer(Experiment a, Experiment b) {
    return Comparator.comparing(
                (Experiment e) -> String.valueOf(e.getMetadata().getCreationTimestamp()))
            .thenComparing(e -> e.getMetadata().getName().length())
            .thenComparing(e -> e.getMetadata().getName())
            .compare(a, b)
        > 0;
  }

  private static String baseName(RolloutPass pass, int index) {
    return pass.name() + "-" + pass.podHash + "-" + pass.revision() + "-" + index;
  }

  private Future<Experiment> create(
      RolloutPass pass, RolloutExperimentStep step, int index, List<Experiment> all) {
    Experiment wanted;
    try {
      wanted = build(pass, step, index);
    } catch (AnalysisSpecException e) {
      pass.addAbort = true;
      pass.abortMessage = "Experiment could not be created: " + e.getMessage();
      LOG.info("{} experiment step {}: {}", pass.ctx, index, pass.abortMessage);
      return Future.succeededFuture(null);
    }
    List<String> taken = new ArrayList<>();
    all.forEach(e -> taken.add(e.getMetadata().getName()));
    return createNamed(pass, wanted, baseName(pass, index), taken, 0);
  }

  private Future<Experiment> createNamed(
      RolloutPass pass, Experiment wanted, String base, List<String> taken, int attempt) {
    if (attempt >= MAX_NAME_ATTEMPTS) {
      return Future.failedFuture(
          new IllegalStateException(
              "no free Experiment name after " + attempt + " attempts: " + base));
    }
    String name = attempt == 0 ? base : base + "-" + attempt;
    if (taken.contains(name)) {
      return createNamed(pass, wanted, base, taken, attempt + 1);
    }
    Experiment ex = ModelJson.deepCopy(wanted);
    ex.getMetadata().setName(name);
    return api.create(ex)
        .onSuccess(
            created -> {
              cache.wrote(created);
              LOG.info("{} created Experiment {}", pass.ctx, name);
              pass.event("ExperimentCreated", "Created Experiment '" + name + "'");
            })
        .recover(
            err ->
                KubeApiException.isConflict(err)
                    ? createNamed(pass, wanted, base, taken, attempt + 1)
                    : Future.failedFuture(err));
  }

  /**
   * Builds the Experiment of a step (docs/compatibility.md §12.2).
   *
   * @param pass the pass (Rollout, new and stable ReplicaSets, hash, revision)
   * @param step the step
   * @param index the step index
   * @return the Experiment without a name
   * @throws AnalysisSpecException when an analysis argument cannot be resolved
   */
  static Experiment build(RolloutPass pass, RolloutExperimentStep step, int index)
      throws AnalysisSpecException {
    Rollout rollout = pass.rollout;
    Map<String, String> labels = new LinkedHashMap<>();
    if (rollout.getMetadata().getLabels() != null) {
      labels.putAll(rollout.getMetadata().getLabels());
    }
    labels.put(Labels.POD_TEMPLATE_HASH, pass.podHash);
    ExperimentSpec spec = new ExperimentSpec();
    spec.setDuration(step.getDuration());
    spec.setProgressDeadlineSeconds(rollout.getSpec().getProgressDeadlineSeconds());
    if (step.getDryRun() != null) {
      List<io.rollgate.api.DryRun> dryRun = new ArrayList<>();
      step.getDryRun().forEach(d -> dryRun.add(ModelJson.deepCopy(d)));
      spec.setDryRun(dryRun);
    }
    spec.setAnalysisRunMetadata(
        step.getAnalysisRunMetadata() == null
            ? null
            : ModelJson.deepCopy(step.getAnalysisRunMetadata()));
    spec.setScaleDownDelaySeconds(step.getScaleDownDelaySeconds());
    List<ExperimentTemplate> templates = new ArrayList<>();
    for (RolloutExperimentTemplate t : list(step.getTemplates())) {
      templates.add(template(pass, t));
    }
    spec.setTemplates(templates);
    String stableHash = pass.old.getStableRS();
    List<ExperimentAnalysisTemplateRef> analyses = new ArrayList<>();
    for (RolloutExperimentStepAnalysisTemplateRef a : list(step.getAnalyses())) {
      ExperimentAnalysisTemplateRef ref = new ExperimentAnalysisTemplateRef();
      ref.setName(a.getName());
      ref.setTemplateName(a.getTemplateName());
      ref.setClusterScope(a.getClusterScope());
      ref.setRequiredForCompletion(a.getRequiredForCompletion());
      List<Argument> args =
          RunArguments.resolveRolloutArgs(a.getArgs(), rollout, pass.podHash, stableHash);
      ref.setArgs(args.isEmpty() ? null : args);
      analyses.add(ref);
    }
    spec.setAnalyses(analyses.isEmpty() ? null : analyses);
    Experiment ex = new Experiment();
    ex.setMetadata(
        new ObjectMetaBuilder()
            .withNamespace(pass.namespace())
            .withLabels(labels)
            .withAnnotations(Map.of(Annotations.REVISION, pass.revision()))
            .withOwnerReferences(RunFactory.ownerReference(rollout))
            .build());
    ex.setSpec(spec);
    return ex;
  }

  /**
   * One template: the canary or stable ReplicaSet's pod template without its hash label, plus the
   * step's metadata.
   */
  private static ExperimentTemplate template(RolloutPass pass, RolloutExperimentTemplate t) {
    ReplicaSet source = "stable".equals(t.getSpecRef()) ? pass.stableRS : pass.newRS;
    PodTemplateSpec pod = ModelJson.deepCopy(source.getSpec().getTemplate());
    if (pod.getMetadata() == null) {
      pod.setMetadata(new ObjectMetaBuilder().build());
    }
    Map<String, String> podLabels = new LinkedHashMap<>();
    if (pod.getMetadata().getLabels() != null) {
      podLabels.putAll(pod.getMetadata().getLabels());
    }
    podLabels.remove(Labels.POD_TEMPLATE_HASH);
    LabelSelector base =
        t.getSelector() != null ? t.getSelector() : pass.rollout.getSpec().getSelector();
    Map<String, String> matchLabels = new LinkedHashMap<>();
    if (base != null && base.getMatchLabels() != null) {
      matchLabels.putAll(base.getMatchLabels());
    }
    matchLabels.remove(Labels.POD_TEMPLATE_HASH);
    Map<String, String> podAnnotations = new LinkedHashMap<>();
    if (pod.getMetadata().getAnnotations() != null) {
      podAnnotations.putAll(pod.getMetadata().getAnnotations());
    }
    if (t.getMetadata() != null) {
      if (t.getMetadata().getLabels() != null) {
        podLabels.putAll(t.getMetadata().getLabels());
        matchLabels.putAll(t.getMetadata().getLabels());
      }
      if (t.getMetadata().getAnnotations() != null) {
        podAnnotations.putAll(t.getMetadata().getAnnotations());
      }
    }
    pod.getMetadata().setLabels(podLabels);
    pod.getMetadata().setAnnotations(podAnnotations.isEmpty() ? null : podAnnotations);
    ExperimentTemplate out = new ExperimentTemplate();
    out.setName(t.getName());
    out.setReplicas(t.getReplicas());
    out.setMinReadySeconds(pass.rollout.getSpec().getMinReadySeconds());
    out.setSelector(
        new LabelSelectorBuilder()
            .withMatchLabels(matchLabels)
            .withMatchExpressions(base == null ? null : base.getMatchExpressions())
            .build());
    out.setTemplate(pod);
    if (t.getService() != null || t.getWeight() != null) {
      out.setService(
          t.getService() != null ? ModelJson.deepCopy(t.getService()) : new TemplateService());
    }
    return out;
  }

  /**
   * Successful completes the step; Failed/Error abort; Inconclusive pauses (docs/compatibility.md
   * §12.2).
   */
  private static void react(RolloutPass pass, Experiment ex) {
    String phase = phase(ex);
    if (AnalysisPhase.INCONCLUSIVE.equals(phase)) {
      if (!PauseConditions.has(pass.old, PauseReason.INCONCLUSIVE_EXPERIMENT)) {
        LOG.info("{} Experiment {} is Inconclusive: pausing", pass.ctx, ex.getMetadata().getName());
      }
      pass.addPause.add(PauseReason.INCONCLUSIVE_EXPERIMENT);
    } else if (AnalysisPhase.FAILED.equals(phase) || AnalysisPhase.ERROR.equals(phase)) {
      if (!pass.addAbort) {
        String message = ex.getStatus().getMessage();
        pass.addAbort = true;
        pass.abortMessage =
            "Experiment analysis phase is "
                + phase.toLowerCase(java.util.Locale.ROOT)
                + (message == null || message.isEmpty() ? "" : ": " + message);
        LOG.info(
            "{} Experiment {} is {}: aborting ({})",
            pass.ctx,
            ex.getMetadata().getName(),
            phase,
            pass.abortMessage);
      }
    }
  }

  /** Terminates every unfinished Experiment other than the current one, unless already told to. */
  private Future<Void> terminate(RolloutPass pass, List<Experiment> all, Experiment current) {
    List<Future<Void>> calls = new ArrayList<>();
    for (Experiment ex : all) {
      String name = ex.getMetadata().getName();
      if (current != null && name.equals(current.getMetadata().getName())) {
        continue;
      }
      if (AnalysisPhase.isCompleted(phase(ex))
          || ex.getSpec() == null
          || Boolean.TRUE.equals(ex.getSpec().getTerminate())) {
        continue;
      }
      LOG.info("{} terminating Experiment {}", pass.ctx, name);
      calls.add(
          api.patch(
                  Experiment.class, pass.namespace(), name, null, "{\"spec\":{\"terminate\":true}}")
              .onSuccess(cache::wrote)
              .recover(
                  err ->
                      KubeApiException.isNotFound(err)
                          ? Future.succeededFuture()
                          : Future.failedFuture(err))
              .mapEmpty());
    }
    return Future.all(calls).mapEmpty();
  }

  /**
   * Deletes completed Experiments beyond {@code spec.analysis.successfulRunHistoryLimit} / {@code
   * unsuccessfulRunHistoryLimit} (default 5 each, newest kept; limits shared with AnalysisRuns).
   */
  private Future<Void> deleteHistory(RolloutPass pass, List<Experiment> all, Experiment current) {
    List<Experiment> done = new ArrayList<>();
    for (Experiment ex : all) {
      if ((current == null || !ex.getMetadata().getName().equals(current.getMetadata().getName()))
          && AnalysisPhase.isCompleted(phase(ex))) {
        done.add(ex);
      }
    }
    done.sort((a, b) -> newer(a, b) ? -1 : newer(b, a) ? 1 : 0);
    var limits = pass.rollout.getSpec().getAnalysis();
    int ok =
        limits == null || limits.getSuccessfulRunHistoryLimit() == null
            ? 5
            : limits.getSuccessfulRunHistoryLimit();
    int bad =
        limits == null || limits.getUnsuccessfulRunHistoryLimit() == null
            ? 5
            : limits.getUnsuccessfulRunHistoryLimit();
    int okSeen = 0;
    int badSeen = 0;
    List<Future<Void>> deletes = new ArrayList<>();
    for (Experiment ex : done) {
      boolean successful = AnalysisPhase.SUCCESSFUL.equals(phase(ex));
      boolean keep = successful ? okSeen++ < ok : badSeen++ < bad;
      if (!keep) {
        String name = ex.getMetadata().getName();
        LOG.info("{} deleting Experiment {} (history)", pass.ctx, name);
        deletes.add(
            api.delete(Experiment.class, pass.namespace(), name)
                .onSuccess(v -> cache.forget("Experiment", pass.namespace(), name)));
      }
    }
    return Future.all(deletes).mapEmpty();
  }

  static String phase(Experiment ex) {
    return ex == null || ex.getStatus() == null ? null : ex.getStatus().getPhase();
  }

  private static <T> List<T> list(List<T> l) {
    return l == null ? List.of() : l;
  }
}
