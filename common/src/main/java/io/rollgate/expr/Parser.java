package io.rollgate.expr;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * A precedence-climbing (Pratt) parser for the expr-lang grammar. Binding powers follow expr-lang:
 * {@code or ||} 10, {@code and &&} 15, comparisons and {@code in matches contains startsWith
 * endsWith} 20, {@code ..} 25, {@code + -} 30, {@code * / %} 60, unary {@code not !} 50, unary
 * {@code - +} 90, {@code ** ^} 100 (right-associative), {@code ??} 500; the pipe {@code |} and the
 * ternary {@code ?:} bind loosest.
 */
final class Parser {

  private static final Map<String, Integer> BINARY =
      Map.ofEntries(
          Map.entry("|", 0),
          Map.entry("or", 10),
          Map.entry("||", 10),
          Map.entry("and", 15),
          Map.entry("&&", 15),
          Map.entry("==", 20),
          Map.entry("!=", 20),
          Map.entry("<", 20),
          Map.entry(">", 20),
          Map.entry("<=", 20),
          Map.entry(">=", 20),
          Map.entry("in", 20),
          Map.entry("matches", 20),
          Map.entry("contains", 20),
          Map.entry("startsWith", 20),
          Map.entry("endsWith", 20),
          Map.entry("..", 25),
          Map.entry("+", 30),
          Map.entry("-", 30),
          Map.entry("*", 60),
          Map.entry("/", 60),
          Map.entry("%", 60),
          Map.entry("**", 100),
          Map.entry("^", 100),
          Map.entry("??", 500));
  private static final Map<String, Integer> UNARY = Map.of("not", 50, "!", 50, "-", 90, "+", 90);
  private static final Set<String> NEGATABLE =
      Set.of("in", "matches", "contains", "startsWith", "endsWith");
  private static final Set<String> CHAINED_COMPARISONS = Set.of("<", ">", "<=", ">=");

  /** Nesting limit, so that hostile input gets a syntax error rather than exhausting the stack. */
  private static final int MAX_DEPTH = 256;

  private final String src;
  private final List<Token> tokens;
  private int index;
  private int closureDepth;
  private int depth;

  private Parser(String src) {
    this.src = src;
    this.tokens = Lexer.tokenize(src);
  }

  static Node parse(String src) {
    Parser p = new Parser(src);
    Node node = p.expression(0);
    if (p.current().kind() != Token.Kind.EOF) {
      throw p.unexpected();
    }
    return node;
  }

  private Token current() {
    return tokens.get(index);
  }

  private Token peek() {
    return tokens.get(Math.min(index + 1, tokens.size() - 1));
  }

  private Token next() {
    Token t = tokens.get(index);
    if (index < tokens.size() - 1) {
      index++;
    }
    return t;
  }

  private ExpressionSyntaxException error(int at, String reason) {
    return new ExpressionSyntaxException(src, at, reason);
  }

  private ExpressionSyntaxException unexpected() {
    return error(current().pos(), "unexpected token " + current());
  }

  private Token expect(Token.Kind kind, String value) {
    if (!current().is(kind, value)) {
      throw unexpected();
    }
    return next();
  }

  private Node expression(int precedence) {
    if (++depth > MAX_DEPTH) {
      throw error(current().pos(), "expression too deeply nested");
    }
    try {
      return expressionAt(precedence);
    } finally {
      depth--;
    }
  }

  private Node expressionAt(int precedence) {
    if (precedence == 0 && current().isOperator("let")) {
      return let();
    }
    if (precedence == 0 && current().isOperator("if")) {
      return ifElse();
    }
    Node left = primary();
    String previous = null;
    while (current().kind() == Token.Kind.OPERATOR) {
      Token op = current();
      boolean negate = false;
      if (op.isOperator("not")) {
        Token after = peek();
        if (after.kind() != Token.Kind.OPERATOR || !NEGATABLE.contains(after.value())) {
          throw error(after.pos(), "unexpected token " + after);
        }
        if (BINARY.get(after.value()) < precedence) {
          break;
        }
        next();
        op = after;
        negate = true;
      }
      Integer power = BINARY.get(op.value());
      if (power == null || power < precedence) {
        break;
      }
      next();
      if (op.value().equals("|")) {
        left = pipe(left);
        previous = op.value();
        continue;
      }
      if ("??".equals(previous) && !op.value().equals("??")) {
        // expr-lang refuses "a ?? b == c": the reader cannot tell which operator binds first.
        throw error(
            op.pos(),
            "Operator ("
                + op.value()
                + ") and coalesce expressions (??) cannot be mixed."
                + " Wrap either by parentheses.");
      }
      previous = op.value();
      if (CHAINED_COMPARISONS.contains(op.value())) {
        left = comparison(left, op, power);
        continue;
      }
      boolean rightAssoc = op.value().equals("**") || op.value().equals("^");
      Node right = expression(rightAssoc ? power : power + 1);
      if (op.value().equals("matches")
          && right instanceof Node.Literal lit
          && lit.value() instanceof String re) {
        // A constant pattern is compiled once, here, and a bad one is a syntax error as in
        // expr-lang.
        try {
          right = new Node.Literal(Pattern.compile(re), lit.pos());
        } catch (PatternSyntaxException e) {
          throw error(lit.pos(), "error parsing regexp: " + e.getDescription() + ": `" + re + "`");
        }
      }
      left = new Node.Binary(op.value(), left, right, op.pos());
      if (negate) {
        left = new Node.Unary("not", left, op.pos());
      }
    }
    if (precedence == 0) {
      left = conditional(left);
    }
    return left;
  }

  /** {@code a < b < c} means {@code a < b && b < c}, as in expr-lang. */
  private Node comparison(Node left, Token op, int power) {
    Node root = null;
    Token operator = op;
    while (true) {
      Node right = expression(power + 1);
      Node cmp = new Node.Binary(operator.value(), left, right, operator.pos());
      root = root == null ? cmp : new Node.Binary("&&", root, cmp, operator.pos());
      left = right;
      if (current().kind() != Token.Kind.OPERATOR
          || !CHAINED_COMPARISONS.contains(current().value())) {
        return root;
      }
      operator = next();
    }
  }

  private Node conditional(Node node) {
    while (current().isOperator("?")) {
      Token q = next();
      Node then;
      Node otherwise;
      if (current().isOperator(":")) {
        next();
        then = node;
        otherwise = expression(0);
      } else {
        then = expression(0);
        expect(Token.Kind.OPERATOR, ":");
        otherwise = expression(0);
      }
      node = new Node.Conditional(node, then, otherwise, q.pos());
    }
    return node;
  }

  private Node let() {
    Token let = next();
    Token name = current();
    if (name.kind() != Token.Kind.IDENTIFIER) {
      throw unexpected();
    }
    next();
    expect(Token.Kind.OPERATOR, "=");
    Node value = expression(0);
    expect(Token.Kind.OPERATOR, ";");
    Node body = expression(0);
    return new Node.Let(name.value(), value, body, let.pos());
  }

  /**
   * {@code if c { a } else { b }}, with {@code else if} chains; the same node as {@code c ? a : b}.
   */
  private Node ifElse() {
    Token start = next();
    Node cond = expression(0);
    expect(Token.Kind.BRACKET, "{");
    Node then = expression(0);
    expect(Token.Kind.BRACKET, "}");
    expect(Token.Kind.OPERATOR, "else");
    Node otherwise;
    if (current().isOperator("if")) {
      otherwise = ifElse();
    } else {
      expect(Token.Kind.BRACKET, "{");
      otherwise = expression(0);
      expect(Token.Kind.BRACKET, "}");
    }
    return new Node.Conditional(cond, then, otherwise, start.pos());
  }

  /** {@code x | f(a)} is {@code f(x, a)}. */
  private Node pipe(Node left) {
    Token name = current();
    if (name.kind() != Token.Kind.IDENTIFIER || !peek().isBracket("(")) {
      throw unexpected();
    }
    next();
    return call(name, left);
  }

  private Node primary() {
    Token t = current();
    if (t.kind() == Token.Kind.OPERATOR && UNARY.containsKey(t.value())) {
      next();
      Node operand = expression(UNARY.get(t.value()));
      return new Node.Unary(t.value().equals("!") ? "not" : t.value(), operand, t.pos());
    }
    if (t.isBracket("(")) {
      next();
      Node inner = expression(0);
      expect(Token.Kind.BRACKET, ")");
      return postfix(inner);
    }
    return postfix(secondary());
  }

  private Node secondary() {
    Token t = current();
    switch (t.kind()) {
      case NUMBER, STRING -> {
        next();
        return new Node.Literal(t.literal(), t.pos());
      }
      case IDENTIFIER -> {
        next();
        switch (t.value()) {
          case "true":
            return new Node.Literal(Boolean.TRUE, t.pos());
          case "false":
            return new Node.Literal(Boolean.FALSE, t.pos());
          case "nil":
            return new Node.Literal(null, t.pos());
          default:
            break;
        }
        if (current().isBracket("(")) {
          return call(t, null);
        }
        return new Node.Ident(t.value(), t.pos());
      }
      case POINTER -> {
        next();
        if (closureDepth == 0) {
          throw error(t.pos(), "cannot use pointer accessor outside predicate");
        }
        if (!t.value().isEmpty() && !t.value().equals("index") && !t.value().equals("acc")) {
          throw error(t.pos(), "unknown pointer #" + t.value());
        }
        return new Node.Pointer(t.value(), t.pos());
      }
      case BRACKET -> {
        if (t.isBracket("[")) {
          return array();
        }
        if (t.isBracket("{")) {
          return map();
        }
        throw unexpected();
      }
      case OPERATOR -> {
        if (t.isOperator(".") && closureDepth > 0) {
          // ".field" inside a predicate is "#.field".
          next();
          Token name = current();
          if (!isName(name)) {
            throw unexpected();
          }
          next();
          return new Node.Member(
              new Node.Pointer("", t.pos()),
              new Node.Literal(name.value(), name.pos()),
              false,
              t.pos());
        }
        throw unexpected();
      }
      default -> throw unexpected();
    }
  }

  private static boolean isName(Token t) {
    return t.kind() == Token.Kind.IDENTIFIER
        || (t.kind() == Token.Kind.OPERATOR && Character.isLetter(t.value().charAt(0)));
  }

  private Node array() {
    Token open = next();
    List<Node> items = new ArrayList<>();
    while (!current().isBracket("]")) {
      items.add(expression(0));
      if (current().isOperator(",")) {
        next();
      } else if (!current().isBracket("]")) {
        throw unexpected();
      }
    }
    next();
    return new Node.ArrayLit(List.copyOf(items), open.pos());
  }

  private Node map() {
    Token open = next();
    List<Node> keys = new ArrayList<>();
    List<Node> values = new ArrayList<>();
    while (!current().isBracket("}")) {
      Token k = current();
      Node key;
      if (k.kind() == Token.Kind.STRING || isName(k)) {
        next();
        key = new Node.Literal(k.kind() == Token.Kind.STRING ? k.literal() : k.value(), k.pos());
      } else if (k.kind() == Token.Kind.NUMBER) {
        next();
        key = new Node.Literal(k.value(), k.pos());
      } else if (k.isBracket("(")) {
        next();
        key = expression(0);
        expect(Token.Kind.BRACKET, ")");
      } else {
        throw error(
            k.pos(),
            "a map key must be a quoted string, a number, a identifier, or an expression enclosed"
                + " in parentheses (unexpected token "
                + k
                + ")");
      }
      expect(Token.Kind.OPERATOR, ":");
      keys.add(key);
      values.add(expression(0));
      if (current().isOperator(",")) {
        next();
      } else if (!current().isBracket("}")) {
        throw unexpected();
      }
    }
    next();
    return new Node.MapLit(List.copyOf(keys), List.copyOf(values), open.pos());
  }

  private Node call(Token name, Node piped) {
    expect(Token.Kind.BRACKET, "(");
    List<Node> args = new ArrayList<>();
    if (piped != null) {
      args.add(piped);
    }
    int predicateAt = Builtins.predicateArgument(name.value());
    while (!current().isBracket(")")) {
      if (args.size() == predicateAt) {
        args.add(closure());
      } else {
        args.add(expression(0));
      }
      if (current().isOperator(",")) {
        next();
      } else if (!current().isBracket(")")) {
        throw unexpected();
      }
    }
    next();
    Builtins.checkArity(name.value(), args.size(), src, name.pos());
    return postfix(new Node.Call(name.value(), List.copyOf(args), name.pos()));
  }

  private Node closure() {
    Token start = current();
    closureDepth++;
    try {
      if (start.isBracket("{")) {
        next();
        Node body = expression(0);
        expect(Token.Kind.BRACKET, "}");
        return new Node.Closure(body, start.pos());
      }
      return new Node.Closure(expression(0), start.pos());
    } finally {
      closureDepth--;
    }
  }

  private Node postfix(Node node) {
    boolean optionalChain = false;
    while (true) {
      Token t = current();
      if (t.isOperator(".") || t.isOperator("?.")) {
        boolean optional = t.isOperator("?.");
        next();
        optionalChain |= optional;
        if (optional && current().isBracket("[")) {
          node = index(node, true);
          continue;
        }
        Token name = current();
        if (!isName(name)) {
          throw unexpected();
        }
        next();
        if (current().isBracket("(")) {
          next();
          List<Node> args = new ArrayList<>();
          while (!current().isBracket(")")) {
            args.add(expression(0));
            if (current().isOperator(",")) {
              next();
            } else if (!current().isBracket(")")) {
              throw unexpected();
            }
          }
          next();
          node = new Node.MethodCall(node, name.value(), List.copyOf(args), optional, name.pos());
          continue;
        }
        node = new Node.Member(node, new Node.Literal(name.value(), name.pos()), optional, t.pos());
      } else if (t.isBracket("[")) {
        node = index(node, false);
      } else {
        break;
      }
    }
    return optionalChain ? new Node.Chain(node, node.pos()) : node;
  }

  private Node index(Node node, boolean optional) {
    Token open = next();
    if (current().isOperator(":")) {
      next();
      Node to = current().isBracket("]") ? null : expression(0);
      expect(Token.Kind.BRACKET, "]");
      return new Node.Slice(node, null, to, open.pos());
    }
    Node key = expression(0);
    if (current().isOperator(":")) {
      next();
      Node to = current().isBracket("]") ? null : expression(0);
      expect(Token.Kind.BRACKET, "]");
      return new Node.Slice(node, key, to, open.pos());
    }
    expect(Token.Kind.BRACKET, "]");
    return new Node.Member(node, key, optional, open.pos());
  }
}
