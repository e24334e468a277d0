package io.rollgate.analysis;

import com.fasterxml.jackson.databind.JsonNode;
import io.rollgate.api.AnalysisRunArgument;
import io.rollgate.api.Argument;
import io.rollgate.api.ModelJson;
import io.rollgate.api.Rollout;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Arguments of the AnalysisRuns a Rollout creates (docs/compatibility.md §1.6, §9.3): the Rollout's
 * own {@code args[]} are resolved to plain values ({@code podTemplateHashValue: Latest|Stable},
 * {@code fieldRef.fieldPath}), then merged into the templates' arguments.
 */
public final class RunArguments {

  /**
   * Validation message for a {@code metadata...} fieldPath the downward API cannot read
   * (docs/compatibility.md §2.2 item 26).
   */
  public static final String INVALID_METADATA_FIELD_REF =
      "Analyses arguments must refer to valid object metadata supported by downwardAPI";

  private static final Pattern SUBSCRIPT =
      Pattern.compile("^(metadata\\.(?:labels|annotations))\\['(.*)'\\]$");

  private RunArguments() {}

  /**
   * Resolves the Rollout's analysis arguments to plain values.
   *
   * @param args the Rollout analysis {@code args[]}, or null
   * @param rollout the Rollout (fieldRef source)
   * @param newHash the new ReplicaSet's pod-template hash ({@code podTemplateHashValue: Latest})
   * @param stableHash the stable ReplicaSet's hash ({@code Stable}), or null
   * @return one argument with a {@code value} per input argument, in order
   * @throws AnalysisSpecException when a fieldPath cannot be read or an argument has neither value
   *     nor valueFrom
   */
  public static List<Argument> resolveRolloutArgs(
      List<AnalysisRunArgument> args, Rollout rollout, String newHash, String stableHash)
      throws AnalysisSpecException {
    List<Argument> out = new ArrayList<>();
    if (args == null) {
      return out;
    }
    JsonNode json = null;
    for (AnalysisRunArgument a : args) {
      String value = a.getValue();
      if (a.getValueFrom() != null) {
        String hashValue = a.getValueFrom().getPodTemplateHashValue();
        if (hashValue != null) {
          if ("Latest".equals(hashValue)) {
            value = newHash;
          } else if ("Stable".equals(hashValue)) {
            value = stableHash;
          } else {
            throw new AnalysisSpecException(
                "args."
                    + a.getName()
                    + ": podTemplateHashValue must be Stable or Latest, not '"
                    + hashValue
                    + "'");
          }
          value = value == null ? "" : value;
        } else if (a.getValueFrom().getFieldRef() != null) {
          String path = a.getValueFrom().getFieldRef().getFieldPath();
          if (path != null && path.startsWith("metadata")) {
            value = metadataField(rollout, path);
          } else {
            if (json == null) {
              json = ModelJson.toTree(rollout);
            }
            value = jsonField(json, path);
          }
        }
      }
      Argument arg = new Argument();
      arg.setName(a.getName());
      arg.setValue(value);
      out.add(arg);
    }
    return out;
  }

  /**
   * Reads a downward-API style field of the Rollout: {@code metadata.name}, {@code
   * metadata.namespace}, {@code metadata.uid}, {@code metadata.labels}, {@code
   * metadata.annotations} (as {@code k="v"} lines, sorted), {@code metadata.labels['k']}, {@code
   * metadata.annotations['k']} (empty when absent).
   *
   * @param rollout the Rollout
   * @param path the fieldPath
   * @return the value
   * @throws AnalysisSpecException {@code unsupported fieldPath: <path>}
   */
  public static String metadataField(Rollout rollout, String path) throws AnalysisSpecException {
    var meta = rollout.getMetadata();
    Matcher m = SUBSCRIPT.matcher(path);
    if (m.matches()) {
      Map<String, String> map =
          m.group(1).endsWith("labels") ? meta.getLabels() : meta.getAnnotations();
      return map == null ? "" : map.getOrDefault(m.group(2), "");
    }
    switch (path) {
      case "metadata.name":
        return nz(meta.getName());
      case "metadata.namespace":
        return nz(meta.getNamespace());
      case "metadata.uid":
        return nz(meta.getUid());
      case "metadata.labels":
        return formatMap(meta.getLabels());
      case "metadata.annotations":
        return formatMap(meta.getAnnotations());
      default:
        throw new AnalysisSpecException("unsupported fieldPath: " + path);
    }
  }

  private static String formatMap(Map<String, String> map) {
    if (map == null) {
      return "";
    }
    StringBuilder sb = new StringBuilder();
    for (Map.Entry<String, String> e : new TreeMap<>(map).entrySet()) {
      if (sb.length() > 0) {
        sb.append('\n');
      }
      sb.append(e.getKey())
          .append("=\"")
          .append(e.getValue().replace("\\", "\\\\").replace("\"", "\\\""))
          .append('"');
    }
    return sb.toString();
  }

  /**
   * Walks the Rollout's JSON along a path such as {@code spec.template.spec.containers[0].image} or
   * {@code status.stableRS}.
   *
   * @param json the Rollout as JSON
   * @param path the fieldPath
   * @return the primitive value at the end of the path, as text (numbers as Go prints them)
   * @throws AnalysisSpecException when the path is missing or does not end on a primitive
   */
  public static String jsonField(JsonNode json, String path) throws AnalysisSpecException {
    if (path == null || path.isEmpty()) {
      throw new AnalysisSpecException("fieldPath is required");
    }
    JsonNode node = json;
    for (String part : path.split("[.\\[\\]]")) {
      if (part.isEmpty()) {
        continue;
      }
      if (node == null || node.isNull() || node.isMissingNode()) {
        break;
      }
      if (node.isArray()) {
        int i;
        try {
          i = Integer.parseInt(part);
        } catch (NumberFormatException e) {
          throw new AnalysisSpecException("invalid index '" + part + "' in fieldPath " + path);
        }
        node = i >= 0 && i < node.size() ? node.get(i) : null;
      } else if (node.isObject()) {
        node = node.get(part);
      } else {
        node = null;
      }
    }
    if (node == null || node.isNull() || node.isMissingNode()) {
      throw new AnalysisSpecException("fieldPath " + path + " not found in rollout");
    }
    if (node.isContainerNode()) {
      throw new AnalysisSpecException("fieldPath " + path + " does not refer to a primitive value");
    }
    if (node.isNumber()) {
      BigDecimal d = node.decimalValue().stripTrailingZeros();
      return d.scale() <= 0 ? d.toBigInteger().toString() : d.toPlainString();
    }
    return node.asText();
  }

  /**
   * Merges the Rollout's resolved arguments into the templates' (docs/compatibility.md §9.3):
   * template arguments are the base; an incoming argument of the same name replaces its value (else
   * its valueFrom); incoming arguments no template declares are dropped.
   *
   * @param incoming the Rollout's resolved arguments
   * @param templateArgs the flattened template arguments
   * @return the run's arguments
   * @throws AnalysisSpecException {@code args.<name> was not resolved} when one is left without
   *     value and valueFrom
   */
  public static List<Argument> merge(List<Argument> incoming, List<Argument> templateArgs)
      throws AnalysisSpecException {
    List<Argument> out = new ArrayList<>();
    for (Argument t : templateArgs) {
      out.add(ModelJson.deepCopy(t));
    }
    for (Argument in : incoming) {
      for (Argument t : out) {
        if (t.getName().equals(in.getName())) {
          if (in.getValue() != null) {
            t.setValue(in.getValue());
          } else if (in.getValueFrom() != null) {
            t.setValueFrom(ModelJson.deepCopy(in.getValueFrom()));
          }
        }
      }
    }
    for (Argument a : out) {
      if (a.getValue() == null && a.getValueFrom() == null) {
        throw new AnalysisSpecException("args." + a.getName() + " was not resolved");
      }
    }
    return out;
  }

  private static String nz(String s) {
    return s == null ? "" : s;
  }
}
