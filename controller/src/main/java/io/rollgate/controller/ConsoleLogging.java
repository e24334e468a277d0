package io.rollgate.controller;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ConfiguratorRank;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.spi.ContextAwareBase;
import org.slf4j.Logger;

/**
 * The controller's default logging set-up, built in code rather than read from an XML file: one
 * console appender writing {@code <UTC time> level=<level> logger=<class> <message>} lines, the
 * root logger at INFO, and the client libraries ({@code io.fabric8}, {@code io.vertx}, {@code
 * io.netty}) at WARN. Logback finds it through {@code META-INF/services}; {@code --loglevel} and
 * {@code --logformat json} then adjust it ({@link Main}). Building it in code spares the process
 * logback's XML configuration machinery and an XML parser (several hundred classes).
 *
 * <p>An XML configuration still wins: when {@code -Dlogback.configurationFile} is set or a {@code
 * logback.xml} or {@code logback-test.xml} is on the class path, this configurator steps aside and
 * logback reads that file as usual.
 */
@ConfiguratorRank(ConfiguratorRank.CUSTOM_NORMAL_PRIORITY)
public final class ConsoleLogging extends ContextAwareBase implements Configurator {

  /** The line layout: UTC time to the millisecond, level, logger's simple name, message. */
  static final String PATTERN =
      "%d{yyyy-MM-dd'T'HH:mm:ss.SSSX, UTC} level=%level logger=%logger{0} %msg%n";

  /** Creates the configurator; logback calls it once, when the first logger is asked for. */
  public ConsoleLogging() {
    // Logback instantiates service providers reflectively.
  }

  /**
   * Configures the context unless an XML configuration is present.
   *
   * @param ctx logback's context
   * @return {@code DO_NOT_INVOKE_NEXT_IF_ANY} when configured here; {@code NEUTRAL} when an XML
   *     file is to be read instead
   */
  @Override
  public ExecutionStatus configure(LoggerContext ctx) {
    if (xmlConfigurationPresent()) {
      return ExecutionStatus.NEUTRAL;
    }
    PatternLayoutEncoder encoder = new PatternLayoutEncoder();
    encoder.setContext(ctx);
    encoder.setPattern(PATTERN);
    encoder.start();
    ConsoleAppender<ILoggingEvent> appender = new ConsoleAppender<>();
    appender.setContext(ctx);
    appender.setName("STDOUT");
    appender.setEncoder(encoder);
    appender.start();
    ctx.getLogger("io.fabric8").setLevel(Level.WARN);
    // Argo Rollouts' kinds are served as v1alpha1 by design; the client's warning about a
    // pre-release version is noise.
    ctx.getLogger("io.fabric8.kubernetes.client.dsl.internal.VersionUsageUtils")
        .setLevel(Level.ERROR);
    ctx.getLogger("io.vertx").setLevel(Level.WARN);
    ctx.getLogger("io.netty").setLevel(Level.WARN);
    ch.qos.logback.classic.Logger root = ctx.getLogger(Logger.ROOT_LOGGER_NAME);
    root.setLevel(Level.INFO);
    root.addAppender(appender);
    return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
  }

  private static boolean xmlConfigurationPresent() {
    if (System.getProperty("logback.configurationFile") != null) {
      return true;
    }
    ClassLoader loader = ConsoleLogging.class.getClassLoader();
    return loader.getResource("logback-test.xml") != null
        || loader.getResource("logback.xml") != null;
  }
}
