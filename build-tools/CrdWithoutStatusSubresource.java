import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Build step (run with {@code java build-tools/CrdWithoutStatusSubresource.java <crd.yml>...} after
 * the fabric8 CRD generator): replaces the {@code subresources: {status: {}}} block of each given
 * CRD with {@code subresources: {}}.
 *
 * <p>The generator adds the status subresource to every custom resource whose {@code status}
 * property is not {@code Void}. Argo Rollouts' AnalysisRun and Experiment CRDs have none: their
 * controllers write {@code status} with a normal update of the object, and a CRD that had the
 * subresource would silently drop those writes. The edit is textual because the generator's output
 * layout is fixed; a file without exactly that block fails the build.
 */
public final class CrdWithoutStatusSubresource {

  private CrdWithoutStatusSubresource() {}

  /**
   * Edits each file in place.
   *
   * @param args paths of generated CRD YAML files
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
        String trimmed = line.strip();
        if (trimmed.equals("subresources:") && i + 1 < lines.size()) {
          String indent = line.substring(0, line.indexOf('s'));
          String next = lines.get(i + 1);
          boolean onlyStatus =
              next.equals(indent + "  status: {}")
                  && (i + 2 >= lines.size() || !lines.get(i + 2).startsWith(indent + "  "));
          if (onlyStatus) {
            out.add(indent + "subresources: {}");
            i++;
            edits++;
            continue;
          }
        }
        out.add(line);
      }
      if (edits != 1) {
        throw new IllegalStateException(
            file + ": expected one 'subresources: {status: {}}' block, found " + edits);
      }
      Files.write(file, out, StandardCharsets.UTF_8);
    }
  }
}
