package io.rollgate.controller.analysis.provider.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GoFormatTest {

  @Test
  void formatsSampleValuesLikeStrconvFormatFloatF() {
    assertEquals("0.95", GoFormat.formatFloat(0.95));
    assertEquals("1", GoFormat.formatFloat(1.0));
    assertEquals("0.09999999999999995", GoFormat.formatFloat(0.09999999999999995));
    assertEquals("0.0000001", GoFormat.formatFloat(1e-7));
    assertEquals("100000000000000000000000", GoFormat.formatFloat(1e23));
    assertEquals("-2.5", GoFormat.formatFloat(-2.5));
    assertEquals("0", GoFormat.formatFloat(0.0));
    assertEquals("NaN", GoFormat.formatFloat(Double.NaN));
    assertEquals("+Inf", GoFormat.formatFloat(Double.POSITIVE_INFINITY));
    assertEquals("-Inf", GoFormat.formatFloat(Double.NEGATIVE_INFINITY));
  }

  @Test
  void marshalsLikeGoJsonMarshal() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("z", 1.0);
    m.put("a", Arrays.asList(true, null, "x<y & z>w", 0.5));
    m.put("m", Map.of("k", 1e21));
    assertEquals(
        "{\"a\":[true,null,\"x\\u003cy \\u0026 z\\u003ew\",0.5],\"m\":{\"k\":1e+21},\"z\":1}",
        GoFormat.marshalJson(m));
    assertEquals("1e-7", GoFormat.marshalJson(1e-7));
    assertEquals("0.000001", GoFormat.marshalJson(1e-6));
    assertEquals("123456789", GoFormat.marshalJson(123456789.0));
    assertEquals("\"ok\"", GoFormat.marshalJson("ok"));
    assertEquals("\"a\\nb\\\"c\\\\\"", GoFormat.marshalJson("a\nb\"c\\"));
    assertEquals("[]", GoFormat.marshalJson(List.of()));
    assertThrows(IllegalArgumentException.class, () -> GoFormat.marshalJson(Double.NaN));
  }
}
