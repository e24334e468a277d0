/**
 * The analysis condition language: a parser and evaluator for the expression syntax Argo Rollouts
 * users write in {@code metrics[].successCondition} / {@code failureCondition} (the expr-lang/expr
 * language), and Argo's measurement verdict rules built on it ({@link
 * io.rollgate.expr.AnalysisConditions}). Pure Java: no I/O, no shared mutable state; a parsed
 * {@link io.rollgate.expr.Expression} is immutable and may be evaluated from many threads.
 */
package io.rollgate.expr;
