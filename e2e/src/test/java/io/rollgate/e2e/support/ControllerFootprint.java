package io.rollgate.e2e.support;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.awaitility.Awaitility;

/**
 * What a running controller process costs, for the benchmarks: CPU seconds used so far, heap in use after a full GC,
 * and resident memory.
 *
 * @param cpuSeconds user + system CPU time of the process since it started, in seconds
 * @param heapMib heap in use after a full GC, in MiB
 * @param rssMib resident set size, in MiB
 */
public record ControllerFootprint(double cpuSeconds, double heapMib, double rssMib) {

  /**
   * Process CPU seconds (user + system from /proc/PID/stat), heap used after a full GC (jcmd GC.run, then the
   * controller's jvm_memory_used_bytes) and RSS of the controller.
   */
  public static ControllerFootprint sample(ControllerProcess controller) throws IOException, InterruptedException {
    String pid = Long.toString(controller.pid());
    String stat = Files.readString(Path.of("/proc", pid, "stat"));
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    // fields[0] is field 3 (state); utime and stime are fields 14 and 15, in clock ticks
    double cpu = (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / (double) clockTicks();
    Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    new ProcessBuilder(jcmd.toString(), pid, "GC.run")
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .start()
        .waitFor();
    String text = metrics(controller);
    double heap = 0;
    for (String line : text.split("\n")) {
      if (line.startsWith("jvm_memory_used_bytes{") && line.contains("area=\"heap\"")) {
        heap += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
      }
    }
    double rssKib = 0;
    for (String line : Files.readAllLines(Path.of("/proc", pid, "status"))) {
      if (line.startsWith("VmRSS:")) {
        rssKib = Double.parseDouble(line.replaceAll("[^0-9]", ""));
      }
    }
    return new ControllerFootprint(cpu, heap / (1024 * 1024), rssKib / 1024);
  }

  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  /** The controller's /metrics exposition, waiting while its metrics port does not answer yet (a loaded machine). */
  private static String metrics(ControllerProcess controller) {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + controller.metricsPort() + "/metrics"))
            .timeout(Duration.ofSeconds(30)).build();
    String[] text = new String[1];
    Awaitility.await("controller /metrics")
        .atMost(Duration.ofMinutes(2))
        .pollInterval(Duration.ofSeconds(1))
        .ignoreExceptions()
        .until(() -> {
          HttpResponse<String> r = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
          text[0] = r.body();
          return r.statusCode() == 200 && text[0].contains("jvm_memory_used_bytes{");
        });
    return text[0];
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
