package io.rollgate.e2e.support;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * What a running controller process costs, for the benchmarks: CPU seconds used so far, heap in use
 * after a full GC, and resident memory.
 *
 * @param cpuSeconds user + system CPU time of the process since it started, in seconds
 * @param heapMib heap in use after a full GC, in MiB
 * @param rssMib resident set size, in MiB
 */
public record ControllerFootprint(double cpuSeconds, double heapMib, double rssMib) {

  /**
   * Process CPU seconds (user + system from /proc/PID/stat), live heap after a full GC (the total
   * of {@code jcmd GC.class_histogram}, which collects first) and RSS of the controller.
   */
  public static ControllerFootprint sample(ControllerProcess controller)
      throws IOException, InterruptedException {
    String pid = Long.toString(controller.pid());
    String stat = Files.readString(Path.of("/proc", pid, "stat"));
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    // fields[0] is field 3 (state); utime and stime are fields 14 and 15, in clock ticks
    double cpu = (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / (double) clockTicks();
    // The class histogram runs a full GC and sums the live objects: exact, and unlike a heap gauge
    // read afterwards it does not count what the controller allocates between the GC and the
    // reading (a /metrics scrape of 10,000 Rollouts alone allocates tens of MiB).
    Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    Process histogram =
        new ProcessBuilder(jcmd.toString(), pid, "GC.class_histogram")
            .redirectErrorStream(true)
            .start();
    List<String> lines;
    try (BufferedReader out =
        new BufferedReader(
            new InputStreamReader(histogram.getInputStream(), StandardCharsets.UTF_8))) {
      lines = out.lines().toList();
    }
    histogram.waitFor();
    double heap = Double.NaN;
    for (String line : lines) {
      if (line.startsWith("Total")) {
        String[] f = line.trim().split("\\s+");
        heap = Double.parseDouble(f[f.length - 1]);
      }
    }
    if (Double.isNaN(heap)) {
      throw new IOException(
          "jcmd " + pid + " GC.class_histogram gave no total: " + String.join("\n", lines));
    }
    double rssKib = 0;
    for (String line : Files.readAllLines(Path.of("/proc", pid, "status"))) {
      if (line.startsWith("VmRSS:")) {
        rssKib = Double.parseDouble(line.replaceAll("[^0-9]", ""));
      }
    }
    return new ControllerFootprint(cpu, heap / (1024 * 1024), rssKib / 1024);
  }

  private static long ticks;

  /** Clock ticks per second ({@code getconf CLK_TCK}, 100 when it cannot be read). */
  private static synchronized long clockTicks() {
    if (ticks == 0) {
      ticks = 100;
      try {
        Process p = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (p.waitFor() == 0 && out.matches("[0-9]+")) {
          ticks = Long.parseLong(out);
        }
      } catch (IOException | InterruptedException e) {
        // keep the Linux default
      }
    }
    return ticks;
  }
}
