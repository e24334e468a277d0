/**
 * The controller process's settings, read from its command-line flags by {@code Main} and passed to
 * the per-kind controllers. A leaf package: the controllers read it without depending on the
 * program wiring that builds them.
 */
package io.rollgate.controller.options;
