package io.rollgate.controller.analysis.provider.influxdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.rollgate.controller.analysis.provider.common.MetricProviderException;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class FluxCsvTest {

  static final String TWO_TABLES =
      "#datatype,string,long,dateTime:RFC3339,double,string\r\n"
          + "#group,false,false,false,false,true\r\n"
          + "#default,_result,,,,\r\n"
          + ",result,table,_time,_value,_field\r\n"
          + ",,0,2026-01-01T00:00:00Z,0.5,value\r\n"
          + ",,0,2026-01-01T00:00:10Z,0.7,value\r\n"
          + "\r\n"
          + "#datatype,string,long,dateTime:RFC3339,long,string\r\n"
          + "#group,false,false,false,false,true\r\n"
          + "#default,_result,,,,\r\n"
          + ",result,table,_time,_value,_field\r\n"
          + ",,1,2026-01-01T00:00:10Z,3,count\r\n"
          + "\r\n";

  @Test
  void valuesOfEveryTableInOrderWithTheirDatatypes() {
    assertEquals(List.of(0.5, 0.7, 3L), FluxCsv.values(TWO_TABLES));
  }

  @Test
  void emptyAnswerHasNoValues() {
    assertEquals(List.of(), FluxCsv.values("\r\n"));
    assertEquals(List.of(), FluxCsv.values(""));
  }

  @Test
  void emptyCellsTakeTheDefaultElseNull() {
    String csv =
        "#datatype,string,long,double\n#group,false,false,false\n#default,_result,,2.5\n,result,table,_value\n"
            + ",,0,\n,,0,1\n";
    assertEquals(List.of(2.5, 1.0), FluxCsv.values(csv));
    String noDefault =
        "#datatype,string,long,string\n#default,_result,,\n,result,table,_value\n,,0,\n";
    assertEquals(Arrays.asList((Object) null), FluxCsv.values(noDefault));
  }

  @Test
  void everyDatatypeConverts() {
    assertEquals("a,b", FluxCsv.convert("a,b", "string"));
    assertEquals(true, FluxCsv.convert("TRUE", "boolean"));
    assertEquals(false, FluxCsv.convert("false", "boolean"));
    assertEquals(-4L, FluxCsv.convert("-4", "long"));
    assertEquals(18446744073709551615.0, FluxCsv.convert("18446744073709551615", "unsignedLong"));
    assertEquals(7L, FluxCsv.convert("7", "unsignedLong"));
    assertEquals(
        Instant.parse("2026-01-01T00:00:00.5Z"),
        FluxCsv.convert("2026-01-01T00:00:00.5Z", "dateTime:RFC3339Nano"));
    assertEquals(Duration.ofMinutes(90), FluxCsv.convert("1h30m", "duration"));
    assertEquals("hi", FluxCsv.convert("aGk=", "base64Binary"));
    assertEquals(Double.POSITIVE_INFINITY, FluxCsv.convert("+Inf", "double"));
    assertEquals(
        "_value has unknown data type decimal",
        assertThrows(MetricProviderException.class, () -> FluxCsv.convert("1", "decimal"))
            .getMessage());
    assertEquals(
        "_value: cannot parse \"x\" as double",
        assertThrows(MetricProviderException.class, () -> FluxCsv.convert("x", "double"))
            .getMessage());
  }

  @Test
  void quotedCellsMayHoldCommasQuotesAndLineBreaks() {
    String csv =
        "#datatype,string,long,string\n#default,_result,,\n,result,table,_value\n,,0,\"a, \"\"b\"\"\nc\"\n";
    assertEquals(List.of("a, \"b\"\nc"), FluxCsv.values(csv));
  }

  @Test
  void errorTableIsTheQueryError() {
    String csv =
        "#datatype,string,string\n#group,true,true\n#default,,\n,error,reference\n"
            + ",\"failed to execute query: no such bucket\",897\n";
    assertEquals(
        "failed to execute query: no such bucket,897",
        assertThrows(MetricProviderException.class, () -> FluxCsv.values(csv)).getMessage());
    String noMessage = "#datatype,string,string\n,error,reference\n,,\n";
    assertEquals(
        "unknown query error",
        assertThrows(MetricProviderException.class, () -> FluxCsv.values(noMessage)).getMessage());
  }

  @Test
  void malformedCsvIsAnError() {
    assertEquals(
        "parsing error, annotations not found",
        assertThrows(MetricProviderException.class, () -> FluxCsv.values(",result,_value\n,,1\n"))
            .getMessage());
    assertEquals(
        "parsing error, row has different number of columns than the table: 3 vs 2",
        assertThrows(
                MetricProviderException.class,
                () -> FluxCsv.values("#datatype,string,double\n,result,_value\n,,1,2\n"))
            .getMessage());
    assertEquals(
        "parsing error, datatype annotation not found",
        assertThrows(
                MetricProviderException.class,
                () -> FluxCsv.values("#group,false,false\n,result,_value\n"))
            .getMessage());
    assertThrows(
        MetricProviderException.class, () -> FluxCsv.values("#datatype,string\n,\"open\n"));
  }

  @Test
  void tableWithoutValueColumnGivesNullPerRecord() {
    String csv = "#datatype,string,long,string\n#default,_result,,\n,result,table,name\n,,0,a\n";
    assertEquals(Arrays.asList((Object) null), FluxCsv.values(csv));
  }
}
