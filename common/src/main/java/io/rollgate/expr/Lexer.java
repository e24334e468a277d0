package io.rollgate.expr;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Set;

/** Splits an expression into tokens following expr-lang's lexical rules. */
final class Lexer {

  private static final Set<String> WORD_OPERATORS =
      Set.of(
          "and",
          "or",
          "not",
          "in",
          "matches",
          "contains",
          "startsWith",
          "endsWith",
          "let",
          "if",
          "else");
  private static final String[] OPERATORS = {
    "**", "??", "?.", "..", "==", "!=", "<=", ">=", "&&", "||", "+", "-", "*", "/", "%", "^", "<",
    ">", "!", "?", ":", ".", ",", "|", "=", ";"
  };

  private final String src;
  private final List<Token> tokens = new ArrayList<>();
  private final Deque<Token> open = new ArrayDeque<>();
  private int pos;

  private Lexer(String src) {
    this.src = src;
  }

  static List<Token> tokenize(String src) {
    Lexer lexer = new Lexer(src);
    lexer.run();
    return lexer.tokens;
  }

  private ExpressionSyntaxException error(int at, String reason) {
    return new ExpressionSyntaxException(src, at, reason);
  }

  private void run() {
    while (true) {
      skipSpaceAndComments();
      if (pos >= src.length()) {
        break;
      }
      char c = src.charAt(pos);
      int start = pos;
      if (Character.isDigit(c)
          || (c == '.'
              && pos + 1 < src.length()
              && Character.isDigit(src.charAt(pos + 1))
              && !previousIsValue())) {
        number();
      } else if (c == '"' || c == '\'') {
        quoted(c);
      } else if (c == '`') {
        int end = src.indexOf('`', pos + 1);
        if (end < 0) {
          throw error(start, "literal not terminated");
        }
        String text = src.substring(pos + 1, end);
        pos = end + 1;
        tokens.add(new Token(Token.Kind.STRING, text, text, start));
      } else if (isIdentStart(c)) {
        while (pos < src.length() && isIdentPart(src.charAt(pos))) {
          pos++;
        }
        String word = src.substring(start, pos);
        tokens.add(
            new Token(
                WORD_OPERATORS.contains(word) ? Token.Kind.OPERATOR : Token.Kind.IDENTIFIER,
                word,
                null,
                start));
      } else if (c == '#') {
        pos++;
        while (pos < src.length() && isIdentPart(src.charAt(pos))) {
          pos++;
        }
        tokens.add(new Token(Token.Kind.POINTER, src.substring(start + 1, pos), null, start));
      } else if ("([{".indexOf(c) >= 0) {
        pos++;
        Token t = new Token(Token.Kind.BRACKET, String.valueOf(c), null, start);
        open.push(t);
        tokens.add(t);
      } else if (")]}".indexOf(c) >= 0) {
        pos++;
        Token opening = open.poll();
        if (opening == null || ")]}".charAt("([{".indexOf(opening.value().charAt(0))) != c) {
          throw error(start, "unexpected \"" + c + "\"");
        }
        tokens.add(new Token(Token.Kind.BRACKET, String.valueOf(c), null, start));
      } else {
        String op = null;
        for (String candidate : OPERATORS) {
          if (src.startsWith(candidate, pos)) {
            op = candidate;
            break;
          }
        }
        if (op == null) {
          int cp = src.codePointAt(pos);
          String ch = new String(Character.toChars(cp));
          throw error(start, String.format("unrecognized character: U+%04X '%s'", cp, ch));
        }
        // "a ?.5 : 1" is a ternary with a float, not optional chaining.
        if (op.equals("?.") && pos + 2 < src.length() && Character.isDigit(src.charAt(pos + 2))) {
          op = "?";
        }
        pos += op.length();
        tokens.add(new Token(Token.Kind.OPERATOR, op, null, start));
      }
    }
    if (!open.isEmpty()) {
      Token opening = open.peek();
      throw error(opening.pos(), "unclosed \"" + opening.value() + "\"");
    }
    tokens.add(new Token(Token.Kind.EOF, "", null, src.length()));
  }

  private boolean previousIsValue() {
    if (tokens.isEmpty()) {
      return false;
    }
    Token last = tokens.get(tokens.size() - 1);
    return last.kind() == Token.Kind.IDENTIFIER
        || last.kind() == Token.Kind.NUMBER
        || last.kind() == Token.Kind.STRING
        || last.kind() == Token.Kind.POINTER
        || last.isBracket(")")
        || last.isBracket("]")
        || last.isBracket("}");
  }

  private static boolean isIdentStart(char c) {
    return Character.isLetter(c) || c == '_' || c == '$';
  }

  private static boolean isIdentPart(char c) {
    return Character.isLetterOrDigit(c) || c == '_' || c == '$';
  }

  private void skipSpaceAndComments() {
    while (pos < src.length()) {
      char c = src.charAt(pos);
      if (Character.isWhitespace(c)) {
        pos++;
      } else if (src.startsWith("//", pos)) {
        while (pos < src.length() && src.charAt(pos) != '\n') {
          pos++;
        }
      } else if (src.startsWith("/*", pos)) {
        int end = src.indexOf("*/", pos + 2);
        if (end < 0) {
          throw error(pos, "unclosed comment");
        }
        pos = end + 2;
      } else {
        return;
      }
    }
  }

  private void number() {
    int start = pos;
    int radix = 10;
    if (src.charAt(pos) == '0'
        && pos + 1 < src.length()
        && "xXoObB".indexOf(src.charAt(pos + 1)) >= 0) {
      char p = Character.toLowerCase(src.charAt(pos + 1));
      radix = p == 'x' ? 16 : p == 'o' ? 8 : 2;
      pos += 2;
      while (pos < src.length()
          && (Character.digit(src.charAt(pos), radix) >= 0 || src.charAt(pos) == '_')) {
        pos++;
      }
      if (pos < src.length() && (isIdentPart(src.charAt(pos)) || src.charAt(pos) == '.')) {
        while (pos < src.length() && (isIdentPart(src.charAt(pos)) || src.charAt(pos) == '.')) {
          pos++;
        }
        throw error(start, "bad number syntax: " + Values.quote(src.substring(start, pos)));
      }
      integer(start, src.substring(start + 2, pos), radix);
      return;
    }
    boolean isFloat = false;
    digits();
    if (pos + 1 < src.length()
        && src.charAt(pos) == '.'
        && src.charAt(pos + 1) != '.'
        && !isIdentStart(src.charAt(pos + 1))) {
      isFloat = true;
      pos++;
      digits();
    }
    if (pos < src.length() && (src.charAt(pos) == 'e' || src.charAt(pos) == 'E')) {
      int save = pos;
      pos++;
      if (pos < src.length() && (src.charAt(pos) == '+' || src.charAt(pos) == '-')) {
        pos++;
      }
      if (pos < src.length() && Character.isDigit(src.charAt(pos))) {
        isFloat = true;
        digits();
      } else {
        pos = save;
      }
    }
    if (pos < src.length() && isIdentStart(src.charAt(pos))) {
      while (pos < src.length() && isIdentPart(src.charAt(pos))) {
        pos++;
      }
      throw error(start, "bad number syntax: " + Values.quote(src.substring(start, pos)));
    }
    String text = src.substring(start, pos);
    String clean = text.replace("_", "");
    if (isFloat) {
      tokens.add(new Token(Token.Kind.NUMBER, text, Double.parseDouble(clean), start));
    } else {
      integer(start, clean, 10);
    }
  }

  private void integer(int start, String digits, int radix) {
    String text = src.substring(start, pos);
    String clean = digits.replace("_", "");
    try {
      tokens.add(new Token(Token.Kind.NUMBER, text, Long.parseLong(clean, radix), start));
    } catch (NumberFormatException e) {
      throw error(start, "bad number syntax: " + Values.quote(text));
    }
  }

  private void digits() {
    while (pos < src.length() && (Character.isDigit(src.charAt(pos)) || src.charAt(pos) == '_')) {
      pos++;
    }
  }

  private void quoted(char quote) {
    int start = pos;
    pos++;
    StringBuilder out = new StringBuilder();
    while (true) {
      if (pos >= src.length() || src.charAt(pos) == '\n') {
        throw error(start, "literal not terminated");
      }
      char c = src.charAt(pos);
      if (c == quote) {
        pos++;
        break;
      }
      if (c != '\\') {
        out.append(c);
        pos++;
        continue;
      }
      int escape = pos;
      pos++;
      if (pos >= src.length()) {
        throw error(start, "literal not terminated");
      }
      char e = src.charAt(pos++);
      switch (e) {
        case 'a' -> out.append('\u0007');
        case 'b' -> out.append('\b');
        case 'f' -> out.append('\f');
        case 'n' -> out.append('\n');
        case 'r' -> out.append('\r');
        case 't' -> out.append('\t');
        case 'v' -> out.append('\u000b');
        case '\\', '\'', '"' -> out.append(e);
        case 'x' -> out.appendCodePoint(hex(escape, 2));
        case 'u' -> out.appendCodePoint(hex(escape, 4));
        case 'U' -> out.appendCodePoint(hex(escape, 8));
        default -> {
          if (e >= '0' && e <= '7') {
            pos--;
            int value = 0;
            for (int i = 0; i < 3; i++) {
              if (pos >= src.length() || src.charAt(pos) < '0' || src.charAt(pos) > '7') {
                throw error(escape, "invalid char escape");
              }
              value = value * 8 + (src.charAt(pos++) - '0');
            }
            if (value > 255) {
              throw error(escape, "invalid char escape");
            }
            out.append((char) value);
          } else {
            throw error(escape, "invalid char escape");
          }
        }
      }
    }
    String text = out.toString();
    tokens.add(new Token(Token.Kind.STRING, text, text, start));
  }

  private int hex(int escape, int n) {
    if (pos + n > src.length()) {
      throw error(escape, "invalid char escape");
    }
    int value = 0;
    for (int i = 0; i < n; i++) {
      int d = Character.digit(src.charAt(pos + i), 16);
      if (d < 0) {
        throw error(escape, "invalid char escape");
      }
      value = value * 16 + d;
    }
    pos += n;
    if (!Character.isValidCodePoint(value) || (value >= 0xD800 && value <= 0xDFFF)) {
      throw error(escape, "invalid char escape");
    }
    return value;
  }
}
