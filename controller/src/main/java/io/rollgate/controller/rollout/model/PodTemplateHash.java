package io.rollgate.controller.rollout.model;

/**
 * The hashes Argo Rollouts stores on Rollouts and ReplicaSets: the {@code
 * rollouts-pod-template-hash} label / {@code status.currentPodHash} and {@code
 * status.currentStepHash}.
 *
 * <p>Both are FNV-1a 32-bit over JSON bytes, printed as an unsigned decimal and passed through
 * Kubernetes' {@code rand.SafeEncodeString}. The JSON must be byte-identical to what Go's {@code
 * encoding/json} produces for the same object (field order, omitted empty fields, {@code
 * "creationTimestamp":null}); producing it is the caller's job.
 */
public final class PodTemplateHash {

  /**
   * The alphabet of Kubernetes {@code k8s.io/apimachinery/pkg/util/rand}: no vowels, no ambiguous
   * characters.
   */
  public static final String ALPHANUMS = "bcdfghjklmnpqrstvwxz2456789";

  private static final int FNV_OFFSET_BASIS = 0x811c9dc5;
  private static final int FNV_PRIME = 0x01000193;

  private PodTemplateHash() {}

  /**
   * Computes the 32-bit FNV-1a hash of some bytes.
   *
   * @param data the bytes, not null
   * @return the hash as the bits of an unsigned 32-bit value ({@link Integer#toUnsignedString(int)}
   *     prints it)
   */
  public static int fnv32a(byte[] data) {
    return fnv32a(FNV_OFFSET_BASIS, data);
  }

  /**
   * Encodes a string with the Kubernetes {@code rand.SafeEncodeString} alphabet: each character
   * {@code c} becomes {@code ALPHANUMS.charAt(c % 27)}, so digits 0-9 map to {@code 456789bcdf}.
   *
   * @param s the string, meant for ASCII such as a decimal number; each code point is one output
   *     character
   * @return the encoded string
   */
  public static String safeEncode(String s) {
    StringBuilder out = new StringBuilder(s.length());
    s.codePoints().forEach(c -> out.append(ALPHANUMS.charAt(c % ALPHANUMS.length())));
    return out.toString();
  }

  /**
   * Computes the pod template hash (Argo Rollouts {@code ComputePodTemplateHash}): FNV-1a over the
   * JSON of {@code spec.template}, followed, when {@code status.collisionCount} is set, by an
   * 8-byte buffer holding the count as 4 little-endian bytes and 4 zero bytes; then unsigned
   * decimal and {@link #safeEncode}.
   *
   * @param templateJson the Go-compatible JSON encoding of {@code spec.template}
   * @param collisionCount {@code status.collisionCount}, or null when unset
   * @return the hash label value
   */
  public static String hashOf(byte[] templateJson, Integer collisionCount) {
    int hash = fnv32a(templateJson);
    if (collisionCount != null) {
      int c = collisionCount;
      byte[] buffer = {
        (byte) c, (byte) (c >>> 8), (byte) (c >>> 16), (byte) (c >>> 24), 0, 0, 0, 0
      };
      hash = fnv32a(hash, buffer);
    }
    return safeEncode(Integer.toUnsignedString(hash));
  }

  /**
   * Computes {@code status.currentStepHash} (Argo Rollouts {@code ComputeStepHash}): FNV-1a over
   * the JSON of {@code spec.strategy.canary.steps}, unsigned decimal, {@link #safeEncode}. Go
   * encodes absent steps as {@code null} and an empty list as {@code []}, which hash differently.
   *
   * @param stepsJson the Go-compatible JSON encoding of the steps list
   * @return the step hash
   */
  public static String stepsHash(byte[] stepsJson) {
    return safeEncode(Integer.toUnsignedString(fnv32a(stepsJson)));
  }

  private static int fnv32a(int seed, byte[] data) {
    int hash = seed;
    for (byte b : data) {
      hash ^= b & 0xff;
      hash *= FNV_PRIME;
    }
    return hash;
  }
}
