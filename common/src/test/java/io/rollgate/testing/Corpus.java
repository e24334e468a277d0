package io.rollgate.testing;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rollgate.validation.FieldError;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A recorded test corpus: inputs drawn once by a seeded generator, each with the outcome the code
 * gave when it was recorded, one JSON object a line under {@code src/test/resources/} ({@code
 * validation/}, {@code quantity/}, {@code defaults/}).
 *
 * <p>The corpus tests assert that the current code still gives every recorded outcome. A corpus is
 * rewritten only on purpose, when a change of behaviour is intended: run the corpus tests with
 * {@code -Drollgate.corpus.write=true} ({@code mvn -o -q test -pl common -Dtest='*CorpusTest'
 * -Drollgate.corpus.write=true}), which runs their {@code recordsTheCorpus} method instead of the
 * checks, and review the diff of the files.
 */
public final class Corpus {

  /** The system property that makes the corpus tests record their corpus instead of checking it. */
  public static final String WRITE = "rollgate.corpus.write";

  /** The mapper the corpora are read and written with. */
  public static final ObjectMapper JSON = new ObjectMapper();

  private Corpus() {}

  /**
   * Reads a corpus from the test class path.
   *
   * @param name its resource name, for example {@code validation/rollouts-corpus.jsonl}
   * @return its lines
   */
  public static List<JsonNode> read(String name) {
    List<JsonNode> lines = new ArrayList<>();
    try (InputStream in = Corpus.class.getResourceAsStream("/" + name)) {
      if (in == null) {
        throw new IllegalStateException("no corpus " + name);
      }
      BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        lines.add(JSON.readTree(line));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return lines;
  }

  /**
   * Writes a corpus into the module's test resources (the working directory of a test is its
   * module).
   *
   * @param name its resource name, for example {@code validation/rollouts-corpus.jsonl}
   * @param lines its lines
   */
  public static void write(String name, List<? extends JsonNode> lines) {
    StringBuilder text = new StringBuilder();
    try {
      for (JsonNode line : lines) {
        text.append(JSON.writeValueAsString(line)).append('\n');
      }
      Path file = Path.of("src/test/resources", name);
      Files.createDirectories(file.getParent());
      Files.writeString(file, text, StandardCharsets.UTF_8);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * An error message with what varies from one drawn input to the next taken out (list indices, map
   * keys, quoted values, the limit a request exceeds), so that a generator keeps an input for each
   * kind of error it meets.
   *
   * @param error the error as text
   * @return its shape
   */
  public static String shape(String error) {
    return error.replaceAll(
        "\\[\\d+]|\"[^\"]*\"|(labels|annotations|limits|requests)\\.[^:]*|(limit of).*", "$1$2");
  }

  /**
   * Runs a validation and records what it gave.
   *
   * @param validation appends the errors it finds
   * @return the errors as text ({@code path: Invalid value: value: detail}), or {@code {"thrown":
   *     class}}
   */
  public static JsonNode outcome(Consumer<List<FieldError>> validation) {
    List<FieldError> errors = new ArrayList<>();
    try {
      validation.accept(errors);
    } catch (RuntimeException e) {
      return JSON.createObjectNode().put("thrown", e.getClass().getName());
    }
    return JSON.valueToTree(errors.stream().map(FieldError::toString).toList());
  }
}
