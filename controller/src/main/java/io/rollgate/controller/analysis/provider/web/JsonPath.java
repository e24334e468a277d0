package io.rollgate.controller.analysis.provider.web;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A Kubernetes JSONPath template as written in {@code provider.web.jsonPath} ({@code {$.data.ok}},
 * {@code {$}}, {@code {.items[*].value}}): one {@code {...}} expression with an optional leading
 * {@code $}, then any of {@code .field}, {@code ['quoted key']} / {@code ["quoted key"]}, {@code
 * [n]} (negative counts from the end), {@code [start:end]}, {@code [*]} / {@code .*}, unions {@code
 * [0,2]} / {@code ['a','b']}, recursive descent {@code ..field}, and filters {@code [?(@.status ==
 * "ok")]} with {@code == != < <= > >=} against a string, number, boolean or another {@code @} path,
 * or {@code [?(@.field)]} for presence. Errors follow kubectl's JSONPath: {@code <field> is not
 * found}, {@code array index out of bounds: index <i>, length <n>}. Text outside the braces, {@code
 * range}/{@code end} and functions are not supported and are rejected when the template is parsed.
 */
public final class JsonPath {

  private sealed interface Step permits Field, Index, Slice, Wildcard, Recursive, Filter, Union {}

  private record Field(String name) implements Step {}

  private record Index(int index) implements Step {}

  private record Slice(Integer start, Integer end, int step) implements Step {}

  private record Wildcard() implements Step {}

  private record Recursive(Step inner) implements Step {}

  private record Filter(List<Step> left, String op, Object right, List<Step> rightPath)
      implements Step {}

  private record Union(List<Step> alternatives) implements Step {}

  private final String source;
  private final List<Step> steps;

  private JsonPath(String source, List<Step> steps) {
    this.source = source;
    this.steps = steps;
  }

  /**
   * Parses a template; null or blank means {@code {$}} (the whole document), Argo's default.
   *
   * @param template the {@code jsonPath} field
   * @return the parsed path
   * @throws IllegalArgumentException naming the problem, e.g. {@code unclosed action}
   */
  public static JsonPath parse(String template) {
    String t = template == null || template.isBlank() ? "{$}" : template.trim();
    if (!t.startsWith("{")
        || !t.endsWith("}")
        || t.indexOf('{', 1) >= 0 && !insideQuotes(t, t.indexOf('{', 1))) {
      throw new IllegalArgumentException(
          "jsonPath " + template + ": exactly one {...} expression is supported, e.g. {$.data.ok}");
    }
    String expr = t.substring(1, t.length() - 1).trim();
    Parser p = new Parser(expr, template);
    List<Step> steps = p.parsePath(true);
    if (!p.atEnd()) {
      throw p.error("unexpected " + p.rest());
    }
    return new JsonPath(template == null ? "{$}" : template, steps);
  }

  private static boolean insideQuotes(String s, int pos) {
    char quote = 0;
    for (int i = 0; i < pos; i++) {
      char c = s.charAt(i);
      if (quote == 0 && (c == '\'' || c == '"')) {
        quote = c;
      } else if (quote != 0 && c == quote) {
        quote = 0;
      }
    }
    return quote != 0;
  }

  /** The template as written. */
  public String source() {
    return source;
  }

  /**
   * Whether the path selects at most one value by construction (no wildcard, slice, union, filter
   * or recursion).
   *
   * @return true for paths like {@code {$.data.ok}} or {@code {.items[0]}}
   */
  public boolean definite() {
    return steps.stream().allMatch(s -> s instanceof Field || s instanceof Index);
  }

  /**
   * Evaluates the path against a decoded JSON document.
   *
   * @param document null, Boolean, Number, String, List or Map
   * @return every selected value, in document order
   * @throws IllegalArgumentException when a field is missing everywhere or an index is out of
   *     bounds
   */
  public List<Object> find(Object document) {
    List<Object> current = new ArrayList<>();
    current.add(document);
    for (Step step : steps) {
      current = apply(step, current);
    }
    return current;
  }

  private static List<Object> apply(Step step, List<Object> input) {
    List<Object> out = new ArrayList<>();
    if (step instanceof Field f) {
      for (Object v : input) {
        if (v instanceof Map<?, ?> m && m.containsKey(f.name())) {
          out.add(m.get(f.name()));
        }
      }
      if (out.isEmpty()) {
        throw new IllegalArgumentException(f.name() + " is not found");
      }
    } else if (step instanceof Index i) {
      for (Object v : input) {
        if (v instanceof List<?> l) {
          int idx = i.index() < 0 ? l.size() + i.index() : i.index();
          if (idx < 0 || idx >= l.size()) {
            throw new IllegalArgumentException(
                "array index out of bounds: index " + i.index() + ", length " + l.size());
          }
          out.add(l.get(idx));
        }
      }
    } else if (step instanceof Slice s) {
      for (Object v : input) {
        if (v instanceof List<?> l) {
          int n = l.size();
          int start = s.start() == null ? 0 : clamp(s.start() < 0 ? n + s.start() : s.start(), n);
          int end = s.end() == null ? n : clamp(s.end() < 0 ? n + s.end() : s.end(), n);
          for (int k = start; k < end; k += s.step()) {
            out.add(l.get(k));
          }
        }
      }
    } else if (step instanceof Wildcard) {
      for (Object v : input) {
        children(v, out);
      }
    } else if (step instanceof Recursive r) {
      List<Object> all = new ArrayList<>();
      for (Object v : input) {
        descendants(v, all);
      }
      if (r.inner() instanceof Field f) {
        for (Object v : all) {
          if (v instanceof Map<?, ?> m && m.containsKey(f.name())) {
            out.add(m.get(f.name()));
          }
        }
        if (out.isEmpty()) {
          throw new IllegalArgumentException(f.name() + " is not found");
        }
      } else {
        out.addAll(apply(r.inner(), all));
      }
    } else if (step instanceof Union u) {
      for (Object v : input) {
        for (Step alt : u.alternatives()) {
          out.addAll(apply(alt, Collections.singletonList(v)));
        }
      }
    } else if (step instanceof Filter f) {
      for (Object v : input) {
        List<Object> candidates = new ArrayList<>();
        children(v, candidates);
        for (Object c : candidates) {
          if (matches(f, c)) {
            out.add(c);
          }
        }
      }
    }
    return out;
  }

  private static int clamp(int v, int n) {
    return Math.max(0, Math.min(v, n));
  }

  private static void children(Object v, List<Object> out) {
    if (v instanceof List<?> l) {
      out.addAll(l);
    } else if (v instanceof Map<?, ?> m) {
      out.addAll(m.values());
    }
  }

  private static void descendants(Object v, List<Object> out) {
    out.add(v);
    List<Object> kids = new ArrayList<>();
    children(v, kids);
    for (Object k : kids) {
      descendants(k, out);
    }
  }

  private static boolean matches(Filter f, Object candidate) {
    List<Object> left = evalRelative(f.left(), candidate);
    if (f.op() == null) {
      return !left.isEmpty();
    }
    if (left.isEmpty()) {
      return false;
    }
    Object right = f.right();
    if (f.rightPath() != null) {
      List<Object> r = evalRelative(f.rightPath(), candidate);
      if (r.isEmpty()) {
        return false;
      }
      right = r.get(0);
    }
    return compare(left.get(0), f.op(), right);
  }

  private static List<Object> evalRelative(List<Step> path, Object candidate) {
    List<Object> current = new ArrayList<>();
    current.add(candidate);
    try {
      for (Step s : path) {
        current = apply(s, current);
      }
      return current;
    } catch (IllegalArgumentException e) {
      return List.of();
    }
  }

  private static boolean compare(Object left, String op, Object right) {
    if (left instanceof Number a && right instanceof Number b) {
      int c = Double.compare(a.doubleValue(), b.doubleValue());
      return switch (op) {
        case "==" -> c == 0;
        case "!=" -> c != 0;
        case "<" -> c < 0;
        case "<=" -> c <= 0;
        case ">" -> c > 0;
        default -> c >= 0;
      };
    }
    if (left instanceof String a && right instanceof String b) {
      int c = a.compareTo(b);
      return switch (op) {
        case "==" -> c == 0;
        case "!=" -> c != 0;
        case "<" -> c < 0;
        case "<=" -> c <= 0;
        case ">" -> c > 0;
        default -> c >= 0;
      };
    }
    return switch (op) {
      case "==" -> Objects.equals(left, right);
      case "!=" -> !Objects.equals(left, right);
      default -> false;
    };
  }

  @Override
  public String toString() {
    return source;
  }

  /** Recursive-descent parser over the text inside the braces. */
  private static final class Parser {
    private final String s;
    private final String template;
    private int pos;

    Parser(String s, String template) {
      this.s = s;
      this.template = template;
    }

    boolean atEnd() {
      return pos >= s.length();
    }

    String rest() {
      return s.substring(pos);
    }

    IllegalArgumentException error(String what) {
      return new IllegalArgumentException("jsonPath " + template + ": " + what);
    }

    List<Step> parsePath(boolean root) {
      List<Step> steps = new ArrayList<>();
      skipSpaces();
      if (peek('$') || peek('@')) {
        if (peek('@') && root) {
          throw error("@ is only allowed inside a filter");
        }
        pos++;
      }
      while (!atEnd()) {
        char c = s.charAt(pos);
        if (c == '.') {
          if (s.startsWith("..", pos)) {
            pos += 2;
            if (peek('[')) {
              steps.add(new Recursive(parseBracket()));
            } else if (peek('*')) {
              pos++;
              steps.add(new Recursive(new Wildcard()));
            } else {
              steps.add(new Recursive(new Field(parseName())));
            }
          } else {
            pos++;
            if (atEnd() && root) {
              break; // {$.} means the whole document
            }
            if (peek('*')) {
              pos++;
              steps.add(new Wildcard());
            } else if (peek('[')) {
              steps.add(parseBracket());
            } else {
              steps.add(new Field(parseName()));
            }
          }
        } else if (c == '[') {
          steps.add(parseBracket());
        } else if (!root
            && (c == ' ' || c == '=' || c == '!' || c == '<' || c == '>' || c == ')')) {
          break;
        } else if (Character.isLetter(c) || c == '_') {
          if (!steps.isEmpty() || pos > 0 && s.charAt(pos - 1) != '$') {
            throw error("unexpected " + rest());
          }
          steps.add(
              new Field(parseName())); // {.a} written as {a}: kubectl accepts a bare first field
        } else {
          throw error("unrecognized character in action: " + rest());
        }
      }
      return steps;
    }

    private String parseName() {
      int start = pos;
      while (!atEnd()) {
        char c = s.charAt(pos);
        if (Character.isLetterOrDigit(c) || c == '_' || c == '-' || c == '/') {
          pos++;
        } else {
          break;
        }
      }
      if (pos == start) {
        throw error("expected a field name at " + (atEnd() ? "end" : rest()));
      }
      return s.substring(start, pos);
    }

    private Step parseBracket() {
      pos++; // [
      skipSpaces();
      if (peek('?')) {
        pos++;
        expect('(');
        skipSpaces();
        if (!peek('@')) {
          throw error("a filter must start with @");
        }
        List<Step> left = parsePath(false);
        skipSpaces();
        String op = null;
        Object right = null;
        List<Step> rightPath = null;
        for (String candidate : List.of("==", "!=", "<=", ">=", "<", ">")) {
          if (s.startsWith(candidate, pos)) {
            op = candidate;
            pos += candidate.length();
            break;
          }
        }
        if (op != null) {
          skipSpaces();
          if (peek('@')) {
            rightPath = parsePath(false);
          } else {
            right = parseLiteral();
          }
          skipSpaces();
        }
        expect(')');
        skipSpaces();
        expect(']');
        return new Filter(left, op, right, rightPath);
      }
      if (peek('*')) {
        pos++;
        skipSpaces();
        expect(']');
        return new Wildcard();
      }
      List<Step> alternatives = new ArrayList<>();
      while (true) {
        skipSpaces();
        if (peek('\'') || peek('"')) {
          alternatives.add(new Field(parseQuoted()));
        } else {
          alternatives.add(parseIndexOrSlice());
        }
        skipSpaces();
        if (peek(',')) {
          pos++;
          continue;
        }
        expect(']');
        break;
      }
      return alternatives.size() == 1 ? alternatives.get(0) : new Union(alternatives);
    }

    private Step parseIndexOrSlice() {
      Integer[] parts = new Integer[3];
      int n = 0;
      while (true) {
        skipSpaces();
        parts[n] = parseIntOrNull();
        skipSpaces();
        if (peek(':') && n < 2) {
          pos++;
          n++;
          continue;
        }
        break;
      }
      if (n == 0) {
        if (parts[0] == null) {
          throw error("expected an index, a slice, a quoted key, * or a filter at " + rest());
        }
        return new Index(parts[0]);
      }
      int step = parts[2] == null ? 1 : parts[2];
      if (step <= 0) {
        throw error("slice step must be positive");
      }
      return new Slice(parts[0], parts[1], step);
    }

    private Integer parseIntOrNull() {
      int start = pos;
      if (peek('-')) {
        pos++;
      }
      while (!atEnd() && Character.isDigit(s.charAt(pos))) {
        pos++;
      }
      if (pos == start || pos == start + 1 && s.charAt(start) == '-') {
        pos = start;
        return null;
      }
      return Integer.parseInt(s.substring(start, pos));
    }

    private String parseQuoted() {
      char quote = s.charAt(pos++);
      StringBuilder b = new StringBuilder();
      while (!atEnd() && s.charAt(pos) != quote) {
        char c = s.charAt(pos++);
        if (c == '\\' && !atEnd()) {
          c = s.charAt(pos++);
        }
        b.append(c);
      }
      if (atEnd()) {
        throw error("unterminated quoted string");
      }
      pos++;
      return b.toString();
    }

    private Object parseLiteral() {
      if (peek('\'') || peek('"')) {
        return parseQuoted();
      }
      int start = pos;
      while (!atEnd() && " )".indexOf(s.charAt(pos)) < 0) {
        pos++;
      }
      String word = s.substring(start, pos);
      switch (word) {
        case "true":
          return Boolean.TRUE;
        case "false":
          return Boolean.FALSE;
        case "null":
          return null;
        default:
          try {
            return Double.parseDouble(word);
          } catch (NumberFormatException e) {
            throw error("unrecognized literal in filter: " + word);
          }
      }
    }

    private boolean peek(char c) {
      return !atEnd() && s.charAt(pos) == c;
    }

    private void expect(char c) {
      if (!peek(c)) {
        throw error("expected '" + c + "' at " + (atEnd() ? "end" : rest()));
      }
      pos++;
    }

    private void skipSpaces() {
      while (!atEnd() && s.charAt(pos) == ' ') {
        pos++;
      }
    }
  }
}
