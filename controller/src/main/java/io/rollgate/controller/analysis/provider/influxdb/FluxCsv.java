package io.rollgate.controller.analysis.provider.influxdb;

import io.rollgate.controller.analysis.provider.common.MetricProviderException;
import io.rollgate.defaults.GoDurations;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Reads the annotated CSV that InfluxDB's {@code /api/v2/query} answers for a Flux query with the
 * dialect {@code annotations: [datatype, group, default], header: true}: one or more tables, each
 * introduced by {@code #datatype}, {@code #group} and {@code #default} rows and a header row, then
 * its records. Pure, no I/O.
 */
public final class FluxCsv {

  private FluxCsv() {}

  /**
   * Collects the {@code _value} column of every record of every table, converted by the column's
   * datatype: {@code double} to Double, {@code long} and {@code unsignedLong} to Long (an unsigned
   * value beyond the Long range to Double), {@code boolean} to Boolean, {@code string} to String,
   * {@code dateTime:RFC3339}/{@code RFC3339Nano} to Instant, {@code duration} to Duration and
   * {@code base64Binary} to the decoded text. An empty cell takes the column's {@code #default},
   * and an empty default is {@code null}; a table without a {@code _value} column adds {@code null}
   * per record.
   *
   * @param csv the response body
   * @return the values in answer order; empty when the answer has no records
   * @throws MetricProviderException for an error table ({@code ,error,reference}: its message, then
   *     {@code ,<reference>} when set) and for malformed CSV (the problem named)
   */
  public static List<Object> values(String csv) {
    List<Object> values = new ArrayList<>();
    List<String> datatypes = null;
    List<String> defaults = List.of();
    int valueColumn = -1;
    boolean inAnnotations = false;
    boolean expectHeader = false;
    boolean errorTable = false;
    for (List<String> row : rows(csv)) {
      if (row.size() <= 1) {
        continue;
      }
      String first = row.get(0);
      if (first.startsWith("#")) {
        if (!inAnnotations) {
          datatypes = null;
          defaults = List.of();
          valueColumn = -1;
          errorTable = false;
          inAnnotations = true;
        }
        List<String> cells = row.subList(1, row.size());
        switch (first) {
          case "#datatype" -> datatypes = List.copyOf(cells);
          case "#default" -> defaults = List.copyOf(cells);
          default -> {} // #group and unknown annotations do not affect values
        }
        expectHeader = true;
        continue;
      }
      if (!first.isEmpty()) {
        continue;
      }
      if (datatypes == null) {
        throw new MetricProviderException(
            expectHeader
                ? "parsing error, datatype annotation not found"
                : "parsing error, annotations not found");
      }
      if (row.size() - 1 != datatypes.size()) {
        throw new MetricProviderException(
            "parsing error, row has different number of columns than the table: "
                + (row.size() - 1)
                + " vs "
                + datatypes.size());
      }
      if (expectHeader) {
        expectHeader = false;
        inAnnotations = false;
        errorTable = "error".equals(row.get(1));
        valueColumn = row.subList(1, row.size()).indexOf("_value");
        continue;
      }
      if (errorTable) {
        String message = row.get(1).isEmpty() ? "unknown query error" : row.get(1);
        String reference = row.size() > 2 && !row.get(2).isEmpty() ? "," + row.get(2) : "";
        throw new MetricProviderException(message + reference);
      }
      if (valueColumn < 0) {
        values.add(null);
        continue;
      }
      String cell = row.get(valueColumn + 1);
      if (cell.isEmpty() && valueColumn < defaults.size()) {
        cell = defaults.get(valueColumn);
      }
      values.add(convert(cell, datatypes.get(valueColumn)));
    }
    return values;
  }

  /**
   * Converts one cell by its {@code #datatype}.
   *
   * @param cell the text; empty means null
   * @param datatype the column's datatype annotation
   * @return the value, see {@link #values(String)}
   * @throws MetricProviderException when the text does not parse as the datatype, or for an unknown
   *     datatype
   */
  static Object convert(String cell, String datatype) {
    if (cell.isEmpty()) {
      return null;
    }
    try {
      return switch (datatype) {
        case "string" -> cell;
        case "double" -> parseDouble(cell);
        case "boolean" -> !"false".equals(cell.toLowerCase(Locale.ROOT));
        case "long" -> Long.parseLong(cell);
        case "unsignedLong" -> unsigned(cell);
        case "dateTime:RFC3339", "dateTime:RFC3339Nano" -> Instant.parse(cell);
        case "duration" -> duration(cell);
        case "base64Binary" ->
            new String(Base64.getDecoder().decode(cell), java.nio.charset.StandardCharsets.UTF_8);
        default -> throw new MetricProviderException("_value has unknown data type " + datatype);
      };
    } catch (NumberFormatException | DateTimeParseException e) {
      throw new MetricProviderException("_value: cannot parse \"" + cell + "\" as " + datatype, e);
    } catch (IllegalArgumentException e) {
      throw new MetricProviderException("_value: cannot parse \"" + cell + "\" as " + datatype, e);
    }
  }

  private static double parseDouble(String cell) {
    return switch (cell) {
      case "+Inf", "Inf" -> Double.POSITIVE_INFINITY;
      case "-Inf" -> Double.NEGATIVE_INFINITY;
      case "NaN" -> Double.NaN;
      default -> Double.parseDouble(cell);
    };
  }

  private static Object unsigned(String cell) {
    long v = Long.parseUnsignedLong(cell);
    return v >= 0 ? (Object) v : (Object) Double.parseDouble(cell);
  }

  private static Duration duration(String cell) {
    Optional<Duration> d = GoDurations.parse(cell);
    if (d.isEmpty()) {
      throw new IllegalArgumentException("not a duration");
    }
    return d.get();
  }

  /**
   * Splits CSV text into rows of cells (RFC 4180: quoted cells may hold commas, quotes as "" and
   * line breaks).
   */
  static List<List<String>> rows(String csv) {
    List<List<String>> rows = new ArrayList<>();
    List<String> row = new ArrayList<>();
    StringBuilder cell = new StringBuilder();
    boolean quoted = false;
    boolean rowStarted = false;
    String text = csv == null ? "" : csv;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (quoted) {
        if (c == '"') {
          if (i + 1 < text.length() && text.charAt(i + 1) == '"') {
            cell.append('"');
            i++;
          } else {
            quoted = false;
          }
        } else {
          cell.append(c);
        }
        continue;
      }
      switch (c) {
        case '"' -> {
          quoted = true;
          rowStarted = true;
        }
        case ',' -> {
          row.add(cell.toString());
          cell.setLength(0);
          rowStarted = true;
        }
        case '\r' -> {}
        case '\n' -> {
          if (rowStarted || cell.length() > 0) {
            row.add(cell.toString());
            rows.add(row);
          }
          row = new ArrayList<>();
          cell.setLength(0);
          rowStarted = false;
        }
        default -> {
          cell.append(c);
          rowStarted = true;
        }
      }
    }
    if (quoted) {
      throw new MetricProviderException("parsing error, extraneous or missing \" in quoted-field");
    }
    if (rowStarted || cell.length() > 0) {
      row.add(cell.toString());
      rows.add(row);
    }
    return rows;
  }
}
