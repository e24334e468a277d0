package io.rollgate.controller.experiment.model;

import io.rollgate.api.AnalysisPhase;
import io.rollgate.api.ExperimentAnalysisRunStatus;
import io.rollgate.api.ExperimentAnalysisTemplateRef;
import io.rollgate.api.ExperimentSpec;
import io.rollgate.api.ExperimentStatus;
import io.rollgate.api.ExperimentTemplate;
import io.rollgate.api.TemplateStatus;
import io.rollgate.controller.analysis.model.Times;
import io.rollgate.defaults.GoDurations;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The decisions of one Experiment pass (docs/compatibility.md §12.1), as pure functions of the
 * spec, the stored status and the observed ReplicaSets and AnalysisRuns: defaults, validation, each
 * template's status, whether the Experiment is terminating, and its phase.
 */
public final class ExperimentRules {

  /** Template status: the ReplicaSet is not (yet) available. */
  public static final String PROGRESSING = "Progressing";

  /** Template status: every desired pod is available. */
  public static final String RUNNING = "Running";

  /** Template status: ran until the Experiment ended. */
  public static final String SUCCESSFUL = "Successful";

  /** Template status: did not become available within {@code progressDeadlineSeconds}. */
  public static final String FAILED = "Failed";

  /** Template status: its ReplicaSet or Service could not be made. */
  public static final String ERROR = "Error";

  /** Default of {@code spec.progressDeadlineSeconds}, seconds. */
  public static final int DEFAULT_PROGRESS_DEADLINE_SECONDS = 600;

  /** Default of {@code spec.scaleDownDelaySeconds}, seconds. */
  public static final int DEFAULT_SCALE_DOWN_DELAY_SECONDS = 30;

  private ExperimentRules() {}

  /**
   * Desired pods of a template ({@code templates[].replicas}, default 1).
   *
   * @param t the template
   * @return the replica count
   */
  public static int replicas(ExperimentTemplate t) {
    return t.getReplicas() == null ? 1 : Math.max(0, t.getReplicas());
  }

  /**
   * {@code spec.progressDeadlineSeconds}, default 600.
   *
   * @param spec the spec
   * @return seconds
   */
  public static int progressDeadlineSeconds(ExperimentSpec spec) {
    return spec.getProgressDeadlineSeconds() == null
        ? DEFAULT_PROGRESS_DEADLINE_SECONDS
        : spec.getProgressDeadlineSeconds();
  }

  /**
   * {@code spec.scaleDownDelaySeconds}, default 30.
   *
   * @param spec the spec
   * @return seconds
   */
  public static int scaleDownDelaySeconds(ExperimentSpec spec) {
    return spec.getScaleDownDelaySeconds() == null
        ? DEFAULT_SCALE_DOWN_DELAY_SECONDS
        : Math.max(0, spec.getScaleDownDelaySeconds());
  }

  /**
   * Checks the spec before anything is created: at least one template; template names present and
   * unique; each template with a selector and a pod template whose labels match the selector's
   * {@code matchLabels}; analyses named uniquely and with a template name; a parseable duration.
   *
   * @param spec the spec
   * @return the problems as {@code <field path>: <reason>}, empty when valid
   */
  public static List<String> validate(ExperimentSpec spec) {
    List<String> errors = new ArrayList<>();
    if (spec == null) {
      errors.add("spec: Required value");
      return errors;
    }
    List<ExperimentTemplate> templates =
        spec.getTemplates() == null ? List.of() : spec.getTemplates();
    if (templates.isEmpty()) {
      errors.add("spec.templates: Required value: an Experiment needs at least one template");
    }
    Set<String> names = new HashSet<>();
    for (int i = 0; i < templates.size(); i++) {
      ExperimentTemplate t = templates.get(i);
      String path = "spec.templates[" + i + "]";
      if (t.getName() == null || t.getName().isEmpty()) {
        errors.add(path + ".name: Required value");
      } else if (!names.add(t.getName())) {
        errors.add(path + ".name: Duplicate value: \"" + t.getName() + "\"");
      }
      if (t.getSelector() == null) {
        errors.add(path + ".selector: Required value");
      }
      if (t.getTemplate() == null) {
        errors.add(path + ".template: Required value");
      } else if (t.getSelector() != null && t.getSelector().getMatchLabels() != null) {
        Map<String, String> labels =
            t.getTemplate().getMetadata() == null
                    || t.getTemplate().getMetadata().getLabels() == null
                ? Map.of()
                : t.getTemplate().getMetadata().getLabels();
        for (Map.Entry<String, String> e : t.getSelector().getMatchLabels().entrySet()) {
          if (!e.getValue().equals(labels.get(e.getKey()))) {
            errors.add(
                path
                    + ".template.metadata.labels: Invalid value: `selector` does not match template `labels`");
            break;
          }
        }
      }
      if (t.getReplicas() != null && t.getReplicas() < 0) {
        errors.add(
            path
                + ".replicas: Invalid value: "
                + t.getReplicas()
                + ": must be greater than or equal to 0");
      }
    }
    Set<String> analyses = new HashSet<>();
    List<ExperimentAnalysisTemplateRef> refs =
        spec.getAnalyses() == null ? List.of() : spec.getAnalyses();
    for (int i = 0; i < refs.size(); i++) {
      ExperimentAnalysisTemplateRef a = refs.get(i);
      String path = "spec.analyses[" + i + "]";
      if (a.getName() == null || a.getName().isEmpty()) {
        errors.add(path + ".name: Required value");
      } else if (!analyses.add(a.getName())) {
        errors.add(path + ".name: Duplicate value: \"" + a.getName() + "\"");
      }
      if (a.getTemplateName() == null || a.getTemplateName().isEmpty()) {
        errors.add(path + ".templateName: Required value");
      }
    }
    if (spec.getDuration() != null
        && !spec.getDuration().isEmpty()
        && GoDurations.parse(spec.getDuration()).isEmpty()) {
      errors.add(
          "spec.duration: Invalid value: \""
              + spec.getDuration()
              + "\": not a duration such as 30s, 5m or 1h");
    }
    return errors;
  }

  /**
   * The Experiment's duration ({@code spec.duration}).
   *
   * @param spec the spec
   * @return the duration, empty when unset (run until terminated or required analyses finish)
   */
  public static Optional<Duration> duration(ExperimentSpec spec) {
    if (spec.getDuration() == null || spec.getDuration().isEmpty()) {
      return Optional.empty();
    }
    return GoDurations.parse(spec.getDuration());
  }

  /**
   * When the duration ends: {@code status.availableAt + spec.duration}.
   *
   * @param spec the spec
   * @param status the status
   * @return the end, empty without a duration or before every template became available
   */
  public static Optional<Instant> durationEnd(ExperimentSpec spec, ExperimentStatus status) {
    Instant availableAt = status == null ? null : Times.parse(status.getAvailableAt());
    Optional<Duration> d = duration(spec);
    if (availableAt == null || d.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(availableAt.plus(d.get()));
  }

  /**
   * The next status of one template (docs/compatibility.md §12.1): a completed status (Successful,
   * Failed, Error) stays; while the Experiment is terminating a template that did not fail becomes
   * Successful; all desired pods available ⇒ Running; otherwise Progressing, and Failed once {@code
   * lastTransitionTime + progressDeadlineSeconds} passed. {@code lastTransitionTime} moves whenever
   * the status changes.
   *
   * @param previous the stored status, or null on the first pass
   * @param template the template
   * @param observed the replica counts of its ReplicaSet (null counts when it does not exist yet)
   * @param terminating whether the Experiment is terminating
   * @param progressDeadlineSeconds {@code spec.progressDeadlineSeconds}, seconds
   * @param now the pass time
   * @return the new status (a new object)
   */
  public static TemplateStatus templateStatus(
      TemplateStatus previous,
      ExperimentTemplate template,
      TemplateStatus observed,
      boolean terminating,
      int progressDeadlineSeconds,
      Instant now) {
    TemplateStatus ts = new TemplateStatus();
    ts.setName(template.getName());
    ts.setReplicas(count(observed.getReplicas()));
    ts.setUpdatedReplicas(count(observed.getUpdatedReplicas()));
    ts.setReadyReplicas(count(observed.getReadyReplicas()));
    ts.setAvailableReplicas(count(observed.getAvailableReplicas()));
    ts.setCollisionCount(previous == null ? null : previous.getCollisionCount());
    ts.setServiceName(previous == null ? null : previous.getServiceName());
    ts.setPodTemplateHash(observed.getPodTemplateHash());
    String before = previous == null ? null : previous.getStatus();
    String status;
    String message = previous == null ? null : previous.getMessage();
    if (completed(before)) {
      status = before;
    } else if (terminating) {
      status = SUCCESSFUL;
    } else if (replicas(template) > 0
        && ts.getAvailableReplicas() >= replicas(template)
        && ts.getReplicas() >= replicas(template)) {
      status = RUNNING;
      message = null;
    } else {
      status = PROGRESSING;
      Instant since =
          before == null || RUNNING.equals(before)
              ? now
              : Times.parse(previous.getLastTransitionTime());
      if (since != null && !now.isBefore(since.plusSeconds(progressDeadlineSeconds))) {
        status = FAILED;
        message =
            "Template '"
                + template.getName()
                + "' exceeded its progressDeadlineSeconds ("
                + progressDeadlineSeconds
                + ")";
      }
    }
    ts.setStatus(status);
    ts.setMessage(message);
    ts.setLastTransitionTime(
        status.equals(before) && previous.getLastTransitionTime() != null
            ? previous.getLastTransitionTime()
            : Times.format(now));
    return ts;
  }

  /**
   * When a Progressing template fails its progress deadline.
   *
   * @param ts the template status
   * @param progressDeadlineSeconds seconds
   * @return the deadline, empty unless the template is Progressing
   */
  public static Optional<Instant> progressDeadline(TemplateStatus ts, int progressDeadlineSeconds) {
    Instant since = Times.parse(ts.getLastTransitionTime());
    if (!PROGRESSING.equals(ts.getStatus()) || since == null) {
      return Optional.empty();
    }
    return Optional.of(since.plusSeconds(progressDeadlineSeconds));
  }

  /**
   * Whether the Experiment is terminating (docs/compatibility.md §12.1): {@code spec.terminate}, a
   * completed phase, a Failed or Error template, an analysis completed other than Successful, every
   * {@code requiredForCompletion} analysis Successful, or the duration elapsed.
   *
   * @param spec the spec
   * @param status the status as far as computed in this pass (phase, templates, analyses,
   *     availableAt)
   * @param now the pass time
   * @return whether to scale down and terminate the analyses
   */
  public static boolean terminating(ExperimentSpec spec, ExperimentStatus status, Instant now) {
    if (Boolean.TRUE.equals(spec.getTerminate()) || AnalysisPhase.isCompleted(status.getPhase())) {
      return true;
    }
    for (TemplateStatus ts : list(status.getTemplateStatuses())) {
      if (FAILED.equals(ts.getStatus()) || ERROR.equals(ts.getStatus())) {
        return true;
      }
    }
    for (ExperimentAnalysisRunStatus a : list(status.getAnalysisRuns())) {
      if (AnalysisPhase.isCompleted(a.getPhase())
          && !AnalysisPhase.SUCCESSFUL.equals(a.getPhase())) {
        return true;
      }
    }
    if (requiredAnalysesSucceeded(spec, status)) {
      return true;
    }
    Optional<Instant> end = durationEnd(spec, status);
    return end.isPresent() && !now.isBefore(end.get());
  }

  /**
   * Whether there is at least one {@code requiredForCompletion} analysis and every one of them is
   * Successful.
   *
   * @param spec the spec
   * @param status the status
   * @return the answer
   */
  public static boolean requiredAnalysesSucceeded(ExperimentSpec spec, ExperimentStatus status) {
    Map<String, String> phases = analysisPhases(status);
    boolean any = false;
    for (ExperimentAnalysisTemplateRef a : list(spec.getAnalyses())) {
      if (Boolean.TRUE.equals(a.getRequiredForCompletion())) {
        any = true;
        if (!AnalysisPhase.SUCCESSFUL.equals(phases.get(a.getName()))) {
          return false;
        }
      }
    }
    return any;
  }

  /**
   * The Experiment phase and message (docs/compatibility.md §12.1).
   *
   * <p>Templates first: any Failed or Error template gives that phase; all Successful ⇒ Successful;
   * all Running or Successful ⇒ Running; else Pending. While the templates run: the worst analysis
   * that completed other than Successful gives its phase; all required analyses Successful ⇒
   * Successful ({@code Required AnalysisRuns completed}); otherwise the template phase. Once the
   * templates completed Successful: an analysis completed other than Successful gives the worst
   * such phase; when every analysis completed, or one is {@code requiredForCompletion}, the worst
   * analysis phase; otherwise Successful (non-required analyses still running are then terminated).
   * A completed phase never changes.
   *
   * @param spec the spec
   * @param status the status computed in this pass (templates and analyses)
   * @return the phase and message
   */
  public static PhaseAndMessage phase(ExperimentSpec spec, ExperimentStatus status) {
    if (AnalysisPhase.isCompleted(status.getPhase())) {
      return new PhaseAndMessage(status.getPhase(), status.getMessage());
    }
    PhaseAndMessage templates = templatePhase(status.getTemplateStatuses());
    List<ExperimentAnalysisRunStatus> analyses = list(status.getAnalysisRuns());
    ExperimentAnalysisRunStatus worstBad = null;
    ExperimentAnalysisRunStatus worst = null;
    boolean allCompleted = analyses.size() == list(spec.getAnalyses()).size();
    for (ExperimentAnalysisRunStatus a : analyses) {
      String p =
          a.getPhase() == null || a.getPhase().isEmpty() ? AnalysisPhase.PENDING : a.getPhase();
      if (!AnalysisPhase.isCompleted(p)) {
        allCompleted = false;
      }
      if (AnalysisPhase.isCompleted(p)
          && !AnalysisPhase.SUCCESSFUL.equals(p)
          && (worstBad == null || AnalysisPhase.isWorse(p, worstBad.getPhase()))) {
        worstBad = a;
      }
      if (worst == null || AnalysisPhase.isWorse(p, phaseOf(worst))) {
        worst = a;
      }
    }
    if (FAILED.equals(templates.phase()) || ERROR.equals(templates.phase())) {
      return templates;
    }
    if (worstBad != null) {
      return new PhaseAndMessage(worstBad.getPhase(), analysisMessage(worstBad));
    }
    boolean anyRequired =
        list(spec.getAnalyses()).stream()
            .anyMatch(a -> Boolean.TRUE.equals(a.getRequiredForCompletion()));
    if (!AnalysisPhase.isCompleted(templates.phase())) {
      if (requiredAnalysesSucceeded(spec, status)) {
        return new PhaseAndMessage(AnalysisPhase.SUCCESSFUL, "Required AnalysisRuns completed");
      }
      return templates;
    }
    if (allCompleted || anyRequired) {
      if (worst == null) {
        return templates;
      }
      String p = phaseOf(worst);
      return new PhaseAndMessage(
          p, AnalysisPhase.SUCCESSFUL.equals(p) ? templates.message() : analysisMessage(worst));
    }
    return templates;
  }

  /**
   * The phase the templates alone give.
   *
   * @param statuses the template statuses
   * @return Failed/Error (first such template's message), Successful, Running or Pending
   */
  public static PhaseAndMessage templatePhase(List<TemplateStatus> statuses) {
    List<TemplateStatus> all = list(statuses);
    for (TemplateStatus ts : all) {
      if (FAILED.equals(ts.getStatus()) || ERROR.equals(ts.getStatus())) {
        return new PhaseAndMessage(ts.getStatus(), ts.getMessage());
      }
    }
    if (all.isEmpty()) {
      return new PhaseAndMessage(AnalysisPhase.PENDING, null);
    }
    boolean allSuccessful = all.stream().allMatch(t -> SUCCESSFUL.equals(t.getStatus()));
    if (allSuccessful) {
      return new PhaseAndMessage(AnalysisPhase.SUCCESSFUL, null);
    }
    boolean allUp =
        all.stream()
            .allMatch(t -> RUNNING.equals(t.getStatus()) || SUCCESSFUL.equals(t.getStatus()));
    return new PhaseAndMessage(allUp ? AnalysisPhase.RUNNING : AnalysisPhase.PENDING, null);
  }

  /**
   * Whether every template is Running (the moment {@code status.availableAt} is set).
   *
   * @param spec the spec
   * @param statuses the template statuses
   * @return the answer
   */
  public static boolean allRunning(ExperimentSpec spec, List<TemplateStatus> statuses) {
    List<TemplateStatus> all = list(statuses);
    return !all.isEmpty()
        && all.size() == list(spec.getTemplates()).size()
        && all.stream().allMatch(t -> RUNNING.equals(t.getStatus()));
  }

  /**
   * Phase and message of an Experiment.
   *
   * @param phase an {@link AnalysisPhase} value
   * @param message the reason, or null
   */
  public record PhaseAndMessage(String phase, String message) {}

  private static String analysisMessage(ExperimentAnalysisRunStatus a) {
    String msg = "AnalysisRun '" + a.getAnalysisRun() + "' " + phaseOf(a);
    return a.getMessage() == null || a.getMessage().isEmpty() ? msg : msg + ": " + a.getMessage();
  }

  private static String phaseOf(ExperimentAnalysisRunStatus a) {
    return a.getPhase() == null || a.getPhase().isEmpty() ? AnalysisPhase.PENDING : a.getPhase();
  }

  private static Map<String, String> analysisPhases(ExperimentStatus status) {
    Map<String, String> phases = new HashMap<>();
    for (ExperimentAnalysisRunStatus a : list(status.getAnalysisRuns())) {
      phases.put(a.getName(), a.getPhase());
    }
    return phases;
  }

  private static boolean completed(String templateStatus) {
    return SUCCESSFUL.equals(templateStatus)
        || FAILED.equals(templateStatus)
        || ERROR.equals(templateStatus);
  }

  private static int count(Integer i) {
    return i == null ? 0 : i;
  }

  private static <T> List<T> list(List<T> l) {
    return l == null ? List.of() : l;
  }
}
