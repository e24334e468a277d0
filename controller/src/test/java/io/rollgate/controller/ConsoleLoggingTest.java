package io.rollgate.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator.ExecutionStatus;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;

class ConsoleLoggingTest {

  @Test
  void configuresTheConsoleLayoutAndLevels_whenNoXmlFileIsPresent() {
    LoggerContext ctx = new LoggerContext();
    ConsoleLogging logging = new ConsoleLogging();
    logging.setContext(ctx);

    assertEquals(ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY, logging.configure(ctx));

    ch.qos.logback.classic.Logger root = ctx.getLogger(Logger.ROOT_LOGGER_NAME);
    assertEquals(Level.INFO, root.getLevel());
    assertEquals(Level.WARN, ctx.getLogger("io.fabric8").getLevel());
    assertEquals(Level.WARN, ctx.getLogger("io.vertx").getLevel());
    assertEquals(Level.WARN, ctx.getLogger("io.netty").getLevel());
    assertEquals(
        Level.ERROR,
        ctx.getLogger("io.fabric8.kubernetes.client.dsl.internal.VersionUsageUtils").getLevel());
    ConsoleAppender<?> appender =
        assertInstanceOf(ConsoleAppender.class, root.getAppender("STDOUT"));
    assertTrue(appender.isStarted());
    PatternLayoutEncoder encoder =
        assertInstanceOf(PatternLayoutEncoder.class, appender.getEncoder());
    assertEquals(
        "%d{yyyy-MM-dd'T'HH:mm:ss.SSSX, UTC} level=%level logger=%logger{0} %msg%n",
        encoder.getPattern());

    ch.qos.logback.classic.Logger logger = ctx.getLogger("io.rollgate.controller.Main");
    ILoggingEvent event =
        new ch.qos.logback.classic.spi.LoggingEvent(
            "test", logger, Level.INFO, "starting rollgate-controller", null, null);
    String line = new String(encoder.encode(event), StandardCharsets.UTF_8);
    assertTrue(
        line.matches(
            "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z level=INFO logger=Main starting"
                + " rollgate-controller\\R"),
        line);
    ctx.stop();
  }
}
