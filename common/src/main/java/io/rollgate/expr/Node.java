package io.rollgate.expr;

import java.util.List;

/**
 * The immutable syntax tree. Every node knows the 0-based offset where it starts, for error
 * messages.
 */
sealed interface Node {

  int pos();

  /** A constant: Long, Double, String, Boolean or null. */
  record Literal(Object value, int pos) implements Node {}

  /** A name looked up in the environment (or a {@code let} variable). */
  record Ident(String name, int pos) implements Node {}

  /** {@code #}, {@code #index} or {@code #acc} inside a predicate. */
  record Pointer(String name, int pos) implements Node {}

  /** {@code [a, b]}. */
  record ArrayLit(List<Node> items, int pos) implements Node {}

  /** {@code {k: v}}; keys are nodes evaluating to strings. */
  record MapLit(List<Node> keys, List<Node> values, int pos) implements Node {}

  /** {@code -x}, {@code +x}, {@code !x} / {@code not x}. */
  record Unary(String op, Node operand, int pos) implements Node {}

  /** A binary operator; {@code pos} is the operator's offset. */
  record Binary(String op, Node left, Node right, int pos) implements Node {}

  /** {@code obj.name} or {@code obj[key]}; {@code optional} for {@code ?.}. */
  record Member(Node object, Node key, boolean optional, int pos) implements Node {}

  /** {@code obj[from:to]}; either bound may be null. */
  record Slice(Node object, Node from, Node to, int pos) implements Node {}

  /** A function call by name. Predicate arguments are {@link Closure}s. */
  record Call(String name, List<Node> args, int pos) implements Node {}

  /** A predicate body evaluated once per element with {@code #} bound to the element. */
  record Closure(Node body, int pos) implements Node {}

  /** {@code cond ? a : b}. */
  record Conditional(Node cond, Node then, Node otherwise, int pos) implements Node {}

  /**
   * The end of a member chain containing {@code ?.}: a nil before {@code ?.} makes the whole chain
   * nil.
   */
  record Chain(Node node, int pos) implements Node {}

  /**
   * {@code obj.Name(args)}: a method of a time or duration, or a function stored in a map; {@code
   * optional} for ?.
   */
  record MethodCall(Node object, String name, List<Node> args, boolean optional, int pos)
      implements Node {}

  /** {@code let name = value; body}. */
  record Let(String name, Node value, Node body, int pos) implements Node {}
}
