package io.rollgate.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Bodies a hostile or broken client can send that are well-formed JSON to a lenient reader but not
 * to the API server: other encodings than UTF-8, byte sequences that are not UTF-8, and objects
 * with a key given twice. Each is a 400 with a message naming the problem, never an exception from
 * deep inside the handler, and never a decision taken on a value the API server would not store.
 */
class HostileInputTest {

  private static final String VALID = Reviews.review("CREATE", Reviews.validRollout()).toString();

  private static String reason(byte[] body) {
    return assertThrows(BadReviewException.class, () -> AdmissionReviews.parse(body)).getMessage();
  }

  @Test
  void utf16BodiesAreRefusedNamingTheEncoding() {
    String le = reason(VALID.getBytes(StandardCharsets.UTF_16LE));
    assertTrue(le.contains("must be UTF-8"), le);
    String be = reason(VALID.getBytes(StandardCharsets.UTF_16)); // with a byte order mark
    assertTrue(be.contains("UTF-16 byte order mark"), be);
    String utf32 = reason(VALID.getBytes(java.nio.charset.Charset.forName("UTF-32BE")));
    assertTrue(utf32.contains("UTF-16 or UTF-32"), utf32);
  }

  @Test
  void aUtf8ByteOrderMarkIsAccepted() throws Exception {
    AdmissionRequest r =
        AdmissionReviews.parse(("\uFEFF" + VALID).getBytes(StandardCharsets.UTF_8));
    assertEquals("allowed", new AdmissionHandler(ClusterView.NONE).validate(r).verdict());
  }

  /**
   * Each sequence is put inside the object's {@code image}, in the envelope, and at the body's end.
   */
  @ParameterizedTest
  @CsvSource({
    "C080, overlong",
    "E08080, overlong",
    "EDA080, surrogate U+D800",
    "EDBFBF, surrogate U+DFFF",
    "F4908080, beyond U+10FFFF",
    "F8888080, cannot start",
    "FF, cannot start",
    "C1BF, overlong",
    "80, cannot start",
    "E282, does not continue",
  })
  void malformedUtf8IsRefusedWithItsOffset(String hex, String expected) {
    byte[] seq = HexFormat.of().parseHex(hex);
    for (String after :
        new String[] {"\"image\":\"nginx", "\"group\":\"argoproj", "\"uid\":\"705"}) {
      byte[] body = insert(VALID, VALID.indexOf(after) + after.length(), seq);
      String message = reason(body);
      assertTrue(message.startsWith("body is not valid UTF-8: "), message);
      assertTrue(message.contains(expected), hex + " after " + after + ": " + message);
      assertTrue(message.contains("offset " + (VALID.indexOf(after) + after.length())), message);
    }
  }

  @Test
  void aSequenceCutShortAtTheEndIsRefused() {
    byte[] body = insert(VALID, VALID.length(), HexFormat.of().parseHex("E282"));
    assertTrue(reason(body).contains("cut short"));
  }

  @Test
  void nulBytesOutsideEscapesAreRefused() {
    String message = reason(insert(VALID, VALID.indexOf("\"image\":\"nginx") + 10, new byte[] {0}));
    assertTrue(message.contains("NUL byte at offset"), message);
  }

  @Test
  void wellFormedMultiByteTextPassesAndSurvivesTheAnswer() throws Exception {
    String text = "naïve ✓ 日本 \uD83D\uDE80 \uFFFD \uFFFF";
    String body = VALID.replace("\"image\":\"nginx", "\"image\":\"" + text + "nginx");
    assertNull(Utf8Check.problem(body.getBytes(StandardCharsets.UTF_8)));
    AdmissionRequest r = AdmissionReviews.parse(body.getBytes(StandardCharsets.UTF_8));
    AdmissionDecision d = new AdmissionHandler(ClusterView.NONE).mutate(r);
    AdmissionReviews.mapper().writeValueAsBytes(d.review());
  }

  @Test
  void anEscapedLoneSurrogateIsKeptEscapedInTheAnswer() throws Exception {
    // "\ud800" is valid JSON text (RFC 8259 allows any escape); the answer must still be writable.
    String body = VALID.replace("\"app\":\"web\"", "\"app\":\"w\\ud800\"");
    AdmissionRequest r = AdmissionReviews.parse(body.getBytes(StandardCharsets.UTF_8));
    AdmissionDecision validate = new AdmissionHandler(ClusterView.NONE).validate(r);
    AdmissionDecision mutate = new AdmissionHandler(ClusterView.NONE).mutate(r);
    for (AdmissionDecision d : new AdmissionDecision[] {validate, mutate}) {
      JsonNode back =
          AdmissionReviews.mapper()
              .readTree(AdmissionReviews.mapper().writeValueAsBytes(d.review()));
      assertEquals("705ab4f5-6393-11e8-b7cc-42010a800002", back.at("/response/uid").asText());
    }
  }

  @Test
  void aKeyGivenTwiceIsRefusedNamingWhere() {
    // Last-wins would let a reviewer see one value and the API server (which also refuses
    // duplicates in strict decoding, or keeps the last) another; a 400 naming the place leaves no
    // doubt.
    String image =
        reason(
            bytes(
                VALID.replace(
                    "\"image\":\"nginx:1.27\"", "\"image\":\"nginx:1.27\",\"image\":\"x\"")));
    assertTrue(image.contains("Duplicate field 'image'"), image);
    assertTrue(image.contains(" at /request/object/spec/template/spec/containers/0/image"), image);
    String weight =
        reason(
            bytes(VALID.replaceFirst("\"setWeight\":(\\d+)", "\"setWeight\":-5,\"setWeight\":$1")));
    assertTrue(weight.contains("Duplicate field 'setWeight'"), weight);
    assertTrue(
        weight.contains(" at /request/object/spec/strategy/canary/steps/0/setWeight"), weight);
    String uid = reason(bytes(VALID.replaceFirst("\"uid\":", "\"uid\":\"a\",\"uid\":")));
    assertTrue(uid.contains("Duplicate field 'uid'") && uid.contains(" at /request/uid"), uid);
  }

  @Test
  void malformedJsonNamesItsPlace() {
    String message = reason(bytes(VALID.replaceFirst("\"setWeight\":(\\d+)", "\"setWeight\":$1x")));
    assertTrue(message.startsWith("malformed JSON: "), message);
    assertTrue(
        message.contains(" at /request/object/spec/strategy/canary/steps/0/setWeight"), message);
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] insert(String text, int at, byte[] seq) {
    byte[] src = bytes(text);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(src, 0, at);
    out.write(seq, 0, seq.length);
    out.write(src, at, src.length - at);
    return out.toByteArray();
  }
}
