package io.rollgate.webhook.bench;

import io.rollgate.webhook.AdmissionHandler;
import io.rollgate.webhook.AdmissionReviews;
import io.rollgate.webhook.ClusterView;
import java.nio.charset.StandardCharsets;

/**
 * CPU cost of one {@code /validate} decision in process, without HTTP and TLS (a benchmark, not a
 * test): parses the AdmissionReview, decides and renders the answer, in a loop, and prints
 * microseconds per review for the small and the large Rollout of {@link AdmissionLoad}. Separates
 * the handler's own cost from the server's. Prints both wall time and the thread's CPU time per
 * review (on a machine shared with other work the CPU time is the steadier figure), and the bytes
 * allocated per review, which set how often the young generation is collected at a given rate.
 */
public final class DecisionCost {

  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();

  private DecisionCost() {}

  /**
   * Runs the loop.
   *
   * @param args optionally the seconds per size (default 10)
   * @throws Exception never in practice
   */
  public static void main(String[] args) throws Exception {
    int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
    AdmissionHandler handler = new AdmissionHandler(ClusterView.NONE);
    for (String size : new String[] {"small", "large", "small", "large"}) {
      byte[] body =
          AdmissionLoad.reviewFor(
                  size.equals("small")
                      ? AdmissionLoad.smallRollout()
                      : AdmissionLoad.largeRollout())
              .getBytes(StandardCharsets.UTF_8);
      long end = System.nanoTime() + seconds * 1_000_000_000L / 2;
      long n = 0;
      long start = System.nanoTime();
      long cpuStart = THREADS.getCurrentThreadCpuTime();
      long allocStart = THREADS.getCurrentThreadAllocatedBytes();
      long sink = 0;
      while (System.nanoTime() < end) {
        sink +=
            AdmissionReviews.mapper()
                .writeValueAsBytes(handler.validate(AdmissionReviews.parse(body)).review())
                .length;
        n++;
      }
      double micros = (System.nanoTime() - start) / 1e3 / n;
      double cpuMicros = (THREADS.getCurrentThreadCpuTime() - cpuStart) / 1e3 / n;
      double allocKib = (THREADS.getCurrentThreadAllocatedBytes() - allocStart) / 1024.0 / n;
      System.out.printf(
          "%-6s %8.1f us/review wall, %8.1f us/review CPU, %8.1f KiB/review allocated (%d reviews, %d)%n",
          size, micros, cpuMicros, allocKib, n, sink % 7);
    }
  }
}
