package io.rollgate.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Boolean flags mean what they say in every spelling (a bare flag of a true-by-default option
 * included).
 */
class MainFlagsTest {

  private static boolean leaderElect(String... args) {
    Main main = new Main();
    new CommandLine(main).parseArgs(args);
    return main.leaderElect;
  }

  @Test
  void leaderElectInEverySpelling() {
    assertEquals(true, leaderElect());
    assertEquals(true, leaderElect("--leader-elect"));
    assertEquals(true, leaderElect("--leader-elect=true"));
    assertEquals(false, leaderElect("--leader-elect=false"));
    assertEquals(false, leaderElect("--no-leader-elect"));
  }
}
