package io.rollgate.controller.analysis.model;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import io.rollgate.api.Argument;
import io.rollgate.api.Metric;
import io.rollgate.api.ModelJson;
import io.rollgate.api.SecretKeyRef;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Argument substitution in metrics (docs/compatibility.md §9.3, Argo's {@code
 * template.ResolveArgs}): the metric is encoded as JSON, every {@code {{ args.<name> }}} token
 * (whitespace inside the braces trimmed) is replaced by the argument's value escaped as the inside
 * of a JSON string, and the text is decoded again. Any other {@code {{...}}} token is an error.
 */
public final class Arguments {

  /**
   * Placeholder for Secret-backed values while a run is validated and scheduled (the Secret is read
   * only to measure).
   */
  public static final String SECRET_PLACEHOLDER = "temp-for-secret";

  private Arguments() {}

  /** A metric that cannot be resolved; the message is Argo's. */
  public static final class ArgumentException extends Exception {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the error.
     *
     * @param message for example {@code failed to resolve {{args.x}}}
     */
    public ArgumentException(String message) {
      super(message);
    }
  }

  /** Reads Secret-backed argument values. */
  @FunctionalInterface
  public interface SecretValues {
    /**
     * Returns the value of a Secret key.
     *
     * @param ref the reference ({@code args[].valueFrom.secretKeyRef})
     * @return the value
     * @throws ArgumentException when the Secret or the key does not exist
     */
    String value(SecretKeyRef ref) throws ArgumentException;
  }

  /**
   * Builds the name-to-value map of a run's arguments.
   *
   * @param args {@code spec.args}; may be {@code null}
   * @param secrets reads {@code valueFrom.secretKeyRef}; {@code null} puts {@link
   *     #SECRET_PLACEHOLDER} instead
   * @return the values keyed by argument name
   * @throws ArgumentException {@code argument "<x>" was not supplied} for an argument with neither
   *     value nor Secret, or the Secret lookup's error
   */
  public static Map<String, String> values(List<Argument> args, SecretValues secrets)
      throws ArgumentException {
    Map<String, String> values = new HashMap<>();
    if (args == null) {
      return values;
    }
    for (Argument arg : args) {
      String value = arg.getValue();
      if (value == null
          && arg.getValueFrom() != null
          && arg.getValueFrom().getSecretKeyRef() != null) {
        value =
            secrets == null
                ? SECRET_PLACEHOLDER
                : secrets.value(arg.getValueFrom().getSecretKeyRef());
      }
      if (value == null) {
        throw new ArgumentException("argument \"" + arg.getName() + "\" was not supplied");
      }
      values.put(arg.getName(), value);
    }
    return values;
  }

  /**
   * Lists the Secret references of a run's arguments that have no literal value.
   *
   * @param args {@code spec.args}; may be {@code null}
   * @return the references, in argument order
   */
  public static List<SecretKeyRef> secretRefs(List<Argument> args) {
    List<SecretKeyRef> refs = new ArrayList<>();
    if (args != null) {
      for (Argument arg : args) {
        if (arg.getValue() == null
            && arg.getValueFrom() != null
            && arg.getValueFrom().getSecretKeyRef() != null) {
          refs.add(arg.getValueFrom().getSecretKeyRef());
        }
      }
    }
    return refs;
  }

  /**
   * Substitutes argument values into every metric.
   *
   * @param metrics the metrics
   * @param values argument values by name
   * @return new metric objects; the inputs are not modified
   * @throws ArgumentException for the first metric with an unresolvable token
   */
  public static List<Metric> substitute(List<Metric> metrics, Map<String, String> values)
      throws ArgumentException {
    List<Metric> out = new ArrayList<>();
    for (Metric m : metrics) {
      out.add(substitute(m, values));
    }
    return out;
  }

  /**
   * Substitutes argument values into one metric.
   *
   * @param metric the metric
   * @param values argument values by name
   * @return a new metric object
   * @throws ArgumentException {@code failed to resolve {{<token>}}} for the last token that is not
   *     a known argument
   */
  public static Metric substitute(Metric metric, Map<String, String> values)
      throws ArgumentException {
    String json = ModelJson.toJson(metric);
    String resolved = substitute(json, values);
    return ModelJson.fromJson(resolved, Metric.class);
  }

  /**
   * Substitutes {@code {{args.<name>}}} tokens in a JSON text.
   *
   * @param json the JSON text
   * @param values argument values by name
   * @return the text with every token replaced by the JSON-escaped value
   * @throws ArgumentException {@code failed to resolve {{<token>}}} (the raw token, as Argo reports
   *     the last one)
   */
  static String substitute(String json, Map<String, String> values) throws ArgumentException {
    StringBuilder out = new StringBuilder(json.length());
    String unresolved = null;
    int pos = 0;
    while (true) {
      int open = json.indexOf("{{", pos);
      if (open < 0) {
        break;
      }
      int close = json.indexOf("}}", open + 2);
      if (close < 0) {
        break;
      }
      out.append(json, pos, open);
      String tag = json.substring(open + 2, close);
      String trimmed = tag.strip();
      String value =
          trimmed.startsWith("args.") ? values.get(trimmed.substring("args.".length())) : null;
      if (value == null) {
        unresolved = tag;
      } else {
        out.append(JsonStringEncoder.getInstance().quoteAsString(value));
      }
      pos = close + 2;
    }
    out.append(json, pos, json.length());
    if (unresolved != null) {
      throw new ArgumentException("failed to resolve {{" + unresolved + "}}");
    }
    return out.toString();
  }
}
