package io.rollgate.controller.rollout.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Reference values were produced with Go's {@code hash/fnv}, {@code encoding/binary} and {@code
 * k8s.io/apimachinery/pkg/util/rand.SafeEncodeString}, the building blocks Argo Rollouts uses.
 */
class PodTemplateHashTest {

  private static final String TEMPLATE =
      "{\"metadata\":{\"creationTimestamp\":null,\"labels\":{\"app\":\"web\"}},"
          + "\"spec\":{\"containers\":[{\"name\":\"web\",\"image\":\"nginx:1.25\",\"resources\":{}}]}}";

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void matchesFnv1aReferenceVectors() {
    assertEquals(0x811c9dc5, PodTemplateHash.fnv32a(new byte[0]));
    assertEquals(0xe40c292c, PodTemplateHash.fnv32a(utf8("a")));
    assertEquals(0xbf9cf968, PodTemplateHash.fnv32a(utf8("foobar")));
  }

  @Test
  void hashesBytesAboveSevenBitsUnsigned() {
    // 0xff must be mixed in as 255, not as -1.
    assertEquals(0x7a0b824e, PodTemplateHash.fnv32a(new byte[] {(byte) 0xff}));
  }

  @Test
  void encodesDigitsWithKubernetesSafeAlphabet() {
    assertEquals("456789bcdf", PodTemplateHash.safeEncode("0123456789"));
    assertEquals("", PodTemplateHash.safeEncode(""));
    assertEquals("b", PodTemplateHash.safeEncode("6"));
  }

  @Test
  void hashesTemplateWithoutCollisionCount() {
    assertEquals("7c4bd8fbf8", PodTemplateHash.hashOf(utf8(TEMPLATE), null));
  }

  @ParameterizedTest(name = "collisionCount={0}")
  @CsvSource({
    "0, 58c46f5d4b",
    "1, 747bf9867f",
    "7, 666bf58677",
    "256, 678d745845",
    "-1, 68dc6f9f74"
  })
  void appendsCollisionCountAsEightByteLittleEndianBuffer(int collisionCount, String expected) {
    assertEquals(expected, PodTemplateHash.hashOf(utf8(TEMPLATE), collisionCount));
  }

  @Test
  void hashesSteps() {
    String steps =
        "[{\"setWeight\":20},{\"pause\":{}},{\"setWeight\":50},{\"pause\":{\"duration\":\"30s\"}}]";
    assertEquals("b4478d874", PodTemplateHash.stepsHash(utf8(steps)));
  }

  @Test
  void distinguishesAbsentStepsFromEmptySteps() {
    assertEquals("5ffbfbbd64", PodTemplateHash.stepsHash(utf8("null")));
    assertEquals("5f8cb5778f", PodTemplateHash.stepsHash(utf8("[]")));
  }
}
