package io.rollgate.controller.rollout.model;

/**
 * The resolved {@code spec.strategy.canary.maxSurge} and {@code maxUnavailable} of a Rollout, in
 * replicas.
 *
 * <p>Mirrors Argo Rollouts' fencepost resolution, including its IntOrString quirk: values go
 * through the legacy Kubernetes {@code intstr.GetValueFromIntOrPercent}, which treats
 * <em>every</em> string as a percentage once its {@code %} characters are removed ({@code "5"} is
 * 5%, not 5 pods), while integers are absolute. An absent value defaults to {@code "25"}, i.e. 25%.
 * Surge rounds up and unavailability rounds down; when both resolve to 0, 1 pod may be unavailable;
 * unavailability is capped at the replica count and is 0 when there are no replicas.
 *
 * @param maxSurge how many replicas may exist above {@code spec.replicas}, never negative
 * @param maxUnavailable how many of {@code spec.replicas} may be unavailable, between 0 and {@code
 *     spec.replicas}
 */
public record Fenceposts(int maxSurge, int maxUnavailable) {

  /**
   * The value Argo Rollouts uses for an absent {@code maxSurge} or {@code maxUnavailable}: the
   * string "25" (25%).
   */
  public static final String DEFAULT_VALUE = "25";

  /**
   * Checks that neither value is negative.
   *
   * @throws IllegalArgumentException when a value is negative
   */
  public Fenceposts {
    if (maxSurge < 0 || maxUnavailable < 0) {
      throw new IllegalArgumentException(
          "fenceposts must not be negative: maxSurge="
              + maxSurge
              + ", maxUnavailable="
              + maxUnavailable);
    }
  }

  /**
   * Resolves the canary fenceposts of a Rollout (Argo Rollouts {@code resolveFenceposts}, {@code
   * MaxSurge}, {@code MaxUnavailable}).
   *
   * <p>Invalid values must be rejected by validation before this is called; here they are
   * programming errors.
   *
   * @param maxSurge {@code spec.strategy.canary.maxSurge}: null (25%), an {@link Integer}
   *     (replicas) or a {@link String} (always a percentage, with or without {@code %})
   * @param maxUnavailable {@code spec.strategy.canary.maxUnavailable}, same forms as {@code
   *     maxSurge}
   * @param replicas the effective {@code spec.replicas}, not negative
   * @return the resolved fenceposts in replicas
   * @throws IllegalArgumentException when a value is negative, not a decimal integer once {@code %}
   *     is removed, of another type, or when {@code replicas} is negative
   */
  public static Fenceposts resolve(Object maxSurge, Object maxUnavailable, int replicas) {
    if (replicas < 0) {
      throw new IllegalArgumentException("replicas must not be negative: " + replicas);
    }
    int surge = scaledValue(maxSurge == null ? DEFAULT_VALUE : maxSurge, replicas, true);
    int unavailable =
        scaledValue(maxUnavailable == null ? DEFAULT_VALUE : maxUnavailable, replicas, false);
    if (surge == 0 && unavailable == 0) {
      // Validation rejects an explicit 0/0, but rounding a percentage down can still get here.
      unavailable = 1;
    }
    if (replicas == 0) {
      unavailable = 0;
    }
    return new Fenceposts(surge, Math.min(unavailable, replicas));
  }

  /**
   * Resolves one IntOrString against a total the way the legacy Kubernetes {@code
   * GetValueFromIntOrPercent} does: an integer is returned as is; a string has every {@code %}
   * removed and is read as a percentage of {@code total}, rounded up or down. Also usable for other
   * fields Argo Rollouts resolves with that helper (for example {@code
   * spec.strategy.blueGreen.maxUnavailable}).
   *
   * @param value an {@link Integer} (absolute) or a {@link String} (percentage); not null
   * @param total the number a percentage is taken of (replicas), not negative
   * @param roundUp true to round a percentage up, false to round it down
   * @return the resolved count
   * @throws IllegalArgumentException when {@code value} is null, negative, not a decimal integer
   *     once {@code %} is removed, of another type, or when the result does not fit an int
   */
  public static int scaledValue(Object value, int total, boolean roundUp) {
    if (value instanceof Integer i) {
      if (i < 0) {
        throw new IllegalArgumentException(
            "invalid IntOrString value " + i + ": must not be negative");
      }
      return i;
    }
    if (value instanceof String s) {
      long percent = parsePercent(s);
      double scaled = (double) percent * (double) total / 100;
      double rounded = roundUp ? Math.ceil(scaled) : Math.floor(scaled);
      if (rounded > Integer.MAX_VALUE) {
        throw new IllegalArgumentException(
            "invalid IntOrString value \"" + s + "\": resolves beyond int range");
      }
      return (int) rounded;
    }
    throw new IllegalArgumentException(
        "invalid IntOrString value "
            + value
            + ": expected an Integer or a String"
            + (value == null ? "" : ", got " + value.getClass().getName()));
  }

  private static long parsePercent(String raw) {
    String digits = raw.replace("%", "");
    int start = !digits.isEmpty() && digits.charAt(0) == '+' ? 1 : 0;
    if (digits.length() == start || digits.length() - start > 10) {
      throw new IllegalArgumentException(
          "invalid IntOrString value \"" + raw + "\": not a non-negative percentage");
    }
    long result = 0;
    for (int i = start; i < digits.length(); i++) {
      char c = digits.charAt(i);
      if (c < '0' || c > '9') {
        throw new IllegalArgumentException(
            "invalid IntOrString value \"" + raw + "\": not a non-negative percentage");
      }
      result = result * 10 + (c - '0');
    }
    if (result > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          "invalid IntOrString value \"" + raw + "\": beyond int range");
    }
    return result;
  }
}
