package io.rollgate.controller.experiment.model;

import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.rollgate.analysis.AnalysisSpecException;
import io.rollgate.api.Argument;
import io.rollgate.api.Experiment;
import io.rollgate.api.ExperimentTemplate;
import io.rollgate.api.Labels;
import io.rollgate.controller.analysis.model.Times;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Substitutes the Experiment's own values into the {@code value} of an analysis argument
 * ({@code spec.analyses[].args[].value}) before its AnalysisRun is created, as Argo Rollouts does:
 *
 * <ul>
 *   <li>{@code {{templates.<name>.podTemplateHash}}}: the {@code rollouts-pod-template-hash} label of the template's
 *       ReplicaSet;
 *   <li>{@code {{templates.<name>.replicaset.name}}}: the name of that ReplicaSet;
 *   <li>{@code {{experiment.availableAt}}}: {@code status.availableAt} (RFC 3339), once set;
 *   <li>{@code {{experiment.finishedAt}}}: {@code status.availableAt + spec.duration}, once available and with a
 *       duration.
 * </ul>
 *
 * <p>Whitespace inside the braces is ignored. Any other placeholder, or one whose value is not known yet, makes the
 * argument unresolvable: the analysis then ends in Error and no run is created. A value without {@code {{} is kept as
 * it is; an opening {@code {{} without a closing {@code }}} is an error.
 */
public final class ExperimentArgs {

  private static final String OPEN = "{{";
  private static final String CLOSE = "}}";

  private ExperimentArgs() {}

  /**
   * Resolves the placeholders of every argument value.
   *
   * @param args the analysis's {@code args[]}, or null
   * @param ex the Experiment ({@code spec.templates}, {@code spec.duration})
   * @param availableAt {@code status.availableAt} as this pass computed it, or null
   * @param replicaSets the template ReplicaSets read or created so far, by ReplicaSet name
   * @return the arguments in order, values substituted; an argument without a value keeps none
   * @throws AnalysisSpecException when a value has an unterminated or unknown placeholder, or the
   *     duration is invalid
   */
  public static List<Argument> resolve(
      List<Argument> args, Experiment ex, String availableAt, Map<String, ReplicaSet> replicaSets)
      throws AnalysisSpecException {
    List<Argument> out = new ArrayList<>();
    if (args == null || args.isEmpty()) {
      return out;
    }
    Map<String, String> values = values(ex, availableAt, replicaSets);
    for (Argument a : args) {
      Argument resolved = new Argument();
      resolved.setName(a.getName());
      resolved.setValue(a.getValue() == null ? null : substitute(a.getValue(), values));
      resolved.setValueFrom(a.getValueFrom());
      out.add(resolved);
    }
    return out;
  }

  /** The known placeholders and their values. */
  static Map<String, String> values(
      Experiment ex, String availableAt, Map<String, ReplicaSet> replicaSets)
      throws AnalysisSpecException {
    Map<String, String> values = new HashMap<>();
    Instant available = Times.parse(availableAt);
    if (available != null) {
      values.put("experiment.availableAt", Times.format(available));
      String duration = ex.getSpec().getDuration();
      if (duration != null && !duration.isEmpty()) {
        Optional<Duration> d = ExperimentRules.duration(ex.getSpec());
        if (d.isEmpty()) {
          throw new AnalysisSpecException("invalid duration '" + duration + "'");
        }
        values.put("experiment.finishedAt", Times.format(available.plus(d.get())));
      }
    }
    List<ExperimentTemplate> templates =
        ex.getSpec().getTemplates() == null ? List.of() : ex.getSpec().getTemplates();
    for (ExperimentTemplate t : templates) {
      ReplicaSet rs =
          replicaSets.get(
              ExperimentObjects.replicaSetName(ex.getMetadata().getName(), t.getName()));
      if (rs == null) {
        continue;
      }
      Map<String, String> labels = rs.getMetadata().getLabels();
      String hash = labels == null ? null : labels.get(Labels.POD_TEMPLATE_HASH);
      values.put("templates." + t.getName() + ".podTemplateHash", hash == null ? "" : hash);
      values.put("templates." + t.getName() + ".replicaset.name", rs.getMetadata().getName());
    }
    return values;
  }

  /**
   * Replaces every {@code {{tag}}} by its value; the tag is looked up with surrounding whitespace
   * removed.
   */
  static String substitute(String text, Map<String, String> values) throws AnalysisSpecException {
    StringBuilder out = new StringBuilder();
    String unresolved = null;
    int from = 0;
    while (true) {
      int open = text.indexOf(OPEN, from);
      if (open < 0) {
        break;
      }
      int close = text.indexOf(CLOSE, open + OPEN.length());
      if (close < 0) {
        throw new AnalysisSpecException(
            "cannot find end tag \""
                + CLOSE
                + "\" in \""
                + text
                + "\" starting from \""
                + text.substring(open + OPEN.length())
                + "\"");
      }
      out.append(text, from, open);
      String tag = text.substring(open + OPEN.length(), close);
      String value = values.get(tag.strip());
      if (value == null) {
        unresolved = tag;
      } else {
        out.append(value);
      }
      from = close + CLOSE.length();
    }
    if (unresolved != null) {
      throw new AnalysisSpecException("failed to resolve {{" + unresolved + "}}");
    }
    out.append(text.substring(from));
    return out.toString();
  }
}
