import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Build step (run with {@code java build-tools/CrdArgoSchema.java <crd.yml>...} after the fabric8
 * CRD generator): gives the generated schemas what Argo Rollouts' own CRDs declare and the
 * generator cannot express.
 *
 * <p>{@code spec.restartAt} gets {@code format: date-time}, so the API server refuses a value that
 * is not an RFC 3339 time at apply, as with Argo's CRD (the controller reports a stored bad value
 * as InvalidSpec). So do the status times Argo's CRDs declare that way (Rollout: {@code abortedAt},
 * {@code restartedAt}, conditions' {@code lastTransitionTime}/{@code lastUpdateTime}, pause
 * conditions' {@code startTime}, step plugin statuses' {@code startedAt}/{@code updatedAt}/{@code
 * finishedAt}; AnalysisRun: {@code startedAt}, {@code completedAt}, measurements' {@code
 * startedAt}/{@code finishedAt}/{@code resumeAt}; Experiment: {@code availableAt}, conditions,
 * template statuses' {@code lastTransitionTime}), so clients that read the schema see the same
 * types.
 *
 * <p>Pod-template quantities accept YAML numbers, as the API server accepts them for Pods.
 *
 * <p>The generator writes a {@code Quantity} as {@code anyOf: [integer, string]} with {@code
 * x-kubernetes-int-or-string}, which refuses {@code cpu: 0.001}; Kubernetes' own Pod schema reads a
 * quantity from any JSON number or string, and Argo Rollouts' CRDs leave these fields schemaless.
 * The quantity fields of a pod template ({@code resources.limits}, {@code resources.requests},
 * {@code overhead}: maps; {@code divisor}, {@code sizeLimit}: scalars) become {@code
 * x-kubernetes-preserve-unknown-fields: true}; the controller and the webhook still parse every
 * value and name the field of one that is not a quantity (docs/conformance.md). Other int-or-string
 * fields (ports, maxSurge) are left as they are. The edit is textual, as the generator's layout is
 * fixed; a file in which nothing was found to edit fails the build.
 */
public final class CrdArgoSchema {

  private static final Set<String> MAPS = Set.of("limits:", "requests:", "overhead:");
  private static final Set<String> SCALARS = Set.of("divisor:", "sizeLimit:");

  /**
   * The time fields Argo's CRDs declare as {@code format: date-time}: spec.restartAt and the status
   * times.
   */
  private static final Set<String> TIMES =
      Set.of(
          "restartAt:",
          "abortedAt:",
          "restartedAt:",
          "startTime:",
          "startedAt:",
          "finishedAt:",
          "updatedAt:",
          "lastTransitionTime:",
          "lastUpdateTime:",
          "completedAt:",
          "resumeAt:",
          "availableAt:");

  private CrdArgoSchema() {}

  /**
   * Edits each file in place.
   *
   * @param args paths of generated CRD YAML files that contain pod templates or time fields
   * @throws IOException if a file cannot be read or written
   */
  public static void main(String[] args) throws IOException {
    for (String arg : args) {
      Path file = Path.of(arg);
      List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
      List<String> out = new ArrayList<>();
      int edits = 0;
      for (int i = 0; i < lines.size(); i++) {
        String line = lines.get(i);
        String key = line.strip();
        String indent = line.substring(0, line.length() - line.stripLeading().length());
        String in = indent + "  ";
        if (MAPS.contains(key)
            && matches(
                lines,
                i + 1,
                in + "additionalProperties:",
                in + "  anyOf:",
                in + "  - type: \"integer\"",
                in + "  - type: \"string\"",
                in + "  x-kubernetes-int-or-string: true",
                in + "type: \"object\"")) {
          out.add(line);
          out.add(in + "x-kubernetes-preserve-unknown-fields: true");
          i += 6;
          edits++;
          continue;
        }
        if (TIMES.contains(key) && matches(lines, i + 1, in + "type: \"string\"")) {
          out.add(line);
          out.add(in + "format: \"date-time\"");
          out.add(lines.get(i + 1));
          i += 1;
          edits++;
          continue;
        }
        if (SCALARS.contains(key)
            && matches(
                lines,
                i + 1,
                in + "anyOf:",
                in + "- type: \"integer\"",
                in + "- type: \"string\"",
                in + "x-kubernetes-int-or-string: true")) {
          out.add(line);
          out.add(in + "x-kubernetes-preserve-unknown-fields: true");
          i += 4;
          edits++;
          continue;
        }
        out.add(line);
      }
      if (edits == 0) {
        throw new IllegalStateException(file + ": no quantity or time field found to edit");
      }
      Files.write(file, out, StandardCharsets.UTF_8);
    }
  }

  private static boolean matches(List<String> lines, int from, String... expected) {
    if (from + expected.length > lines.size()) {
      return false;
    }
    for (int k = 0; k < expected.length; k++) {
      if (!lines.get(from + k).equals(expected[k])) {
        return false;
      }
    }
    return true;
  }
}
